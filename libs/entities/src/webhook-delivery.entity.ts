import { Column, Entity } from 'typeorm';
import { TenantScoped } from './scoped-entity';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

@Entity('webhook_deliveries')
export class WebhookDelivery extends TenantScoped {
  @Column('uuid')
  webhookId: string;

  /** References `outbox_events.id`. */
  @Column('uuid')
  eventId: string;

  @Column('text')
  eventType: string;

  @Column('text')
  status: DeliveryStatus;

  @Column('integer')
  attempt: number;

  @Column('integer', { nullable: true })
  responseStatus: number | null;

  @Column('integer', { nullable: true })
  durationMs: number | null;

  @Column('text', { nullable: true })
  error: string | null;

  /** The headers the attempt sent (signatures included, never a secret); null before it was made. */
  @Column('jsonb', { nullable: true })
  requestHeaders: Record<string, string> | null;

  /** The receiver's answer: its headers and the first 4 KiB of its body, as text; null without one. */
  @Column('jsonb', { nullable: true })
  responseHeaders: Record<string, string> | null;

  @Column('text', { nullable: true })
  responseBody: string | null;

  /**
   * For a failed attempt: when the next one is due (null when none is scheduled). For a pending
   * attempt: when it is due.
   */
  @Column({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  /** Asked for by an admin (test event, redeliver): made even while the webhook is disabled. */
  @Column('boolean', { default: false })
  manual: boolean;

  /** While a worker makes this pending attempt: until when it holds it (see docs/webhooks.md). */
  @Column({ type: 'timestamptz', nullable: true })
  claimedUntil: Date | null;
}
