import { ApiProperty } from '@nestjs/swagger';
import type { DeliveryStatus, WebhookDelivery } from '@gatehouse/entities';
import { PaginationResponse } from '../common/pagination.response';

/** Delivery record (docs/api-contract.md §10): one per attempt. */
export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid', description: 'The event sent (`webhook-id`); the same for every attempt of it' }) event_id!: string;
  @ApiProperty({ example: 'user.created' }) event_type!: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'] satisfies DeliveryStatus[], description: '`pending` only for an attempt queued and not yet made' })
  status!: DeliveryStatus;
  @ApiProperty({ type: 'integer', minimum: 1 }) attempt!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: "The receiver's HTTP status; null when none came back" }) response_status!: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) duration_ms!: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the next attempt is due, while one is scheduled' })
  next_attempt_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

/** `GET /v1/admin/webhooks/{id}/deliveries`, newest first. */
export class WebhookDeliveryListResponse {
  @ApiProperty({ type: [WebhookDeliveryResponse] }) deliveries!: WebhookDeliveryResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}

export function toWebhookDeliveryResponse(d: WebhookDelivery): WebhookDeliveryResponse {
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
