import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@gatehouse/config';
import { DatabaseModule } from '@gatehouse/entities';
import { EventsModule } from '@gatehouse/identity';
import { CoreModule } from '@gatehouse/http';
import { Clock } from '@gatehouse/platform';
import { QueueModule } from '@gatehouse/queue';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { MailProcessor } from './mail/mail.processor';
import { QueueMetrics } from './queue-metrics';
import { RetentionModule } from './retention/retention.module';
import { SmsProcessor } from './sms/sms.processor';

/** The worker: queue consumers (webhook deliveries, mail, SMS) and the outbox relay; HTTP only for `/health*` (metrics apart). */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, clock?: Clock): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, clock),
        DatabaseModule.forRoot(),
        EventsModule,
        QueueModule.forRoot(),
        DeliveriesModule,
        RetentionModule,
      ],
      providers: [MailProcessor, QueueMetrics, SmsProcessor],
    };
  }
}
