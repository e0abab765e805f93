import { Module } from '@nestjs/common';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { SessionsRepository } from '@gatehouse/identity';
import { ExpiredTokensRepository } from './expired-tokens.repository';
import { RetentionService } from './retention.service';

/** Deletes what has outlived its retention: expired sessions and tokens, delivered outbox events (docs/webhooks.md). */
@Module({
  imports: [DeliveriesModule],
  providers: [SessionsRepository, ExpiredTokensRepository, RetentionService],
})
export class RetentionModule {}
