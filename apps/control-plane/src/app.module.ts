import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@gatehouse/config';
import { CoreModule } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { QueueModule } from '@gatehouse/queue';
import { ProjectsModule } from './projects/projects.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** The control plane: `/v1/admin/*` for the admin dashboard, plus `/health*`. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, clock?: Clock): DynamicModule {
    return {
      module: AppModule,
      imports: [CoreModule.forRoot(config, clock), QueueModule.forRoot(), ProjectsModule, WebhooksModule],
    };
  }
}
