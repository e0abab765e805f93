import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

@Entity('webhook_deliveries')
export class WebhookDelivery {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  tenantId: string;

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

  @Column({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
