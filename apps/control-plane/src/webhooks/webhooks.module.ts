import { Module } from '@nestjs/common';
import { WebhookDeliveryQueue } from '@gatehouse/webhooks';
import { AdminGuard } from '../auth/admin.guard';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

@Module({
  controllers: [WebhooksController],
  providers: [AdminGuard, WebhooksRepository, WebhookDeliveriesRepository, WebhooksService, WebhookDeliveryQueue],
})
export class WebhooksModule {}
