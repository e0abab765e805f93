import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { requestCookie } from '@gatehouse/http';
import { ProblemError } from '@gatehouse/problem-details';
import type { RequestMeta } from './event-recorder';

export const SESSION_COOKIE = 'service_session';
export const REFRESH_COOKIE = 'service_refresh_token';

export interface PresentedToken {
  token: string;
  via: 'bearer' | 'cookie';
}

/** Bearer wins over the cookie when both are sent (docs/api-contract.md §10). */
export function presentedAccessToken(req: Request): PresentedToken | null {
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m?.[1]) return { token: m[1], via: 'bearer' };
  }
  const cookie = requestCookie(req, SESSION_COOKIE);
  return cookie ? { token: cookie, via: 'cookie' } : null;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * CSRF rule (docs/api-contract.md §2, §10): a cookie-authenticated unsafe request whose `Origin` is present and
 * not one of the allowed origins is refused. An absent Origin is allowed (non-browser clients).
 * This returns the Origin the rule must check, or null when it has nothing to check.
 */
export function originToCheck(req: Request, via: PresentedToken['via']): string | null {
  if (via !== 'cookie' || !UNSAFE.has(req.method)) return null;
  return req.headers.origin ?? null;
}

/** The CSRF rule's refusal: 403 `forbidden`. */
export const originRefused = () =>
  new ProblemError('forbidden', {
    detail: 'This origin is not allowed to use the session cookie.',
  });

/** The CSRF rule's last step: whether the Origin `originToCheck` gave (null: nothing to check) is allowed. */
export function originAllowed(origin: string | null, allowedOrigins: readonly string[]): boolean {
  return origin === null || allowedOrigins.includes(origin);
}

/**
 * The same step in SQL, for the statements that check the origin with the key in one round trip
 * (refresh): `origin` is the placeholder of `originToCheck`'s answer, `allowedOrigins` a jsonb
 * array of the project's origins. With `hostedPages` (the project's settings column and the
 * placeholder of the auth runtime's own origin), that origin also counts when the project's
 * OpenID Connect provider is on, as `projectOrigins` says. Kept beside `originAllowed` so the two
 * cannot drift apart.
 */
export function originAllowedSql(
  origin: string,
  allowedOrigins: string,
  hostedPages?: { settings: string; authOrigin: string },
): string {
  const own = hostedPages
    ? ` OR (${origin}::text = ${hostedPages.authOrigin}::text AND COALESCE(${hostedPages.settings} -> 'oidc' -> 'enabled' = 'true'::jsonb, false))`
    : '';
  return `(${origin}::text IS NULL OR ${allowedOrigins} ? ${origin}::text${own})`;
}

/** Applies the CSRF rule against the project's allowed origins: 403 `forbidden` when refused. */
export function assertSameOriginForCookie(
  req: Request,
  via: PresentedToken['via'],
  allowedOrigins: readonly string[],
): void {
  if (!originAllowed(originToCheck(req, via), allowedOrigins)) throw originRefused();
}

export function requestMeta(req: Request): RequestMeta {
  const ua = req.headers['user-agent'];
  return { ip: req.ip ?? null, userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null };
}

/** A route parameter: the caller's IP and user agent, as `requestMeta` reads them from the request. */
export const ClientMeta = createParamDecorator((_: unknown, ctx: ExecutionContext): RequestMeta =>
  requestMeta(ctx.switchToHttp().getRequest<Request>()),
);
