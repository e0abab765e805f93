import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { getStorageToken, ThrottlerModule } from '@nestjs/throttler';
import { CacheStore, CacheThrottlerStorage } from '@gatehouse/platform';
import { GlobalRateLimitGuard } from './global-rate-limit.guard';
import { RateLimitsService } from './rate-limits.service';

/** Rate limiting for an HTTP app: the global limit as a guard, endpoint limits as a service. */
@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [CacheStore],
      useFactory: (cache: CacheStore) => ({
        throttlers: [{ name: 'global', ttl: 60_000, limit: 1000 }],
        storage: new CacheThrottlerStorage(cache),
        setHeaders: false,
      }),
    }),
  ],
  providers: [RateLimitsService, { provide: APP_GUARD, useClass: GlobalRateLimitGuard }],
  exports: [RateLimitsService, ThrottlerModule],
})
export class RateLimitsModule {}

export { getStorageToken };
