import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@gatehouse/config';
import { buildHttpApp } from '@gatehouse/http';
import type { Clock } from '@gatehouse/platform';
import { AppModule } from './app.module';

export function buildWebhookWorker(
  config: AppConfig,
  opts: { clock?: Clock; logger?: boolean } = {},
): Promise<NestExpressApplication> {
  return buildHttpApp(AppModule.forRoot(config, opts.clock), config, {
    name: 'webhook-worker',
    description:
      'Background worker (webhook deliveries, mail, SMS). HTTP serves health endpoints only.',
    docs: false,
    ...(opts.logger === false ? { logger: false } : {}),
  });
}
