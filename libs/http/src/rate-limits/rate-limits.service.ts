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

/** A limit of one route of an app (`route`: `METHOD /path`), which the global limit's headers make way for. */
export interface EndpointRateLimit extends RateLimitRule {
  route: string;
}

/** The limit of `method path` among an app's endpoint limits, when it has one. */
export type EndpointRateLimitLookup = (method: string, path: string) => RateLimitRule | undefined;

export function endpointRateLimitLookup(
  limits: readonly EndpointRateLimit[],
): EndpointRateLimitLookup {
  const byRoute = new Map<string, RateLimitRule>(limits.map((r) => [r.route, r]));
  return (method, path) => byRoute.get(`${method} ${path}`);
}

/**
 * Endpoint limits, applied after body validation (docs/api-contract.md §10 order) through the throttler's
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

  async enforce(
    res: Response,
    rule: RateLimitRule,
    keyParts: string[],
    headers: 'always' | 'when-refused' = 'always',
  ): Promise<void> {
    if (!this.config.http.rateLimitsEnabled) return;
    const key = sha256Hex(keyParts.join('\u0000'));
    const record = await this.storage.increment(key, rule.windowMs, rule.limit, 0, rule.name);
    const refused = record.totalHits > rule.limit;
    if (refused || headers === 'always') {
      setRateLimitHeaders(res, {
        limit: rule.limit,
        remaining: rule.limit - record.totalHits,
        resetSeconds: record.timeToExpire,
      });
    }
    if (refused) {
      throw new ProblemError('rate-limited', {
        detail: 'Too many attempts; try again later.',
        headers: { 'Retry-After': String(record.timeToExpire) },
      });
    }
  }
}
