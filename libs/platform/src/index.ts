/** The plumbing every app runs on: HTTP bootstrap and body handling, the cache, the clock, logging, metrics and health. */
export { CacheStore, type CacheScript, type LocalKeys } from './cache/cache-store';
export { CacheModule } from './cache/cache.module';
export { MemoryCacheStore, sharedMemoryCacheStore } from './cache/memory-cache.store';
export { RedisCacheStore, redisRequestOptions } from './cache/redis-cache.store';
export { Clock } from './clock';
export { PlatformConfigModule } from './config.module';
export { HealthController } from './health/health.controller';
export { HealthModule } from './health/health.module';
export { createHttpApp, listen, servedOpenApiDocument, stopOnSignals, type HttpAppOptions, type RunningApp } from './http/create-http-app';
export { requestCookie } from './http/cookies';
export { bodyMiddleware, jsonOnlyMiddleware, refusedBody, requestContextMiddleware, setRequestTenant } from './http/request-context';
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
