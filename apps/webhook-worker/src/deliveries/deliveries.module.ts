import { Module } from '@nestjs/common';
import {
  OutboxEventsRepository,
  WebhookDeliveriesRepository,
  WebhookDeliveryQueue,
  WebhooksRepository,
} from '@gatehouse/webhooks';
import { DeliveryRecorder } from './delivery-recorder';
import { DeliverySweeper } from './delivery-sweeper.service';
import { OutboxRelay } from './outbox-relay.service';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhookSender } from './webhook-sender';

/** Webhook deliveries: outbox relay, sweeper, the `webhook-deliveries` consumer (docs/webhooks.md). */
@Module({
  providers: [
    OutboxEventsRepository,
    WebhooksRepository,
    WebhookDeliveriesRepository,
    WebhookDeliveryQueue,
    WebhookSender,
    DeliveryRecorder,
    WebhookDeliveriesService,
    WebhookDeliveryProcessor,
    OutboxRelay,
    DeliverySweeper,
  ],
  exports: [OutboxEventsRepository],
})
export class DeliveriesModule {}
