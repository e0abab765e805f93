import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '@gatehouse/config';
import { ProblemError } from '@gatehouse/problem-details';
import { rateLimitClient } from './client-address';
import type { WindowHit } from './batched-window-counter';
import type { GlobalRateLimiter } from './global-rate-limiter';
import { setRateLimitHeaders } from './rate-limit-headers';
import type { EndpointRateLimitLookup } from './rate-limits.service';

const isExempt = (path: string) => path.startsWith('/health') || path.startsWith('/metrics');

/**
 * The global limit as Express middleware, so it counts every request of an address whatever
 * becomes of it: routed or not (404, 405), and before its body is read (400 `invalid-json`, 413,
 * 415). One counter per client for the whole app (`req.ip`, which honours TRUST_PROXY; an IPv6
 * client by its /64, see `rateLimitClient`), counted in memory and synced with the shared cache
 * in batches (GlobalRateLimiter), so every instance counts together within a stated bound and no
 * request waits for a round trip. `/health*` and
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
  limiter: GlobalRateLimiter,
  config: AppConfig,
  endpointRateLimit: EndpointRateLimitLookup = () => undefined,
) {
  const limit = config.http.globalRateLimitPerMinute;
  const answer = (req: Request, res: Response, next: NextFunction, hit: WindowHit): void => {
    const resetSeconds = Math.max(1, Math.ceil(hit.ttlMs / 1000));
    const refused = hit.count > limit;
    const own = refused ? undefined : endpointRateLimit(req.method, req.path);
    setRateLimitHeaders(
      res,
      own
        ? { limit: own.limit, remaining: own.limit, resetSeconds: Math.ceil(own.windowMs / 1000) }
        : { limit, remaining: Math.max(0, limit - hit.count), resetSeconds },
    );
    if (!refused) return next();
    next(
      new ProblemError('rate-limited', {
        detail: 'Too many requests; try again later.',
        headers: { 'Retry-After': String(resetSeconds) },
      }),
    );
  };
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!config.http.rateLimitsEnabled || isExempt(req.path)) return next();
    let hit: WindowHit | Promise<WindowHit>;
    try {
      hit = limiter.hit(rateLimitClient(req.ip));
    } catch (err) {
      return next(err);
    }
    if (hit instanceof Promise) hit.then((h) => answer(req, res, next, h), next);
    else answer(req, res, next, hit);
  };
}
