import type { WebhookDelivery } from '@gatehouse/entities';

/** Delivery record (CONTRACT §10): one per attempt. */
export function toWebhookDeliveryResponse(d: WebhookDelivery) {
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempt: d.attempt,
    response_status: d.responseStatus,
    duration_ms: d.durationMs,
    next_attempt_at: d.nextAttemptAt ? d.nextAttemptAt.toISOString() : null,
    created_at: d.createdAt.toISOString(),
  };
}

export type WebhookDeliveryResponse = ReturnType<typeof toWebhookDeliveryResponse>;
