import { Injectable } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { CacheStore } from './cache-store';

/**
 * `@nestjs/throttler` storage on the shared CacheStore (Redis): fixed windows counted once for
 * every instance. A store failure raises DependencyUnavailableError (503), never a silent pass.
 */
@Injectable()
export class CacheThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly cache: CacheStore) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const { count, ttlMs } = await this.cache.increment(`ratelimit:${throttlerName}:${key}`, ttl);
    const timeToExpire = Math.max(1, Math.ceil(ttlMs / 1000));
    return {
      totalHits: count,
      timeToExpire,
      isBlocked: count > limit,
      timeToBlockExpire: count > limit ? timeToExpire : 0,
    };
  }
}
