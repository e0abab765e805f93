import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@gatehouse/config';
import { buildHttpApp, corsMiddleware } from '@gatehouse/http';
import type { Clock } from '@gatehouse/platform';
import { ROUTE_TABLE, type RouteTable } from '@gatehouse/problem-details';
import { AppModule } from './app.module';
import { consoleCorsPolicy } from './auth/console-cors.policy';
import { USER_IMPORT_ROUTE } from './user-transfer/user-transfer.controller';

export function buildControlPlane(
  config: AppConfig,
  opts: { clock?: Clock; logger?: boolean; documentOnly?: boolean } = {},
): Promise<NestExpressApplication> {
  return buildHttpApp(AppModule.forRoot(config, opts.clock), config, {
    name: 'control-plane',
    description:
      "Admin API for the dashboard (`/v1/admin/*`), scoped to the admin's tenant, and health endpoints.",
    streamRoutes: [USER_IMPORT_ROUTE],
    beforeBody: (app) => {
      const routes = app.get<RouteTable>(ROUTE_TABLE, { strict: false });
      app.use(corsMiddleware(consoleCorsPolicy(app), (path) => routes.allowedMethods(path)));
    },
    ...(opts.logger === false ? { logger: false } : {}),
    ...(opts.documentOnly ? { documentOnly: true } : {}),
  });
}
