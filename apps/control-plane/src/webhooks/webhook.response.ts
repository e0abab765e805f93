import type { Webhook } from '@gatehouse/entities';

/** Webhook resource (CONTRACT §10); the secret is never part of it, except once in the create response. */
export function toWebhookResponse(w: Webhook) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    description: w.description,
    enabled: w.enabled,
    disabled_reason: w.disabledReason,
    created_at: w.createdAt.toISOString(),
    updated_at: w.updatedAt.toISOString(),
  };
}

export type WebhookResponse = ReturnType<typeof toWebhookResponse>;
