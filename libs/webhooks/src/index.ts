/** Webhooks as the control plane and the worker see them: event types, payloads, signing, URL rules, the delivery queue, and the repositories of `webhooks`, `webhook_deliveries` and the outbox relay. */
export { WEBHOOK_ALL_EVENTS, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from './webhook-events';
export {
  newWebhookSecret,
  openWebhookSecret,
  sealWebhookSecret,
  signWebhook,
  WEBHOOK_SECRET_PREFIX,
  webhookSigningKey,
} from './webhook-signing';
export { webhookBody, type WebhookEventSource } from './webhook-payload';
export {
  checkWebhookUrl,
  parseWebhookUrl,
  WEBHOOK_URL_MAX_LENGTH,
  type WebhookUrlCheck,
} from './webhook-url';
export {
  WEBHOOK_BATCH_JOB_PREFIX,
  WEBHOOK_JOB_BATCH,
  WEBHOOK_JOB_OPTIONS,
  WebhookDeliveryQueue,
  type WebhookDeliveryJob,
} from './webhook-delivery-queue';
export {
  webhookIdsOfTenantSql,
  WebhooksRepository,
  type DisabledWebhook,
} from './webhooks.repository';
export {
  WebhookDeliveriesRepository,
  type AttemptResult,
  type ClaimedAttempt,
  type RecordedAttempt,
} from './webhook-deliveries.repository';
export { OutboxEventsRepository } from './outbox-events.repository';
