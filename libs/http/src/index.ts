/** The HTTP road every app shares: bootstrap (CoreModule, buildHttpApp), body handling, client errors, cookies, CORS, the global rate limit and endpoint limits. */
export { buildHttpApp, CoreModule } from './core.module';
export {
  createHttpApp,
  listen,
  servedOpenApiDocument,
  stopOnSignals,
  type HttpAppOptions,
  type RunningApp,
} from './create-http-app';
export { requestCookie } from './cookies';
export {
  bodyMiddleware,
  jsonOnlyMiddleware,
  refusedBody,
  requestContextMiddleware,
  setRequestTenant,
} from './request-context';
export {
  CORS_ALLOW_HEADERS,
  CORS_ALLOW_METHODS,
  CORS_EXPOSE_HEADERS,
  CORS_MAX_AGE_SECONDS,
  corsMiddleware,
  type AllowedMethodsLookup,
  type CorsPolicy,
} from './cors.middleware';
export { RateLimitsModule } from './rate-limits/rate-limits.module';
export {
  RateLimitsService,
  type EndpointRateLimit,
  type RateLimitRule,
} from './rate-limits/rate-limits.service';
export { rateLimitClient } from './rate-limits/client-address';
export { GLOBAL_RATE_LIMIT, GLOBAL_RATE_LIMIT_SYNC } from './rate-limits/global-rate-limiter';
export { sendWebAppAsset, sendWebAppPage, WebAppFiles, webAppCsp } from './web-app-files';
export * from './pagination';
export { PaginationResponse } from './pagination.response';
