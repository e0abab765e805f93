import { Injectable } from '@nestjs/common';
import jwt, { type Algorithm } from 'jsonwebtoken';
import { Clock } from '@gatehouse/platform';
import { ProviderKeysService } from './provider-keys.service';

const ASYMMETRIC: readonly Algorithm[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
];
const CLOCK_TOLERANCE_SECONDS = 60;
const MAX_ID_TOKEN_LENGTH = 16 * 1024;

export interface IdTokenExpectations {
  /** May contain `{tenantid}` (Microsoft's multi-tenant issuer), filled from the token's `tid`. */
  issuer: string;
  issuerAliases: string[];
  clientId: string;
  nonce: string | null;
  jwksUrl: string;
}

export class IdTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IdTokenError';
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * OpenID Connect Core §3.1.3.7 for the providers that issue ID tokens: an asymmetric signature by a
 * key of the provider's JWKS (never `none`, never HMAC, never a key carried in the token), the
 * expected issuer, our client id in `aud` (and as `azp` when there are several audiences), the
 * nonce we stored with the transaction, and `exp`/`iat` against our Clock.
 */
@Injectable()
export class IdTokenVerifier {
  constructor(
    private readonly keys: ProviderKeysService,
    private readonly clock: Clock,
  ) {}

  async verify(token: unknown, expected: IdTokenExpectations): Promise<Record<string, unknown>> {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_ID_TOKEN_LENGTH)
      throw new IdTokenError('no ID token');
    const decoded = jwt.decode(token, { complete: true });
    if (!decoded || !isRecord(decoded.payload)) throw new IdTokenError('malformed ID token');
    const alg = decoded.header.alg as Algorithm;
    if (!ASYMMETRIC.includes(alg)) throw new IdTokenError('ID token algorithm not allowed');
    const kid = typeof decoded.header.kid === 'string' ? decoded.header.kid : null;
    const issuers = this.expectedIssuers(expected, decoded.payload);
    const candidates = (await this.keys.keysFor(expected.jwksUrl, kid)).filter(
      (k) => k.alg === null || k.alg === alg,
    );
    if (candidates.length === 0) throw new IdTokenError('no provider key matches the ID token');

    const nowSeconds = Math.floor(this.clock.nowMs() / 1000);
    let lastError: unknown = null;
    for (const candidate of candidates) {
      try {
        const claims = jwt.verify(token, candidate.key, {
          algorithms: [alg],
          audience: expected.clientId,
          issuer: issuers as [string, ...string[]],
          clockTimestamp: nowSeconds,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          ...(expected.nonce !== null ? { nonce: expected.nonce } : {}),
        });
        if (!isRecord(claims)) throw new IdTokenError('malformed ID token claims');
        this.checkClaims(claims, expected, nowSeconds);
        return claims;
      } catch (err) {
        lastError = err;
      }
    }
    throw lastError instanceof IdTokenError
      ? lastError
      : new IdTokenError(
          `ID token rejected: ${lastError instanceof Error ? lastError.message : 'invalid'}`,
        );
  }

  private expectedIssuers(
    expected: IdTokenExpectations,
    payload: Record<string, unknown>,
  ): string[] {
    if (!expected.issuer.includes('{tenantid}'))
      return [expected.issuer, ...expected.issuerAliases];
    const tid = payload.tid;
    if (typeof tid !== 'string' || !/^[0-9a-f-]{36}$/i.test(tid))
      throw new IdTokenError('ID token has no tenant id');
    return [expected.issuer.replace('{tenantid}', tid)];
  }

  private checkClaims(
    claims: Record<string, unknown>,
    expected: IdTokenExpectations,
    nowSeconds: number,
  ): void {
    if (typeof claims.sub !== 'string' || claims.sub.length === 0 || claims.sub.length > 255)
      throw new IdTokenError('ID token has no subject');
    if (typeof claims.exp !== 'number') throw new IdTokenError('ID token has no expiry');
    if (typeof claims.iat !== 'number' || claims.iat > nowSeconds + CLOCK_TOLERANCE_SECONDS)
      throw new IdTokenError('ID token issued in the future');
    if (Array.isArray(claims.aud) && claims.aud.length > 1 && claims.azp !== expected.clientId)
      throw new IdTokenError('ID token authorized party mismatch');
  }
}
