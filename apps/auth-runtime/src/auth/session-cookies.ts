import type { CookieOptions, Response } from 'express';
import type { AppConfig } from '@gatehouse/config';
import { REFRESH_COOKIE, SESSION_COOKIE } from '@gatehouse/identity';

export interface CookieTokens {
  accessToken: string;
  accessExpiresAt: Date;
  refreshToken: string;
  refreshExpiresAt: Date;
}

function base(config: AppConfig): CookieOptions {
  return { httpOnly: true, secure: config.http.cookieSecure };
}

const sessionCookie = (config: AppConfig): CookieOptions => ({ ...base(config), sameSite: 'lax', path: '/' });
const refreshCookie = (config: AppConfig): CookieOptions => ({ ...base(config), sameSite: 'strict', path: '/v1/auth' });

/**
 * CONTRACT §2: `service_session` (HttpOnly; Secure; SameSite=Lax; Path=/) carries the access token,
 * `service_refresh_token` (HttpOnly; Secure; SameSite=Strict; Path=/v1/auth) the refresh token.
 */
export function setSessionCookies(res: Response, config: AppConfig, t: CookieTokens, now: number): void {
  res.cookie(SESSION_COOKIE, t.accessToken, { ...sessionCookie(config), maxAge: Math.max(0, t.accessExpiresAt.getTime() - now) });
  res.cookie(REFRESH_COOKIE, t.refreshToken, { ...refreshCookie(config), maxAge: Math.max(0, t.refreshExpiresAt.getTime() - now) });
}

export function setAccessCookie(res: Response, config: AppConfig, accessToken: string, expiresAt: Date, now: number): void {
  res.cookie(SESSION_COOKIE, accessToken, { ...sessionCookie(config), maxAge: Math.max(0, expiresAt.getTime() - now) });
}

export function clearSessionCookies(res: Response, config: AppConfig): void {
  res.clearCookie(SESSION_COOKIE, sessionCookie(config));
  res.clearCookie(REFRESH_COOKIE, refreshCookie(config));
}
