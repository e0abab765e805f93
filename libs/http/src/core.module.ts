import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { CacheModule, Clock, HealthModule, PlatformConfigModule } from '@gatehouse/platform';
import {
  ProblemDetailsFilter,
  ProblemValidationPipe,
  ROUTE_TABLE,
  RouteTable,
} from '@gatehouse/problem-details';
import { createHttpApp, type HttpAppOptions } from './create-http-app';
import { globalRateLimitMiddleware } from './rate-limits/global-rate-limit.middleware';
import { GlobalRateLimiter } from './rate-limits/global-rate-limiter';
import { RateLimitsModule } from './rate-limits/rate-limits.module';
import { endpointRateLimitLookup, type EndpointRateLimit } from './rate-limits/rate-limits.service';

/**
 * What every Gatehouse app stands on: config and clock, the shared cache, the global rate limit's
 * store, health endpoints, the one problem-details filter and the one validation pipe. Each app
 * adds the database (`DatabaseModule.forRoot()`) and what it records events with (`EventsModule`,
 * or `IdentityModule` for the HTTP apps, which includes it).
 */
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig, clock: Clock = new Clock()): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        PlatformConfigModule.forRoot(config, clock),
        CacheModule,
        RateLimitsModule,
        HealthModule,
      ],
      providers: [
        { provide: ROUTE_TABLE, useValue: new RouteTable() },
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
        { provide: APP_PIPE, useClass: ProblemValidationPipe },
      ],
      exports: [ROUTE_TABLE],
    };
  }
}

/**
 * Builds an app on CoreModule and fills its 405 route table once the routes are known;
 * `endpointRateLimits` are the app's own route limits, whose headers the global limit makes way for.
 */
export async function buildHttpApp(
  module: Type<unknown> | DynamicModule,
  config: AppConfig,
  opts: Omit<HttpAppOptions, 'onRoutes'> & {
    endpointRateLimits?: readonly EndpointRateLimit[];
    /** Middleware that answers requests itself before the body parser but after the global rate limit (the OIDC providers). */
    afterRateLimit?: (app: NestExpressApplication) => void;
  },
): Promise<NestExpressApplication> {
  let table: RouteTable | undefined;
  const endpointRateLimit = endpointRateLimitLookup(opts.endpointRateLimits ?? []);
  const app = await createHttpApp(module as Type<unknown>, config, {
    ...opts,
    onRoutes: (routes) => routes.forEach((r) => table?.add(r.path, r.method)),
    beforeBody: (app) => {
      opts.beforeBody?.(app);
      app.use(
        globalRateLimitMiddleware(
          app.get(GlobalRateLimiter),
          app.get<AppConfig>(APP_CONFIG),
          endpointRateLimit,
        ),
      );
      opts.afterRateLimit?.(app);
    },
    configure: (a) => {
      table = a.get<RouteTable>(ROUTE_TABLE, { strict: false });
      opts.configure?.(a);
    },
  });
  return app;
}
