import { Module } from '@nestjs/common';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { OneTimeTokensRepository, SessionsRepository } from '@gatehouse/identity';
import { RetentionService } from './retention.service';

/** Deletes what has outlived its retention: expired sessions and tokens, delivered outbox events (docs/webhooks.md). */
@Module({
  imports: [DeliveriesModule],
  providers: [OneTimeTokensRepository, SessionsRepository, RetentionService],
})
export class RetentionModule {}
