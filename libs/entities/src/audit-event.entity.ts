import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('audit_events')
export class AuditEvent {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  tenantId: string;

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

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
