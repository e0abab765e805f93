import { jwtVerify, type JWTHeaderParameters, type JWTPayload, type JWTVerifyOptions } from 'jose';
import { GatehouseAuthError } from './errors';
import { ALGORITHMS, KeySet } from './key-set';
import { SessionStatus } from './session-status';

/** The claims of a Gatehouse access token (docs/api-contract.md §2), checked. */
export interface AccessTokenClaims extends JWTPayload {
  /** `{authUrl}/v1/projects/{projectId}`. */
  iss: string;
  /** The user id. */
  sub: string;
  /** The Gatehouse session the token belongs to. */
  sid: string;
  /** The tenant id. */
  tid: string;
  /** Whether the user is an administrator of the tenant's console project. */
  adm: boolean;
  /** When the user last proved a credential (seconds since the epoch): what `requireRecentAuth` reads. */
  auth_time: number;
  /**
   * The session's active organization (`POST /v1/auth/organizations/active`), absent when none:
   * what `has`, `requirePermission` and `requireRole` read. Computed from the membership when the
   * token was issued, so a role change or removal shows from the session's next token.
   */
  org?: OrganizationClaim;
  iat: number;
  exp: number;
}

/** The `org` claim of an access token: the active organization and the member's grants in it. */
export interface OrganizationClaim {
  /** The organization id. */
  id: string;
  slug: string;
  /** The member's role key: `admin`, `member` or a custom role of the project (`billing`). */
  role: string;
  /** What the role grants: the project's permission keys (`invoices:read`) and system ones (`org:members:read`). */
  permissions: string[];
}

/**
 * The claims of an RFC 9068 access token the project's OpenID Connect provider issued for an API
 * resource (`verifyResourceToken`), checked.
 */
export interface ResourceAccessTokenClaims extends JWTPayload {
  /** The project's issuer, `{authUrl}/v1/projects/{projectId}`. */
  iss: string;
  /** The user id (or, for a token without a user, the client id). */
  sub: string;
  /** The API resource's identifier. */
  aud: string | string[];
  /** The OAuth client the token was issued to. */
  client_id: string;
  /** The scopes granted, space-separated (RFC 9068 §2.2.3). */
  scope?: string;
  /** `scope` as a list (empty when the token carries none). */
  scopes: string[];
  iat: number;
  exp: number;
}

export interface VerifyResourceTokenOptions {
  /** Scopes the route needs: a token without each of them is refused with `insufficient_scope` (403). */
  scopes?: string[];
}

export interface GatehouseOptions {
  /** Where the auth runtime is reached, as Gatehouse's `PUBLIC_AUTH_URL` (e.g. `https://auth.example.com`). */
  authUrl: string;
  /** The project whose users call this API. */
  projectId: string;
  /** The project's publishable key (`pk_…`): it reads `jwks.json` and, in revocation-aware mode, `/v1/auth/me`. */
  projectKey: string;
  /** Accepted `aud` values; default the project id (Gatehouse session tokens). */
  audience?: string | string[];
  /**
   * The identifier of the API resource this server is (as registered with `POST
   * /v1/admin/projects/{id}/api-resources`), or several: `verifyResourceToken` accepts the RFC 9068
   * access tokens the project's OpenID Connect provider issues for it (`aud`). Compared
   * URL-normalised, as Gatehouse stores it (`https://api.example.com` is `https://api.example.com/`).
   */
  resource?: string | string[];
  /** Leeway for `exp`/`nbf`/`iat`, in seconds; default 5. */
  clockToleranceSeconds?: number;
  /** Minimum seconds between two fetches of `jwks.json` for an unknown `kid`; default 10. */
  jwksCooldownSeconds?: number;
  /** Seconds after which the key set is fetched again (keys Gatehouse stopped publishing stop verifying); default 600. */
  jwksMaxAgeSeconds?: number;
  /**
   * Revocation-aware mode: after the signature checks, ask Gatehouse whether the token's session is
   * still live (`GET /v1/auth/me`), remembering the answer per session for `cacheSeconds` (default
   * 10): a signed-out or revoked session, or a disabled user, is refused here at most that long after.
   * Off by default: then a token is good until its `exp` (at most the project's access-token lifetime).
   */
  revocation?: boolean | { cacheSeconds?: number; maxSessions?: number };
  /** Timeout of each call to Gatehouse, in ms; default 5000. */
  timeoutMs?: number;
  /** A fetch to use (default the global one). */
  fetch?: typeof fetch;
}

export interface Gatehouse {
  /** Verifies a Gatehouse access token and returns its claims; throws `GatehouseAuthError` otherwise. */
  verifyAccessToken(token: string): Promise<AccessTokenClaims>;
  /**
   * Verifies an access token the project's OpenID Connect provider issued for this server's API
   * resource (`resource` option): signature by a published key of the project, `typ: at+jwt`,
   * `iss`, `aud` = the resource, `exp`, `client_id`; then the `scopes` the route needs. A token for
   * another API (or a Gatehouse session token) is `invalid_token`. Such tokens are good until their
   * `exp` (the resource's `access_token_ttl_seconds`): revocation-aware mode does not apply to them.
   */
  verifyResourceToken(
    token: string,
    options?: VerifyResourceTokenOptions,
  ): Promise<ResourceAccessTokenClaims>;
  /** The options this verifier was made with, normalised. */
  readonly issuer: string;
  readonly projectId: string;
}

/** A verifier for one project's access tokens. Create it once per process: it caches the project's keys. */
export function createGatehouse(options: GatehouseOptions): Gatehouse {
  const authUrl = baseUrl(options.authUrl);
  if (!options.projectId) throw new TypeError('createGatehouse: projectId is required');
  if (!options.projectKey) throw new TypeError('createGatehouse: projectKey is required');
  const fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 5000;
  const issuer = `${authUrl}/v1/projects/${options.projectId}`;
  const audience = options.audience ?? options.projectId;
  const clockTolerance = options.clockToleranceSeconds ?? 5;
  const now = () => Date.now();
  const keys = new KeySet({
    url: `${authUrl}/v1/auth/jwks.json`,
    projectKey: options.projectKey,
    fetch: fetcher,
    cooldownMs: (options.jwksCooldownSeconds ?? 10) * 1000,
    maxAgeMs: (options.jwksMaxAgeSeconds ?? 600) * 1000,
    timeoutMs,
    now,
  });
  const revocation = options.revocation
    ? options.revocation === true
      ? {}
      : options.revocation
    : null;
  const sessions = revocation
    ? new SessionStatus({
        url: `${authUrl}/v1/auth/me`,
        projectKey: options.projectKey,
        fetch: fetcher,
        ttlMs: (revocation.cacheSeconds ?? 10) * 1000,
        maxEntries: revocation.maxSessions ?? 10_000,
        timeoutMs,
        now,
      })
    : null;
  const verifyOptions = {
    algorithms: [...ALGORITHMS],
    issuer,
    audience,
    clockTolerance,
    requiredClaims: ['sub', 'exp', 'iat'],
  };
  const resources =
    options.resource === undefined
      ? null
      : (Array.isArray(options.resource) ? options.resource : [options.resource]).map(
          resourceIdentifier,
        );
  const resourceVerifyOptions = resources && {
    algorithms: [...ALGORITHMS],
    issuer,
    audience: resources,
    clockTolerance,
    typ: 'at+jwt',
    requiredClaims: ['sub', 'exp', 'iat', 'client_id'],
  };

  /** The payload of a token signed by a key of the project and valid under `options`; else the refusal (`invalid`: its detail). */
  async function verifiedPayload(
    token: string,
    options: JWTVerifyOptions,
    invalid?: string,
  ): Promise<JWTPayload> {
    if (typeof token !== 'string' || token.length === 0)
      throw new GatehouseAuthError('missing_token', 'No access token was presented.');
    if (token.length > 8192)
      throw new GatehouseAuthError('invalid_token', 'The access token is malformed.');
    try {
      const verified = await jwtVerify(
        token,
        (header: JWTHeaderParameters) => keys.keyFor(header.kid, header.alg),
        options,
      );
      return verified.payload;
    } catch (err) {
      throw refusal(err, invalid);
    }
  }

  async function verifyAccessToken(token: string): Promise<AccessTokenClaims> {
    const payload = await verifiedPayload(token, verifyOptions);
    const claims = sessionClaims(payload);
    if (sessions && !(await sessions.isLive(claims.sid, claims.sub, token)))
      throw new GatehouseAuthError('revoked_token', 'The session of this access token has ended.');
    return claims;
  }

  async function verifyResourceToken(
    token: string,
    opts: VerifyResourceTokenOptions = {},
  ): Promise<ResourceAccessTokenClaims> {
    if (!resourceVerifyOptions)
      throw new TypeError(
        'verifyResourceToken: createGatehouse needs the resource option (the API resource identifier)',
      );
    const payload = await verifiedPayload(
      token,
      resourceVerifyOptions,
      'The access token is not valid for this API.',
    );
    const p = payload as Partial<ResourceAccessTokenClaims>;
    if (
      typeof p.client_id !== 'string' ||
      typeof p.sub !== 'string' ||
      (p.scope !== undefined && typeof p.scope !== 'string')
    ) {
      throw new GatehouseAuthError(
        'invalid_token',
        'The access token lacks the claims of an access token for this API.',
      );
    }
    const scopes = (p.scope ?? '').split(' ').filter(Boolean);
    const missing = (opts.scopes ?? []).filter((s) => !scopes.includes(s));
    if (missing.length)
      throw new GatehouseAuthError(
        'insufficient_scope',
        `The access token lacks the scope ${missing.join(' ')}.`,
        { scope: (opts.scopes ?? []).join(' ') },
      );
    return { ...(payload as ResourceAccessTokenClaims), scopes };
  }

  return { verifyAccessToken, verifyResourceToken, issuer, projectId: options.projectId };
}

/** An API resource identifier as Gatehouse stores and signs it: the URL as parsed. */
function resourceIdentifier(value: string): string {
  try {
    return new URL(value).href;
  } catch {
    throw new TypeError(
      'createGatehouse: resource must be an absolute URL (the API resource identifier)',
    );
  }
}

/** A refusal as a GatehouseAuthError: ours pass through; jose's become invalid or expired. */
function refusal(
  err: unknown,
  invalid = 'The access token is not valid for this project.',
): GatehouseAuthError {
  if (GatehouseAuthError.is(err)) return err;
  if ((err as { code?: unknown } | null)?.code === 'ERR_JWT_EXPIRED')
    return new GatehouseAuthError('expired_token', 'The access token has expired.', { cause: err });
  return new GatehouseAuthError('invalid_token', invalid, { cause: err });
}

/** The Gatehouse members a session token must carry, with their types. */
function sessionClaims(payload: JWTPayload): AccessTokenClaims {
  const p = payload as Partial<AccessTokenClaims>;
  if (
    typeof p.sid !== 'string' ||
    typeof p.tid !== 'string' ||
    typeof p.adm !== 'boolean' ||
    typeof p.auth_time !== 'number' ||
    typeof p.sub !== 'string' ||
    (p.org !== undefined && !isOrganizationClaim(p.org))
  ) {
    throw new GatehouseAuthError(
      'invalid_token',
      'The access token lacks the claims of a Gatehouse session token.',
    );
  }
  return payload as AccessTokenClaims;
}

function isOrganizationClaim(value: unknown): value is OrganizationClaim {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const org = value as Partial<Record<keyof OrganizationClaim, unknown>>;
  return (
    typeof org.id === 'string' &&
    typeof org.slug === 'string' &&
    typeof org.role === 'string' &&
    Array.isArray(org.permissions) &&
    org.permissions.every((permission) => typeof permission === 'string')
  );
}

function baseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError('createGatehouse: authUrl must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new TypeError('createGatehouse: authUrl must be http(s)');
  return url.href.replace(/\/+$/, '');
}
