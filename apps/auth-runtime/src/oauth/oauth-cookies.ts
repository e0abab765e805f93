import type { CookieOptions, Request, Response } from 'express';
import type { AppConfig } from '@gatehouse/config';
import { requestCookie } from '@gatehouse/http';

/** Binds an OAuth transaction to the browser that started it. */
export const OAUTH_BINDING_COOKIE = 'service_oauth_binding';
export const OAUTH_COOKIE_PATH = '/v1/auth/oauth';

/**
 * HttpOnly, scoped to `/v1/auth/oauth`, as long-lived as a transaction. `SameSite=None` (with
 * `Secure`) because Apple's `form_post` callback is a cross-site POST that would not carry a Lax
 * cookie; `Lax` when Secure is switched off for plain-http development (browsers drop
 * `SameSite=None` without `Secure`).
 */
function bindingCookie(config: AppConfig): CookieOptions {
  return {
    httpOnly: true,
    secure: config.http.cookieSecure,
    sameSite: config.http.cookieSecure ? 'none' : 'lax',
    path: OAUTH_COOKIE_PATH,
  };
}

/** The binding value the browser presented, when it looks like one of ours. */
export function presentedBinding(req: Request): string | null {
  const value = requestCookie(req, OAUTH_BINDING_COOKIE);
  return value !== null && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}

export function setBindingCookie(
  res: Response,
  config: AppConfig,
  value: string,
  maxAgeMs: number,
): void {
  res.cookie(OAUTH_BINDING_COOKIE, value, { ...bindingCookie(config), maxAge: maxAgeMs });
}

export function sendRedirect(res: Response, location: string): void {
  res.status(302).setHeader('Location', location);
  res.end();
}
