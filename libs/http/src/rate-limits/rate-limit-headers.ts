import type { Response } from 'express';

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds), as docs/api-contract.md §3 names them. */
export function setRateLimitHeaders(res: Response, s: RateLimitState): void {
  res.setHeader('RateLimit-Limit', String(s.limit));
  res.setHeader('RateLimit-Remaining', String(Math.max(0, s.remaining)));
  res.setHeader('RateLimit-Reset', String(Math.max(0, s.resetSeconds)));
}
