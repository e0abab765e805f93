import { Inject, Injectable } from '@nestjs/common';
import { getStorageToken, type ThrottlerStorage } from '@nestjs/throttler';
import type { Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { sha256Hex } from '@gatehouse/crypto';
import { ProblemError } from '@gatehouse/problem-details';
import { setRateLimitHeaders } from './rate-limit-headers';

export interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
}

/**
 * The endpoint limits, with the route each belongs to: the spec's (Limits table), and magic-link
 * sends per (project, email) and verification mails per user against mail bombing (not in the
 * spec's table; docs/decisions.md).
 */
export const RATE_LIMITS = {
  signIn: { name: 'sign-in', limit: 5, windowMs: 60_000, route: 'POST /v1/auth/sign-in' },
  signUp: { name: 'sign-up', limit: 3, windowMs: 60_000, route: 'POST /v1/auth/sign-up' },
  forgot: { name: 'password-forgot', limit: 3, windowMs: 3_600_000, route: 'POST /v1/auth/password/forgot' },
  magicLink: { name: 'magic-link', limit: 5, windowMs: 15 * 60_000, route: 'POST /v1/auth/magic-link/send' },
  verifyEmail: { name: 'verify-email', limit: 3, windowMs: 3_600_000, route: 'POST /v1/auth/verify-email/send' },
  emailChange: { name: 'email-change', limit: 3, windowMs: 3_600_000, route: 'POST /v1/auth/email/change' },
} satisfies Record<string, RateLimitRule & { route: string }>;

const ENDPOINT_RULES = new Map<string, RateLimitRule>(Object.values(RATE_LIMITS).map((r) => [r.route, r]));

/** The endpoint limit of `method path`, when the route has one of the spec's. */
export function endpointRateLimit(method: string, path: string): RateLimitRule | undefined {
  return ENDPOINT_RULES.get(`${method} ${path}`);
}

/**
 * Endpoint limits, applied after body validation (CONTRACT §10 order) through the throttler's
 * storage. Sets the `RateLimit-*` headers on every response of the endpoint; over the limit → 429.
 * A limit that is not the endpoint's own (a project's SMS budget) reports itself only when it
 * refuses (`headers: 'when-refused'`), so its count is not shown to every caller.
 */
@Injectable()
export class RateLimitsService {
  constructor(
    @Inject(getStorageToken()) private readonly storage: ThrottlerStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async enforce(res: Response, rule: RateLimitRule, keyParts: string[], headers: 'always' | 'when-refused' = 'always'): Promise<void> {
    if (!this.config.http.rateLimitsEnabled) return;
    const key = sha256Hex(keyParts.join('\u0000'));
    const record = await this.storage.increment(key, rule.windowMs, rule.limit, 0, rule.name);
    const refused = record.totalHits > rule.limit;
    if (refused || headers === 'always') {
      setRateLimitHeaders(res, { limit: rule.limit, remaining: rule.limit - record.totalHits, resetSeconds: record.timeToExpire });
    }
    if (refused) {
      throw new ProblemError('rate-limited', {
        detail: 'Too many attempts; try again later.',
        headers: { 'Retry-After': String(record.timeToExpire) },
      });
    }
  }
}
