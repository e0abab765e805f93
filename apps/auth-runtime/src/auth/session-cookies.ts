import type { Response } from 'express';
import type { AppConfig } from '@gatehouse/config';
import { REFRESH_COOKIE, SESSION_COOKIE } from '@gatehouse/identity';

export interface CookieTokens {
  accessToken: string;
  accessExpiresAt: Date;
  refreshToken: string;
  refreshExpiresAt: Date;
}

const SESSION_PATH = '/';
const REFRESH_PATH = '/v1/auth';

const flags = (config: AppConfig, sameSite: 'Lax' | 'Strict') =>
  `; HttpOnly${config.http.cookieSecure ? '; Secure' : ''}; SameSite=${sameSite}`;

/**
 * One `Set-Cookie` line with the attributes, in the order, Express's `res.cookie` writes them
 * (`Max-Age` in seconds, then `Path`, `Expires`, the flags), built directly: every sign-in and
 * refresh sets two cookies, and going through `res.cookie` cost a copy of its options and a
 * generic serializer each time. Times come from the injected clock.
 */
function setCookieLine(
  name: string,
  value: string,
  path: string,
  flagsPart: string,
  expiresAt: Date,
  now: number,
): string {
  const maxAgeMs = Math.max(0, expiresAt.getTime() - now);
  return `${name}=${encodeURIComponent(value)}; Max-Age=${Math.floor(maxAgeMs / 1000)}; Path=${path}; Expires=${new Date(now + maxAgeMs).toUTCString()}${flagsPart}`;
}

/** Adds to the response's `Set-Cookie` lines (other cookies of the same response stay). */
function appendSetCookie(res: Response, lines: string[]): void {
  const prev = res.getHeader('Set-Cookie');
  res.setHeader(
    'Set-Cookie',
    prev === undefined ? lines : [...(Array.isArray(prev) ? prev : [String(prev)]), ...lines],
  );
}

/** The `service_session` cookie of an access token. */
function accessCookieLine(
  config: AppConfig,
  t: Pick<CookieTokens, 'accessToken' | 'accessExpiresAt'>,
  now: number,
): string {
  return setCookieLine(
    SESSION_COOKIE,
    t.accessToken,
    SESSION_PATH,
    flags(config, 'Lax'),
    t.accessExpiresAt,
    now,
  );
}

/**
 * docs/api-contract.md §2: `service_session` (HttpOnly; Secure; SameSite=Lax; Path=/) carries the access token,
 * `service_refresh_token` (HttpOnly; Secure; SameSite=Strict; Path=/v1/auth) the refresh token.
 * `Secure` is left out only when COOKIE_SECURE=false (plain-http development).
 */
export function setSessionCookies(
  res: Response,
  config: AppConfig,
  t: CookieTokens,
  now: number,
): void {
  appendSetCookie(res, [
    accessCookieLine(config, t, now),
    setCookieLine(
      REFRESH_COOKIE,
      t.refreshToken,
      REFRESH_PATH,
      flags(config, 'Strict'),
      t.refreshExpiresAt,
      now,
    ),
  ]);
}

/** Only `service_session`: a new access token for the same session (re-authentication); the refresh cookie stays. */
export function setAccessCookie(
  res: Response,
  config: AppConfig,
  t: Pick<CookieTokens, 'accessToken' | 'accessExpiresAt'>,
  now: number,
): void {
  appendSetCookie(res, [accessCookieLine(config, t, now)]);
}

const EXPIRED = `Expires=${new Date(0).toUTCString()}`;

/** Both cookies emptied on their own paths, expired at the epoch (as `res.clearCookie` writes it). */
export function clearSessionCookies(res: Response, config: AppConfig): void {
  appendSetCookie(res, [
    `${SESSION_COOKIE}=; Path=${SESSION_PATH}; ${EXPIRED}${flags(config, 'Lax')}`,
    `${REFRESH_COOKIE}=; Path=${REFRESH_PATH}; ${EXPIRED}${flags(config, 'Strict')}`,
  ]);
}
