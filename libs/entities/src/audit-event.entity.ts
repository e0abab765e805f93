import { Column, Entity } from 'typeorm';
import { TenantScoped } from './scoped-entity';

@Entity('audit_events')
export class AuditEvent extends TenantScoped {
  /** No foreign key in the database. */
  @Column('uuid', { nullable: true })
  projectId: string | null;

  @Column('text')
  actorType: string;

  @Column('text', { nullable: true })
  actorId: string | null;

  @Column('text')
  action: string;

  @Column('text')
  resourceType: string;

  @Column('text', { nullable: true })
  resourceId: string | null;

  @Column('text', { nullable: true })
  ipAddress: string | null;

  @Column('text', { nullable: true })
  userAgent: string | null;

  @Column('jsonb', { default: {} })
  metadata: Record<string, unknown>;
}
