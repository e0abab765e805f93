/** Why a request was refused; `status` is what an HTTP adapter answers with. */
export type GatehouseAuthErrorCode =
  /** No bearer token (or session cookie, where accepted) on the request. */
  | 'missing_token'
  /** Malformed, forged, foreign (issuer or audience), wrong algorithm, or signed by a key Gatehouse does not publish. */
  | 'invalid_token'
  /** `exp` passed (beyond the clock tolerance). */
  | 'expired_token'
  /** Revocation-aware mode: Gatehouse says the session is signed out or revoked, or the user disabled or deleted. */
  | 'revoked_token'
  /** `requireRecentAuth`: the last proof of identity (`auth_time`) is older than the route allows. */
  | 'reauthentication_required'
  /** `verifyResourceToken` with `scopes`: the token lacks a scope the route needs (RFC 6750 §3.1). */
  | 'insufficient_scope'
  /** `requirePermission`/`requireRole`: the token's active organization (`org` claim) lacks the permission or role, or there is none. */
  | 'forbidden'
  /** Gatehouse could not be reached for its keys or (revocation-aware mode) the session's state. */
  | 'gatehouse_unavailable';

const STATUS: Record<GatehouseAuthErrorCode, number> = {
  missing_token: 401,
  invalid_token: 401,
  expired_token: 401,
  revoked_token: 401,
  reauthentication_required: 403,
  insufficient_scope: 403,
  forbidden: 403,
  gatehouse_unavailable: 503,
};

const BRAND = Symbol.for('@gatehouse/server.GatehouseAuthError');

/** A token or request refused by `@gatehouse/server`. The message never contains the token. */
export class GatehouseAuthError extends Error {
  readonly status: number;
  /** `insufficient_scope`: the scopes the route needs (for the `WWW-Authenticate` challenge). */
  readonly scope?: string;

  /** True for a GatehouseAuthError from any copy of this package (ESM and CommonJS builds, two installed versions), where `instanceof` may not be. */
  static is(value: unknown): value is GatehouseAuthError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[BRAND] === true
    );
  }

  constructor(
    readonly code: GatehouseAuthErrorCode,
    message: string,
    options?: { cause?: unknown; scope?: string },
  ) {
    super(message, options);
    this.name = 'GatehouseAuthError';
    this.status = STATUS[code];
    if (options?.scope !== undefined) this.scope = options.scope;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** The RFC 9457 problem body the framework adapters answer with (slugs as Gatehouse's own, docs/api-contract.md §4). */
export interface AuthProblem {
  type: string;
  title: string;
  status: number;
  detail: string;
}

const SLUG: Record<GatehouseAuthErrorCode, [string, string]> = {
  missing_token: ['unauthenticated', 'Unauthenticated'],
  invalid_token: ['unauthenticated', 'Unauthenticated'],
  expired_token: ['unauthenticated', 'Unauthenticated'],
  revoked_token: ['unauthenticated', 'Unauthenticated'],
  reauthentication_required: ['reauthentication-required', 'Reauthentication required'],
  insufficient_scope: ['forbidden', 'Forbidden'],
  forbidden: ['forbidden', 'Forbidden'],
  gatehouse_unavailable: ['service-unavailable', 'Service unavailable'],
};

/** The problem body and headers for a refusal; any other error is the application's own and is rethrown by the adapters. */
export function problemFor(error: GatehouseAuthError): {
  status: number;
  body: AuthProblem;
  headers: Record<string, string>;
} {
  const [slug, title] = SLUG[error.code];
  const headers: Record<string, string> = {
    'content-type': 'application/problem+json',
    'cache-control': 'no-store',
  };
  if (error.status === 401) {
    // RFC 6750 §3: the challenge names the scheme, and `invalid_token` when a token was presented.
    headers['www-authenticate'] =
      error.code === 'missing_token' ? 'Bearer' : 'Bearer error="invalid_token"';
  }
  if (error.code === 'insufficient_scope')
    headers['www-authenticate'] =
      `Bearer error="insufficient_scope"${error.scope ? `, scope="${error.scope.replace(/["\\]/g, '')}"` : ''}`;
  return {
    status: error.status,
    body: {
      type: `https://gatehouse.dev/problems/${slug}`,
      title,
      status: error.status,
      detail: error.message,
    },
    headers,
  };
}
