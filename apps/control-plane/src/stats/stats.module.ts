import { Module } from '@nestjs/common';
import { AuditEventsRepository } from '@gatehouse/identity';
import { WebhookDeliveriesRepository } from '@gatehouse/webhooks';
import { AdminGuard } from '../auth/admin.guard';
import { StatsController } from './stats.controller';
import { StatsService } from './stats.service';

@Module({
  controllers: [StatsController],
  providers: [AdminGuard, AuditEventsRepository, WebhookDeliveriesRepository, StatsService],
})
export class StatsModule {}
