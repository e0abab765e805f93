import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { getStorageToken, type ThrottlerStorage } from '@nestjs/throttler';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { DatabaseModule } from '@gatehouse/entities';
import { CacheModule, Clock, createHttpApp, HealthModule, PlatformConfigModule, type HttpAppOptions } from '@gatehouse/platform';
import { ProblemDetailsFilter, ProblemValidationPipe, ROUTE_TABLE, RouteTable } from '@gatehouse/problem-details';
import { globalRateLimitMiddleware } from './rate-limits/global-rate-limit.middleware';
import { EventsModule } from './identity.module';
import { RateLimitsModule } from './rate-limits/rate-limits.module';

/**
 * What every Gatehouse app stands on: config and clock, Postgres, the shared cache, the event
 * recorder, the global rate limit's store, health endpoints, the one problem-details filter and
 * the one validation pipe. Identity services are not in it: the HTTP apps import `IdentityModule`;
 * the worker needs none of them.
 */
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig, clock: Clock = new Clock()): DynamicModule {
    return {
      module: CoreModule,
      imports: [PlatformConfigModule.forRoot(config, clock), DatabaseModule.forRoot(), CacheModule, EventsModule, RateLimitsModule, HealthModule],
      providers: [
        { provide: ROUTE_TABLE, useValue: new RouteTable() },
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
        { provide: APP_PIPE, useClass: ProblemValidationPipe },
      ],
      exports: [ROUTE_TABLE],
    };
  }
}

/** Builds an app on CoreModule and fills its 405 route table once the routes are known. */
export async function buildHttpApp(
  module: Type<unknown> | DynamicModule,
  config: AppConfig,
  opts: Omit<HttpAppOptions, 'onRoutes'>,
): Promise<NestExpressApplication> {
  let table: RouteTable | undefined;
  const app = await createHttpApp(module as Type<unknown>, config, {
    ...opts,
    onRoutes: (routes) => routes.forEach((r) => table?.add(r.path, r.method)),
    beforeBody: (app) => {
      opts.beforeBody?.(app);
      app.use(globalRateLimitMiddleware(app.get<ThrottlerStorage>(getStorageToken()), app.get<AppConfig>(APP_CONFIG)));
    },
    configure: (a) => {
      table = a.get<RouteTable>(ROUTE_TABLE, { strict: false });
      opts.configure?.(a);
    },
  });
  return app;
}
