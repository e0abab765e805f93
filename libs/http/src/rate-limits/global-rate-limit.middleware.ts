import type { ThrottlerStorage } from '@nestjs/throttler';
import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '@gatehouse/config';
import { ProblemError } from '@gatehouse/problem-details';
import { rateLimitClient } from './client-address';
import { setRateLimitHeaders } from './rate-limit-headers';
import type { EndpointRateLimitLookup } from './rate-limits.service';

/** The global limit (docs/api-contract.md §3): 1000 requests a minute per client IP, all routes together. */
export const GLOBAL_RATE_LIMIT = { name: 'global', limit: 1000, windowMs: 60_000 } as const;

const isExempt = (path: string) => path.startsWith('/health') || path.startsWith('/metrics');

/**
 * The global limit as Express middleware, so it counts every request of an address whatever
 * becomes of it: routed or not (404, 405), and before its body is read (400 `invalid-json`, 413,
 * 415). One counter per client for the whole app (`req.ip`, which honours TRUST_PROXY; an IPv6
 * client by its /64, see `rateLimitClient`), kept in
 * the throttler's storage on the shared cache, so every instance counts together. `/health*` and
 * `/metrics` are not limited (probes). Over the limit → 429 `rate-limited`.
 *
 * Sets `RateLimit-*`: the global numbers, except on the routes that have a limit of their own
 * (`endpointRateLimit`: in the auth runtime sign-in, sign-up, forgot, magic-link and verify-email
 * send; docs/api-contract.md §10), whose headers always report that limit. The endpoint counts a
 * request only once its key and body have been accepted (the order of docs/api-contract.md §10),
 * when RateLimitsService replaces the headers with the count; a request refused before
 * that (project key, body) reports the endpoint's limit with nothing counted against it. A request
 * this global limit refuses reports the global numbers (0 remaining, reset = Retry-After).
 */
export function globalRateLimitMiddleware(
  storage: ThrottlerStorage,
  config: AppConfig,
  endpointRateLimit: EndpointRateLimitLookup = () => undefined,
) {
  const { name, limit, windowMs } = GLOBAL_RATE_LIMIT;
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!config.http.rateLimitsEnabled || isExempt(req.path)) return next();
    storage.increment(rateLimitClient(req.ip), windowMs, limit, 0, name).then((record) => {
      const refused = record.totalHits > limit;
      const own = refused ? undefined : endpointRateLimit(req.method, req.path);
      setRateLimitHeaders(
        res,
        own
          ? { limit: own.limit, remaining: own.limit, resetSeconds: Math.ceil(own.windowMs / 1000) }
          : {
              limit,
              remaining: Math.max(0, limit - record.totalHits),
              resetSeconds: record.timeToExpire,
            },
      );
      if (!refused) return next();
      next(
        new ProblemError('rate-limited', {
          detail: 'Too many requests; try again later.',
          headers: { 'Retry-After': String(record.timeToExpire) },
        }),
      );
    }, next);
  };
}
