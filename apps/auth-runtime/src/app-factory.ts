import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@gatehouse/config';
import { buildHttpApp, corsMiddleware } from '@gatehouse/http';
import type { Clock } from '@gatehouse/platform';
import { ROUTE_TABLE, type RouteTable } from '@gatehouse/problem-details';
import { AppModule } from './app.module';
import { oidcMiddleware } from './oidc/oidc.middleware';
import { RATE_LIMITS } from './common/rate-limits';
import { projectCorsPolicy } from './projects/project-cors.policy';

export function buildAuthRuntime(
  config: AppConfig,
  opts: { clock?: Clock; logger?: boolean; documentOnly?: boolean } = {},
): Promise<NestExpressApplication> {
  return buildHttpApp(AppModule.forRoot(config, opts.clock), config, {
    name: 'auth-runtime',
    description:
      'Public authentication API for client applications (`/v1/auth/*`) and health endpoints.',
    formPaths: ['/v1/auth/oauth/callback'],
    endpointRateLimits: Object.values(RATE_LIMITS),
    beforeBody: (app) => {
      const routes = app.get<RouteTable>(ROUTE_TABLE, { strict: false });
      app.use(corsMiddleware(projectCorsPolicy(app), (path) => routes.allowedMethods(path)));
    },
    // Each project's OpenID Connect provider answers under its issuer, with its own CORS and bodies, within the global rate limit.
    afterRateLimit: (app) => app.use(oidcMiddleware(app)),
    ...(opts.logger === false ? { logger: false } : {}),
    ...(opts.documentOnly ? { documentOnly: true } : {}),
  });
}
