import jwt from 'jsonwebtoken';
import type { AppleSigningKey } from './provider-config';

/** Lifetime of the client secret JWT we mint per token exchange (Apple allows up to six months). */
export const APPLE_CLIENT_SECRET_TTL_SECONDS = 300;

/**
 * Apple's client secret: an ES256 JWT signed with the team's Sign in with Apple key, `kid` = key
 * id, `iss` = team id, `sub` = client id (the Services ID), `aud` = the issuer
 * (`https://appleid.apple.com` unless overridden).
 */
export function appleClientSecret(
  key: AppleSigningKey,
  clientId: string,
  audience: string,
  nowSeconds: number,
): string {
  return jwt.sign(
    {
      iss: key.teamId,
      sub: clientId,
      aud: audience,
      iat: nowSeconds,
      exp: nowSeconds + APPLE_CLIENT_SECRET_TTL_SECONDS,
    },
    key.privateKeyPem,
    {
      algorithm: 'ES256',
      keyid: key.keyId,
    },
  );
}
