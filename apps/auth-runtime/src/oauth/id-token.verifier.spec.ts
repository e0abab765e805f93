import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import jwt, { type Algorithm } from 'jsonwebtoken';
import { Clock } from '@gatehouse/platform';
import { IdTokenVerifier, type IdTokenExpectations } from './id-token.verifier';
import type { ProviderKeysService, VerificationKey } from './provider-keys.service';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherRsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const NOW = 1_800_000_000;

class FixedClock extends Clock {
  override now(): Date {
    return new Date(NOW * 1000);
  }
}

/** In-memory key source (the real one fetches the provider's JWKS). */
class FakeKeys {
  constructor(private readonly keys: VerificationKey[]) {}
  keysFor(_url: string, kid: string | null): Promise<VerificationKey[]> {
    return Promise.resolve(this.keys.filter((k) => kid === null || k.kid === kid));
  }
}

const expected: IdTokenExpectations = {
  issuer: 'https://idp.example',
  issuerAliases: [],
  clientId: 'client-1',
  nonce: 'nonce-1',
  jwksUrl: 'https://idp.example/jwks',
};
const claims = {
  iss: 'https://idp.example',
  aud: 'client-1',
  sub: 'user-1',
  nonce: 'nonce-1',
  iat: NOW - 10,
  exp: NOW + 600,
  email: 'a@example.com',
};

function sign(
  payload: object,
  key: KeyObject | string = rsa.privateKey,
  algorithm: Algorithm = 'RS256',
  kid: string | undefined = 'k1',
): string {
  return jwt.sign(payload, key, { algorithm, ...(kid ? { keyid: kid } : {}) });
}

function verifier(
  keys: VerificationKey[] = [{ key: rsa.publicKey, kid: 'k1', alg: 'RS256' }],
): IdTokenVerifier {
  return new IdTokenVerifier(
    new FakeKeys(keys) as unknown as ProviderKeysService,
    new FixedClock(),
  );
}

describe('IdTokenVerifier', () => {
  it('accepts a token signed by a provider key with the expected issuer, audience and nonce', async () => {
    await expect(verifier().verify(sign(claims), expected)).resolves.toMatchObject({
      sub: 'user-1',
      email: 'a@example.com',
    });
    const esKeys = [{ key: ec.publicKey, kid: 'e1', alg: null }];
    await expect(
      verifier(esKeys).verify(sign(claims, ec.privateKey, 'ES256', 'e1'), expected),
    ).resolves.toMatchObject({ sub: 'user-1' });
  });

  it.each([
    ['another issuer', { iss: 'https://evil.example' }],
    ['another audience', { aud: 'client-2' }],
    ['another nonce', { nonce: 'nonce-2' }],
    ['no nonce', { nonce: undefined }],
    ['expired', { exp: NOW - 3600 }],
    ['issued in the future', { iat: NOW + 3600, exp: NOW + 7200 }],
    ['no expiry', { exp: undefined }],
    ['no subject', { sub: undefined }],
    ['several audiences and no azp', { aud: ['client-1', 'client-2'] }],
  ])('rejects %s', async (_name, change) => {
    const payload: Record<string, unknown> = { ...claims, ...change };
    for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k];
    await expect(verifier().verify(sign(payload), expected)).rejects.toThrow();
  });

  it('rejects a signature by another key, alg none, and HMAC keyed with the public key', async () => {
    await expect(verifier().verify(sign(claims, otherRsa.privateKey), expected)).rejects.toThrow();
    const none = jwt.sign(claims, '', { algorithm: 'none', keyid: 'k1' } as jwt.SignOptions);
    await expect(verifier().verify(none, expected)).rejects.toThrow(/algorithm/);
    const pem = rsa.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    await expect(verifier().verify(sign(claims, pem, 'HS256'), expected)).rejects.toThrow(
      /algorithm/,
    );
  });

  it('rejects a token whose kid is unknown, or whose alg differs from the key’s', async () => {
    await expect(
      verifier().verify(sign(claims, rsa.privateKey, 'RS256', 'other'), expected),
    ).rejects.toThrow(/no provider key/);
    await expect(
      verifier([{ key: rsa.publicKey, kid: 'k1', alg: 'PS256' }]).verify(sign(claims), expected),
    ).rejects.toThrow(/no provider key/);
  });

  it('rejects missing or malformed tokens', async () => {
    for (const token of [undefined, null, 42, '', 'not.a.jwt', 'x'.repeat(20_000)]) {
      await expect(verifier().verify(token, expected)).rejects.toThrow();
    }
  });

  it('fills Microsoft’s {tenantid} issuer template from the token’s tid', async () => {
    const tid = '9188040d-6c67-4c5b-b112-36a304b66dad';
    const ms = { ...expected, issuer: 'https://login.microsoftonline.com/{tenantid}/v2.0' };
    const good = sign({ ...claims, iss: `https://login.microsoftonline.com/${tid}/v2.0`, tid });
    await expect(verifier().verify(good, ms)).resolves.toMatchObject({ tid });
    const otherTenant = sign({
      ...claims,
      iss: 'https://login.microsoftonline.com/00000000-0000-0000-0000-000000000000/v2.0',
      tid,
    });
    await expect(verifier().verify(otherTenant, ms)).rejects.toThrow();
    await expect(
      verifier().verify(sign({ ...claims, iss: 'https://login.microsoftonline.com/x/v2.0' }), ms),
    ).rejects.toThrow(/tenant/);
  });

  it('accepts the issuer aliases of a default provider (Google without scheme)', async () => {
    const google = {
      ...expected,
      issuer: 'https://accounts.google.com',
      issuerAliases: ['accounts.google.com'],
    };
    await expect(
      verifier().verify(sign({ ...claims, iss: 'accounts.google.com' }), google),
    ).resolves.toMatchObject({ sub: 'user-1' });
  });

  it('accepts several audiences when azp is our client', async () => {
    await expect(
      verifier().verify(
        sign({ ...claims, aud: ['client-1', 'client-2'], azp: 'client-1' }),
        expected,
      ),
    ).resolves.toMatchObject({ sub: 'user-1' });
  });
});
