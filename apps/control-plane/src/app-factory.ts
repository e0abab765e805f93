import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@gatehouse/config';
import { buildHttpApp } from '@gatehouse/identity';
import type { Clock } from '@gatehouse/platform';
import { AppModule } from './app.module';

export function buildControlPlane(config: AppConfig, opts: { clock?: Clock; logger?: boolean } = {}): Promise<NestExpressApplication> {
  return buildHttpApp(AppModule.forRoot(config, opts.clock), config, {
    name: 'control-plane',
    description: 'Admin API for the dashboard (`/v1/admin/*`), scoped to the admin\'s tenant, and health endpoints.',
    ...(opts.logger === false ? { logger: false } : {}),
  });
}
