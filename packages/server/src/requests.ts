import { GatehouseAuthError } from './errors';
import type { AccessTokenClaims, Gatehouse } from './gatehouse';

/** Options shared by the framework adapters. */
export interface AuthenticateOptions {
  /**
   * Also accept the `service_session` cookie (default false: bearer tokens only). Only for an API on
   * the same site as Gatehouse that reads the cookie; the application then owns CSRF protection of
   * its unsafe routes (an `Origin` check, as Gatehouse's own).
   */
  cookie?: boolean;
  /** Let requests without any token through with no claims (routes that serve both); a token that fails is still refused. */
  optional?: boolean;
  /** Also require a recent proof of identity (see `assertRecentAuth`). */
  maxAuthAgeSeconds?: number;
}

/** The request parts a token is read from. */
export interface TokenSources {
  authorization?: string | string[] | null;
  cookie?: string | string[] | null;
}

const SESSION_COOKIE = 'service_session';

/** The bearer token (or, when allowed, the session cookie) of a request; null when there is none. A bearer token wins over a cookie. */
export function tokenFrom(sources: TokenSources, acceptCookie = false): string | null {
  const authorization = first(sources.authorization);
  if (authorization) {
    const match = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(authorization);
    // A malformed Authorization header is a presented-but-invalid token, not an absent one.
    return match ? match[1] : '';
  }
  if (!acceptCookie) return null;
  const cookie = first(sources.cookie);
  if (!cookie) return null;
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE)
      return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

/**
 * Step-up for the application's own sensitive routes: refuses (403 `reauthentication_required`)
 * claims whose `auth_time` is older than `maxAgeSeconds`. The client renews the proof with
 * Gatehouse's `POST /v1/auth/reauthenticate` (@gatehouse/js `reauthenticate`) and retries with the new token.
 */
export function assertRecentAuth(
  claims: AccessTokenClaims,
  maxAgeSeconds: number,
  nowMs = Date.now(),
): void {
  if (!(maxAgeSeconds >= 0)) throw new TypeError('maxAgeSeconds must be a number ≥ 0');
  if (nowMs / 1000 - claims.auth_time > maxAgeSeconds) {
    throw new GatehouseAuthError(
      'reauthentication_required',
      `This action needs a sign-in within the last ${maxAgeSeconds} seconds.`,
    );
  }
}

/** What a route needs of the token's active organization: a permission it grants, or the member's role. */
export type OrganizationRequirement = { permission: string } | { role: string };

/**
 * Whether the token's active organization (`org` claim) grants `permission`, or the member has
 * `role` (both, when both are given); false for a token without an active organization. The claim's
 * `permissions` are the whole grant (for `admin`, every permission of the project), so this reads
 * nothing else.
 */
export function has(claims: AccessTokenClaims, requirement: OrganizationRequirement): boolean {
  const { permission, role } = requirement as { permission?: unknown; role?: unknown };
  if (typeof permission !== 'string' && typeof role !== 'string')
    throw new TypeError('has: give a permission or a role');
  const org = claims.org;
  if (!org) return false;
  if (typeof permission === 'string' && !org.permissions.includes(permission)) return false;
  return typeof role !== 'string' || org.role === role;
}

/**
 * `has` for a route: refuses (403 `forbidden`) claims whose active organization lacks the
 * permission or role, or that have none. The client makes an organization active with Gatehouse's
 * `POST /v1/auth/organizations/active` and retries with the token it returns.
 */
export function assertHas(claims: AccessTokenClaims, requirement: OrganizationRequirement): void {
  if (has(claims, requirement)) return;
  const { permission, role } = requirement as { permission?: string; role?: string };
  const org = claims.org;
  let detail: string;
  if (permission !== undefined && !org?.permissions.includes(permission))
    detail = org
      ? `The active organization does not grant ${permission}.`
      : `This action needs an active organization that grants ${permission}.`;
  else
    detail = org
      ? `This action needs the role ${role} in the active organization.`
      : `This action needs an active organization where the user has the role ${role}.`;
  throw new GatehouseAuthError('forbidden', detail);
}

/** Claims of the request's token, or null (optional and no token); throws GatehouseAuthError otherwise. */
export async function authenticate(
  gatehouse: Gatehouse,
  sources: TokenSources,
  options: AuthenticateOptions = {},
): Promise<AccessTokenClaims | null> {
  const token = tokenFrom(sources, options.cookie);
  if (token === null) {
    if (options.optional) return null;
    throw new GatehouseAuthError('missing_token', 'No access token was presented.');
  }
  if (token === '')
    throw new GatehouseAuthError(
      'invalid_token',
      'The Authorization header is not a bearer token.',
    );
  const claims = await gatehouse.verifyAccessToken(token);
  if (options.maxAuthAgeSeconds !== undefined) assertRecentAuth(claims, options.maxAuthAgeSeconds);
  return claims;
}

function first(value: string | string[] | null | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : (value ?? undefined);
}
