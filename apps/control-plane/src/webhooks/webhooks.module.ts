import { Module } from '@nestjs/common';
import {
  WebhookDeliveriesRepository,
  WebhookDeliveryQueue,
  WebhooksRepository,
} from '@gatehouse/webhooks';
import { AdminGuard } from '../auth/admin.guard';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

@Module({
  controllers: [WebhooksController],
  providers: [
    AdminGuard,
    WebhooksRepository,
    WebhookDeliveriesRepository,
    WebhooksService,
    WebhookDeliveryQueue,
  ],
})
export class WebhooksModule {}
