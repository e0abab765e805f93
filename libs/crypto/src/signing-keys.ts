import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import * as jwt from 'jsonwebtoken';

export interface GeneratedSigningKey {
  kid: string;
  publicJwk: JsonWebKey;
  privateKeyPem: string;
}

/** A fresh ES256 (P-256) key pair; `kid` is random and URL safe. */
export function generateSigningKey(): GeneratedSigningKey {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = randomBytes(12).toString('base64url');
  const jwk = publicKey.export({ format: 'jwk' });
  return {
    kid,
    publicJwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, kid, alg: 'ES256', use: 'sig' },
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}

export function privateKeyFromPem(pem: string): KeyObject {
  return createPrivateKey({ key: pem, format: 'pem' });
}

export function publicKeyFromJwk(jwk: JsonWebKey): KeyObject {
  const { kty, crv, x, y } = jwk;
  return createPublicKey({ key: { kty, crv, x, y } as JsonWebKey, format: 'jwk' });
}

export interface AccessTokenClaims {
  iss: string;
  aud: string;
  sub: string;
  sid: string;
  tid: string;
  adm: boolean;
  /** When the user last proved a credential (seconds); absent in tokens issued before it existed. */
  auth_time?: number;
  iat: number;
  exp: number;
}

/**
 * A compact JWS (RFC 7515) over the claims, signed ES256 with Node's crypto: the signature is the
 * raw 64-byte r‖s form JWA requires (`ieee-p1363`). Verification stays with jsonwebtoken.
 */
export function signAccessToken(claims: AccessTokenClaims, key: KeyObject, kid: string): string {
  const header = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid })).toString('base64url');
  const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

/** Reads the `kid` from the header without trusting anything else in it. */
export function peekKid(token: string): string | null {
  const decoded = jwt.decode(token, { complete: true });
  if (!decoded || typeof decoded === 'string' || decoded.header.alg !== 'ES256') return null;
  const kid = decoded.header.kid;
  // Our kids are 16 base64url characters; anything else cannot be one of ours (and never reaches SQL).
  return typeof kid === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(kid) ? kid : null;
}

/**
 * Verifies signature (ES256 only, with our own key), expiry, and audience when given. Header fields
 * such as `jku`, `x5u` and `jwk` are never consulted. Returns null for any invalid token.
 */
export function verifyAccessToken(token: string, key: KeyObject, opts: { nowSeconds: number; audience?: string }): AccessTokenClaims | null {
  try {
    const claims = jwt.verify(token, key, {
      algorithms: ['ES256'],
      clockTimestamp: opts.nowSeconds,
      ...(opts.audience ? { audience: opts.audience } : {}),
    });
    if (typeof claims === 'string') return null;
    const c = claims as Partial<AccessTokenClaims>;
    if (typeof c.sub !== 'string' || typeof c.sid !== 'string' || typeof c.tid !== 'string' || typeof c.aud !== 'string') return null;
    if (typeof c.exp !== 'number') return null;
    if (c.auth_time !== undefined && typeof c.auth_time !== 'number') return null;
    return c as AccessTokenClaims;
  } catch {
    return null;
  }
}
