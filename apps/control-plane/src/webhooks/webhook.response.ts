import { ApiProperty } from '@nestjs/swagger';
import type { Webhook } from '@gatehouse/entities';
import { WEBHOOK_ALL_EVENTS, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from '@gatehouse/webhooks';
import { PaginationResponse } from '@gatehouse/http';

/** Webhook resource (docs/api-contract.md §10); the secret is never part of it, except once in the create response. */
export class WebhookResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({
    enum: [...WEBHOOK_EVENT_TYPES, WEBHOOK_ALL_EVENTS],
    isArray: true,
    description: 'Event types it receives, or `["*"]` for all',
  })
  events!: string[];
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({
    type: String,
    enum: ['gone'],
    nullable: true,
    description:
      '`gone` once the receiver answered 410; null while enabled or disabled by an admin',
  })
  disabled_reason!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** `POST /v1/admin/webhooks` (201). */
export class WebhookCreatedResponse extends WebhookResponse {
  @ApiProperty({ description: 'The `whsec_…` signing secret, shown this once only' })
  secret!: string;
}

/** `GET /v1/admin/webhooks`, newest first. */
export class WebhookListResponse {
  @ApiProperty({ type: [WebhookResponse] }) webhooks!: WebhookResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}

/** `POST /v1/admin/webhooks/{id}/test` (202): the queued event. */
export class WebhookTestQueuedResponse {
  @ApiProperty({ format: 'uuid', description: 'The `id` of the event payload (`webhook-id`)' })
  event_id!: string;
  @ApiProperty({ enum: [WEBHOOK_TEST_EVENT] }) type!: string;
}

export function toWebhookResponse(w: Webhook): WebhookResponse {
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

/** `POST /v1/admin/webhooks/{id}/secret/rotate` (201): the new secret, shown this once. */
export class WebhookSecretRotatedResponse {
  @ApiProperty({
    description:
      'The new `whsec_…` signing secret; for 24 hours deliveries carry both signatures (`v1,<new> v1,<old>`)',
    example: 'whsec_…',
  })
  secret!: string;
}
