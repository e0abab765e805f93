import { BullModule } from '@nestjs/bullmq';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { MailQueue, SmsQueue } from './message-queues';
import { QUEUES } from './queue-names';

/** BullMQ on the shared Redis, with every Gatehouse queue registered for producers and consumers. */
@Module({})
export class QueueModule {
  static forRoot(): DynamicModule {
    return {
      module: QueueModule,
      global: true,
      imports: [
        BullModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => ({
            connection: { url: config.redis.url, maxRetriesPerRequest: null, enableOfflineQueue: true },
            prefix: 'gatehouse',
          }),
        }),
        BullModule.registerQueue(...Object.values(QUEUES).map((name) => ({ name }))),
      ],
      providers: [MailQueue, SmsQueue],
      exports: [BullModule, MailQueue, SmsQueue],
    };
  }
}
