import { Global, Module } from '@nestjs/common';
import { getStorageToken, ThrottlerModule } from '@nestjs/throttler';
import { CacheStore, CacheThrottlerStorage } from '@gatehouse/platform';
import { GLOBAL_RATE_LIMIT, GlobalRateLimiter } from './global-rate-limiter';
import { RateLimitsService } from './rate-limits.service';

/**
 * Rate limiting for an HTTP app: the throttler's storage on the shared cache, used by the endpoint
 * limits (a service, exact), and the global limit's batched counter (GlobalRateLimiter, used by
 * the Express middleware that `buildHttpApp` installs).
 */
@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [CacheStore],
      useFactory: (cache: CacheStore) => ({
        throttlers: [
          {
            name: GLOBAL_RATE_LIMIT.name,
            ttl: GLOBAL_RATE_LIMIT.windowMs,
            limit: GLOBAL_RATE_LIMIT.limit,
          },
        ],
        storage: new CacheThrottlerStorage(cache),
        setHeaders: false,
      }),
    }),
  ],
  providers: [RateLimitsService, GlobalRateLimiter],
  exports: [RateLimitsService, GlobalRateLimiter, ThrottlerModule],
})
export class RateLimitsModule {}

export { getStorageToken };
