import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { CacheStore } from './cache-store';
import { sharedMemoryCacheStore } from './memory-cache.store';
import { RedisCacheStore } from './redis-cache.store';

/** Provides the CacheStore chosen once at start-up: Redis, or the process-wide in-memory store in standalone mode. */
@Global()
@Module({
  providers: [
    {
      provide: CacheStore,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        if (config.standalone.forced) return sharedMemoryCacheStore();
        const store = new RedisCacheStore(config.redis.url, config.http.dependencyTimeoutMs);
        await store
          .waitUntilReady(Math.max(config.http.dependencyTimeoutMs, 5000))
          .catch(async (err: unknown) => {
            await store.close();
            throw err;
          });
        return store;
      },
    },
  ],
  exports: [CacheStore],
})
export class CacheModule implements OnApplicationShutdown {
  constructor(@Inject(CacheStore) private readonly cache: CacheStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.cache.close();
  }
}
