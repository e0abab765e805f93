import { createPrivateKey, sign, verify } from 'node:crypto';
import {
  generateSigningKey,
  peekKid,
  privateJwkOf,
  privateKeyFromPem,
  publicJwkMembers,
  publicKeyFromJwk,
  verifyAccessToken,
} from './signing-keys';

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'];
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('signing keys: ES256 and RS256', () => {
  it('defaults to ES256 (P-256) with exactly the public EC members', () => {
    const k = generateSigningKey();
    expect(k.algorithm).toBe('ES256');
    expect(k.publicJwk).toEqual({
      kty: 'EC',
      crv: 'P-256',
      x: expect.any(String),
      y: expect.any(String),
      kid: k.kid,
      alg: 'ES256',
      use: 'sig',
    });
    expect(privateKeyFromPem(k.privateKeyPem).asymmetricKeyType).toBe('ec');
  });

  it('makes RS256 keys: RSA 2048-bit, public JWK {kty, n, e, kid, alg, use}, private PEM in PKCS#8', () => {
    const k = generateSigningKey('RS256');
    expect(k.algorithm).toBe('RS256');
    expect(k.kid).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(k.publicJwk).toEqual({
      kty: 'RSA',
      n: expect.any(String),
      e: 'AQAB',
      kid: k.kid,
      alg: 'RS256',
      use: 'sig',
    });
    expect(Buffer.from(k.publicJwk.n!, 'base64url')).toHaveLength(256);
    expect(k.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const privateKey = privateKeyFromPem(k.privateKeyPem);
    expect(privateKey.asymmetricKeyType).toBe('rsa');
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(generateSigningKey('RS256').kid).not.toBe(k.kid);
  });

  it('round-trips an RSA JWK: the public key from the JWK verifies what the private PEM signed', () => {
    const k = generateSigningKey('RS256');
    const publicKey = publicKeyFromJwk(k.publicJwk);
    expect(publicKey.asymmetricKeyType).toBe('rsa');
    expect(publicKey.export({ format: 'jwk' })).toEqual({
      kty: 'RSA',
      n: k.publicJwk.n,
      e: k.publicJwk.e,
    });
    const signature = sign('sha256', Buffer.from('payload'), privateKeyFromPem(k.privateKeyPem));
    expect(verify('sha256', Buffer.from('payload'), publicKey, signature)).toBe(true);
    expect(
      verify(
        'sha256',
        Buffer.from('payload'),
        publicKeyFromJwk(generateSigningKey('RS256').publicJwk),
        signature,
      ),
    ).toBe(false);
  });

  it('exports private JWKs with kid, alg and use; their public members are the published JWK', () => {
    for (const algorithm of ['ES256', 'RS256'] as const) {
      const k = generateSigningKey(algorithm);
      const jwk = privateJwkOf(privateKeyFromPem(k.privateKeyPem), k.kid, algorithm);
      expect(jwk).toMatchObject({ kid: k.kid, alg: algorithm, use: 'sig', d: expect.any(String) });
      expect(publicJwkMembers(jwk as Record<string, unknown>)).toEqual(k.publicJwk);
      // The private JWK opens to the same key.
      expect(
        createPrivateKey({ key: jwk, format: 'jwk' }).export({ format: 'pem', type: 'pkcs8' }),
      ).toBe(k.privateKeyPem);
      // A private JWK given to publicKeyFromJwk yields the public half only.
      expect(publicKeyFromJwk(jwk).type).toBe('public');
    }
    const rsa = privateJwkOf(
      privateKeyFromPem(generateSigningKey('RS256').privateKeyPem),
      'k',
      'RS256',
    ) as Record<string, unknown>;
    for (const name of PRIVATE_MEMBERS) expect(rsa[name]).toEqual(expect.any(String));
    expect(Object.keys(publicJwkMembers(rsa)).sort()).toEqual([
      'alg',
      'e',
      'kid',
      'kty',
      'n',
      'use',
    ]);
  });

  it('never takes an RS256-signed token for one of our ES256 access tokens', () => {
    const rsa = generateSigningKey('RS256');
    const now = 1_800_000_000;
    const claims = {
      iss: 'i',
      aud: 'p1',
      sub: 'u',
      sid: 's',
      tid: 't',
      adm: false,
      iat: now,
      exp: now + 900,
    };
    const input = `${b64({ alg: 'RS256', typ: 'JWT', kid: rsa.kid })}.${b64(claims)}`;
    const token = `${input}.${sign('sha256', Buffer.from(input), privateKeyFromPem(rsa.privateKeyPem)).toString('base64url')}`;
    expect(peekKid(token)).toBeNull();
    expect(
      verifyAccessToken(token, publicKeyFromJwk(rsa.publicJwk), {
        nowSeconds: now,
        audience: 'p1',
      }),
    ).toBeNull();
    // Nor when the header claims ES256 over an RSA signature.
    const lying = `${b64({ alg: 'ES256', typ: 'JWT', kid: rsa.kid })}.${b64(claims)}`;
    const lyingToken = `${lying}.${sign('sha256', Buffer.from(lying), privateKeyFromPem(rsa.privateKeyPem)).toString('base64url')}`;
    expect(
      verifyAccessToken(lyingToken, publicKeyFromJwk(rsa.publicJwk), {
        nowSeconds: now,
        audience: 'p1',
      }),
    ).toBeNull();
  });

  it('refuses an unknown algorithm', () => {
    expect(() => generateSigningKey('HS256' as 'ES256')).toThrow(/unsupported signing algorithm/);
  });
});
