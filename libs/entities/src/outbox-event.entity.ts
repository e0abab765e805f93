import { Column, Entity } from 'typeorm';
import { TenantScoped } from './scoped-entity';

@Entity('outbox_events')
export class OutboxEvent extends TenantScoped {
  /** No foreign key in the database. */
  @Column('uuid', { nullable: true })
  projectId: string | null;

  @Column('text')
  type: string;

  @Column('jsonb')
  payload: Record<string, unknown>;

  @Column({ type: 'timestamptz', nullable: true })
  dispatchedAt: Date | null;
}
