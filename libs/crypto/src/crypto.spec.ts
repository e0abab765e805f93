import { decryptSecretString, encryptSecret } from './aes-gcm';
import {
  generateSigningKey,
  peekKid,
  privateKeyFromPem,
  publicKeyFromJwk,
  signAccessToken,
  verifyAccessToken,
} from './signing-keys';
import { randomDigits, randomToken, safeEqual, sha256Hex } from './tokens';
import { newSpanId, traceIdFrom, traceResponse } from './trace-context';

const key = Buffer.alloc(32, 9);

describe('crypto', () => {
  it('seals secrets with AES-GCM and detects tampering or a wrong AAD', () => {
    const sealed = encryptSecret(key, 'top secret', 'kid-1');
    expect(sealed).not.toContain('top secret');
    expect(decryptSecretString(key, sealed, 'kid-1')).toBe('top secret');
    expect(() => decryptSecretString(key, sealed, 'kid-2')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => decryptSecretString(key, parts.join('.'), 'kid-1')).toThrow();
  });

  it('makes 256-bit tokens, uniform digit codes and constant-time comparisons', () => {
    expect(Buffer.from(randomToken(), 'base64url')).toHaveLength(32);
    expect(randomToken(24, 'pk_')).toMatch(/^pk_[A-Za-z0-9_-]{32}$/);
    expect(randomDigits(6)).toMatch(/^\d{6}$/);
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(sha256Hex('x')).toHaveLength(64);
  });

  it('signs ES256 access tokens that verify only with the right key and audience', () => {
    const k = generateSigningKey();
    const other = generateSigningKey();
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
    const token = signAccessToken(claims, privateKeyFromPem(k.privateKeyPem), k.kid);
    expect(peekKid(token)).toBe(k.kid);
    expect(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString())).toEqual({
      alg: 'ES256',
      typ: 'JWT',
      kid: k.kid,
    });
    expect(Buffer.from(token.split('.')[2], 'base64url')).toHaveLength(64);
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<
      string,
      unknown
    >;
    expect(Object.keys(payload).sort()).toEqual([
      'adm',
      'aud',
      'exp',
      'iat',
      'iss',
      'sid',
      'sub',
      'tid',
    ]);
    expect(payload.iat).toBe(now);
    expect(
      verifyAccessToken(token, publicKeyFromJwk(k.publicJwk), { nowSeconds: now, audience: 'p1' }),
    ).toMatchObject({ sub: 'u', sid: 's' });
    expect(
      verifyAccessToken(token, publicKeyFromJwk(other.publicJwk), { nowSeconds: now }),
    ).toBeNull();
    expect(
      verifyAccessToken(token, publicKeyFromJwk(k.publicJwk), { nowSeconds: now, audience: 'p2' }),
    ).toBeNull();
    expect(
      verifyAccessToken(token, publicKeyFromJwk(k.publicJwk), { nowSeconds: now + 901 }),
    ).toBeNull();
  });

  it('takes the trace id from a valid traceparent only', () => {
    expect(traceIdFrom('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    expect(traceIdFrom('00-00000000000000000000000000000000-00f067aa0ba902b7-01')).not.toBe(
      '0'.repeat(32),
    );
    expect(traceIdFrom('garbage')).toMatch(/^[0-9a-f]{32}$/);
    // Upper-case hex and extra fields on version 00 are invalid; a later version may carry more fields.
    const upper = '00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01';
    expect(traceIdFrom(upper)).not.toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(traceIdFrom('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra')).not.toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    expect(traceIdFrom('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra')).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    expect(traceIdFrom('ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).not.toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    expect(traceResponse('a'.repeat(32), 'b'.repeat(16))).toBe(
      `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`,
    );
  });

  it('draws fresh trace and span ids across refills of the entropy buffer', () => {
    // 4 KiB of entropy serves 170 trace+span pairs: 1,000 pairs cross several refills.
    const ids = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const trace = traceIdFrom(undefined);
      const span = newSpanId();
      expect(trace).toMatch(/^[0-9a-f]{32}$/);
      expect(span).toMatch(/^[0-9a-f]{16}$/);
      ids.add(trace).add(span);
    }
    expect(ids.size).toBe(2000);
  });
});
