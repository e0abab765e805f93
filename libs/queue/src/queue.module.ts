import { BullModule } from '@nestjs/bullmq';
import {
  Inject,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { BullMqJobBroker } from './bullmq-job-broker';
import { JobBroker } from './job-broker';
import { sharedMemoryJobBroker } from './memory-job-broker';
import { MailQueue, SmsQueue } from './message-queues';
import { QUEUES } from './queue-names';

/** Stops consumers before the database closes, then closes the broker. */
class BrokerLifecycle implements OnModuleDestroy, OnApplicationShutdown {
  constructor(@Inject(JobBroker) private readonly broker: JobBroker) {}

  async onModuleDestroy(): Promise<void> {
    await this.broker.stopConsumers();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.broker.close();
  }
}

/**
 * The job queues, chosen once at start-up: BullMQ on the shared Redis, or the in-process broker
 * shared by the three apps of a standalone process (GATEHOUSE_STANDALONE).
 */
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
            connection: {
              url: config.redis.url,
              maxRetriesPerRequest: null,
              enableOfflineQueue: true,
            },
            prefix: 'gatehouse',
          }),
        }),
        BullModule.registerQueue(...Object.values(QUEUES).map((name) => ({ name }))),
      ],
      providers: [
        {
          provide: JobBroker,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) =>
            config.standalone.forced
              ? sharedMemoryJobBroker()
              : new BullMqJobBroker(config.redis.url, config.http.dependencyTimeoutMs),
        },
        BrokerLifecycle,
        MailQueue,
        SmsQueue,
      ],
      exports: [BullModule, JobBroker, MailQueue, SmsQueue],
    };
  }
}
