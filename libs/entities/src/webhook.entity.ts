import { Column, Entity, UpdateDateColumn } from 'typeorm';
import { TenantScoped } from './scoped-entity';

@Entity('webhooks')
export class Webhook extends TenantScoped {
  @Column('text')
  url: string;

  @Column('jsonb', { default: [] })
  events: string[];

  @Column('text', { nullable: true })
  description: string | null;

  @Column('boolean', { default: true })
  enabled: boolean;

  @Column('text', { nullable: true })
  disabledReason: string | null;

  @Column('text')
  secretEncrypted: string;

  /** The secret before the last rotation, which signs beside the new one until `previousSecretExpiresAt`. */
  @Column('text', { nullable: true })
  previousSecretEncrypted: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
