import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import * as jwt from 'jsonwebtoken';

export type SigningAlgorithm = 'ES256' | 'RS256';
export const SIGNING_ALGORITHMS: readonly SigningAlgorithm[] = ['ES256', 'RS256'];

export interface GeneratedSigningKey {
  kid: string;
  algorithm: SigningAlgorithm;
  publicJwk: JsonWebKey;
  privateKeyPem: string;
}

/**
 * A fresh key pair; `kid` is random and URL safe. ES256: P-256 (our access tokens). RS256: RSA
 * 2048-bit, for OpenID Connect clients that ask for RS256 ID tokens. The public JWK holds exactly
 * the public members.
 */
export function generateSigningKey(algorithm: SigningAlgorithm = 'ES256'): GeneratedSigningKey {
  const kid = randomBytes(12).toString('base64url');
  if (algorithm === 'RS256') {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicExponent: 0x10001,
    });
    const jwk = publicKey.export({ format: 'jwk' });
    return {
      kid,
      algorithm,
      publicJwk: { kty: 'RSA', n: jwk.n, e: jwk.e, kid, alg: 'RS256', use: 'sig' },
      privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    };
  }
  if (algorithm !== 'ES256') throw new Error(`unsupported signing algorithm ${String(algorithm)}`);
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  return {
    kid,
    algorithm,
    publicJwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, kid, alg: 'ES256', use: 'sig' },
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}

export function privateKeyFromPem(pem: string): KeyObject {
  return createPrivateKey({ key: pem, format: 'pem' });
}

/** The public key of an EC (P-256) or RSA JWK; only the public members are read, so a private JWK yields its public half. */
export function publicKeyFromJwk(jwk: JsonWebKey): KeyObject {
  if (jwk.kty === 'RSA') {
    const { kty, n, e } = jwk;
    return createPublicKey({ key: { kty, n, e } as JsonWebKey, format: 'jwk' });
  }
  const { kty, crv, x, y } = jwk;
  return createPublicKey({ key: { kty, crv, x, y } as JsonWebKey, format: 'jwk' });
}

/** The members of a public JWK of either kind; anything else (`d`, `p`, `q`, `dp`, `dq`, `qi`, `oth`…) is dropped. */
export function publicJwkMembers(jwk: Record<string, unknown>): Record<string, unknown> {
  const names =
    jwk.kty === 'RSA'
      ? ['kty', 'n', 'e', 'kid', 'alg', 'use']
      : ['kty', 'crv', 'x', 'y', 'kid', 'alg', 'use'];
  const out: Record<string, unknown> = {};
  for (const name of names) if (jwk[name] !== undefined) out[name] = jwk[name];
  return out;
}

/**
 * The private JWK of a key (RFC 7517/7518: `d`, and for RSA `p`, `q`, `dp`, `dq`, `qi`) with its
 * kid, alg and `use: sig`, as a JOSE library that signs with it (oidc-provider) wants it.
 */
export function privateJwkOf(key: KeyObject, kid: string, algorithm: SigningAlgorithm): JsonWebKey {
  return { ...key.export({ format: 'jwk' }), kid, alg: algorithm, use: 'sig' };
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
  /** RFC 8693 §4.1 actor: the admin acting as the user in an impersonated session (docs/api-contract.md §13). */
  act?: { sub: string };
  /** The session's active organization and the member's role and permissions there (docs/api-contract.md §14). */
  org?: { id: string; slug: string; role: string; permissions: string[] };
  iat: number;
  exp: number;
}

/**
 * A compact JWS (RFC 7515) over the claims, signed ES256 with Node's crypto: the signature is the
 * raw 64-byte r‖s form JWA requires (`ieee-p1363`). Verification stays with jsonwebtoken.
 */
export function signAccessToken(claims: AccessTokenClaims, key: KeyObject, kid: string): string {
  const header = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid })).toString(
    'base64url',
  );
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
export function verifyAccessToken(
  token: string,
  key: KeyObject,
  opts: { nowSeconds: number; audience?: string },
): AccessTokenClaims | null {
  try {
    const claims = jwt.verify(token, key, {
      algorithms: ['ES256'],
      clockTimestamp: opts.nowSeconds,
      ...(opts.audience ? { audience: opts.audience } : {}),
    });
    if (typeof claims === 'string') return null;
    const c = claims as Partial<AccessTokenClaims>;
    if (
      typeof c.sub !== 'string' ||
      typeof c.sid !== 'string' ||
      typeof c.tid !== 'string' ||
      typeof c.aud !== 'string'
    )
      return null;
    if (typeof c.exp !== 'number') return null;
    if (c.auth_time !== undefined && typeof c.auth_time !== 'number') return null;
    if (
      c.act !== undefined &&
      (typeof c.act !== 'object' || c.act === null || typeof c.act.sub !== 'string')
    )
      return null;
    return c as AccessTokenClaims;
  } catch {
    return null;
  }
}
