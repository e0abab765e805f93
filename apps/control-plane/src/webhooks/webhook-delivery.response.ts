import { ApiProperty } from '@nestjs/swagger';
import type { DeliveryStatus, WebhookDelivery } from '@gatehouse/entities';
import { PaginationResponse } from '@gatehouse/http';

/** Delivery record (docs/api-contract.md §10): one per attempt. */
export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({
    format: 'uuid',
    description: 'The event sent (`webhook-id`); the same for every attempt of it',
  })
  event_id!: string;
  @ApiProperty({ example: 'user.created' }) event_type!: string;
  @ApiProperty({
    enum: ['pending', 'succeeded', 'failed'] satisfies DeliveryStatus[],
    description: '`pending` only for an attempt queued and not yet made',
  })
  status!: DeliveryStatus;
  @ApiProperty({ type: 'integer', minimum: 1 }) attempt!: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The receiver's HTTP status; null when none came back",
  })
  response_status!: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) duration_ms!: number | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the next attempt is due, while one is scheduled',
  })
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

export const DELIVERY_ERRORS = [
  'connection_refused',
  'timeout',
  'dns_failure',
  'tls_error',
  'blocked_address',
  'redirect_not_followed',
  'http_error',
] as const;
export type DeliveryError = (typeof DELIVERY_ERRORS)[number];

/**
 * Why an attempt failed, as docs/api-contract.md §13 names it, from what the worker recorded: the receiver's
 * status (3xx: the redirect was not followed; any other non-2xx: `http_error`), else the
 * connection error it met. Null for a success or an attempt not yet made.
 */
export function deliveryError(
  d: Pick<WebhookDelivery, 'status' | 'responseStatus' | 'error'>,
): DeliveryError | null {
  if (d.status !== 'failed') return null;
  if (d.responseStatus !== null)
    return d.responseStatus >= 300 && d.responseStatus < 400
      ? 'redirect_not_followed'
      : 'http_error';
  const e = d.error ?? '';
  if (/^refused address/.test(e)) return 'blocked_address';
  if (/timeout|ETIMEDOUT|ESOCKETTIMEDOUT/i.test(e)) return 'timeout';
  if (/ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NODATA|ENODATA/.test(e)) return 'dns_failure';
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|EPROTO/i.test(e)) return 'tls_error';
  return 'connection_refused';
}

class DeliveryRequestResponse {
  @ApiProperty() url!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description:
      'As sent, `webhook-signature` included (never the secret); empty for an attempt not made or refused before sending',
  })
  headers!: Record<string, string>;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The JSON body sent (the event payload); null once the event was purged from the outbox',
  })
  body!: string | null;
}

interface DeliveryAnswerResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** `GET /v1/admin/webhooks/{id}/deliveries/{delivery_id}` (docs/api-contract.md §13): the record, what was sent, what came back, and why it failed. */
export class WebhookDeliveryDetailResponse extends WebhookDeliveryResponse {
  @ApiProperty({ type: DeliveryRequestResponse }) request!: DeliveryRequestResponse;
  @ApiProperty({
    type: 'object',
    nullable: true,
    required: ['status', 'headers', 'body'],
    properties: {
      status: { type: 'integer' },
      headers: { type: 'object', additionalProperties: { type: 'string' } },
      body: { type: 'string', description: "The first 4 KiB of the receiver's body, as text" },
    },
    description: "The receiver's answer; null when none came (or the attempt is not made yet)",
  })
  response!: DeliveryAnswerResponse | null;
  @ApiProperty({ type: String, enum: [...DELIVERY_ERRORS], nullable: true })
  error!: DeliveryError | null;
}
