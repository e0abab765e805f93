/** The plumbing every app runs on: config module, the cache, the clock, logging, metrics, health and startup errors. */
export { CacheStore, type CacheScript, type LocalKeys } from './cache/cache-store';
export { CacheModule } from './cache/cache.module';
export { MemoryCacheStore, sharedMemoryCacheStore } from './cache/memory-cache.store';
export { RedisCacheStore, redisRequestOptions } from './cache/redis-cache.store';
export { Clock } from './clock';
export { PlatformConfigModule } from './config.module';
export { HealthController } from './health/health.controller';
export { HealthModule } from './health/health.module';
export { createLogger, logLevelsFor } from './logging/logger';
export { DependencyUnavailableError, PlatformError } from './platform.error';
export { describeStartupError, runMain } from './run-main';
export { CacheThrottlerStorage } from './cache/cache-throttler.storage';
export {
  httpDuration,
  httpRequests,
  metricsRegistry,
  recordHttpRequest,
  queueDepth,
  registerQueueDepth,
  startMetricsServer,
  webhookDeliveries,
} from './metrics/metrics';
