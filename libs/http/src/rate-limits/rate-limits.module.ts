import { Global, Module } from '@nestjs/common';
import { getStorageToken, ThrottlerModule } from '@nestjs/throttler';
import { CacheStore, CacheThrottlerStorage } from '@gatehouse/platform';
import { GLOBAL_RATE_LIMIT } from './global-rate-limit.middleware';
import { RateLimitsService } from './rate-limits.service';

/**
 * Rate limiting for an HTTP app: the throttler's storage on the shared cache, used by the global
 * limit (an Express middleware that `buildHttpApp` installs) and by the endpoint limits (a service).
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
  providers: [RateLimitsService],
  exports: [RateLimitsService, ThrottlerModule],
})
export class RateLimitsModule {}

export { getStorageToken };
