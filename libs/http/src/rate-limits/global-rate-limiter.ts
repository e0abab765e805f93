import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { CacheStore } from '@gatehouse/platform';
import { BatchedWindowCounter, type WindowHit } from './batched-window-counter';

/** The global limit (docs/api-contract.md §3): 1000 requests a minute per client IP by default (RATE_LIMIT_GLOBAL_PER_MINUTE), all routes together. */
export const GLOBAL_RATE_LIMIT = { name: 'global', limit: 1000, windowMs: 60_000 } as const;

/**
 * How the global limit is shared between instances (docs/performance.md, "The global limit"):
 * each instance sends its counts every 100 ms, or at once when an address has 20 hits the shared
 * count has not seen, so a request pays no round trip and N instances let through at most N × 20
 * requests of an address beyond the limit in a window.
 */
export const GLOBAL_RATE_LIMIT_SYNC = { syncMs: 100, maxUnsynced: 20 } as const;

/** The global limit's counter, one per app, on the shared cache's keys `ratelimit:global:<client>`. */
@Injectable()
export class GlobalRateLimiter implements OnApplicationShutdown {
  private readonly counter: BatchedWindowCounter;

  constructor(@Inject(CacheStore) cache: CacheStore) {
    this.counter = new BatchedWindowCounter(cache, {
      windowMs: GLOBAL_RATE_LIMIT.windowMs,
      prefix: `ratelimit:${GLOBAL_RATE_LIMIT.name}:`,
      ...GLOBAL_RATE_LIMIT_SYNC,
    });
  }

  hit(client: string): WindowHit | Promise<WindowHit> {
    return this.counter.hit(client);
  }

  onApplicationShutdown(): void {
    this.counter.close();
  }
}
