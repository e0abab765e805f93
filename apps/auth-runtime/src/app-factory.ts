import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@gatehouse/config';
import { buildHttpApp } from '@gatehouse/identity';
import type { Clock } from '@gatehouse/platform';
import { AppModule } from './app.module';

export function buildAuthRuntime(config: AppConfig, opts: { clock?: Clock; logger?: boolean } = {}): Promise<NestExpressApplication> {
  return buildHttpApp(AppModule.forRoot(config, opts.clock), config, {
    name: 'auth-runtime',
    description: 'Public authentication API for client applications (`/v1/auth/*`) and health endpoints.',
    formPaths: ['/v1/auth/oauth/callback'],
    ...(opts.logger === false ? { logger: false } : {}),
  });
}
