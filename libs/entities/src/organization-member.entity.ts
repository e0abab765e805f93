import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export type MemberRole = 'admin' | 'member';

/** Primary key (organization_id, user_id). */
@Entity('organization_members')
export class OrganizationMember {
  @PrimaryColumn('uuid')
  organizationId: string;

  @PrimaryColumn('uuid')
  userId: string;

  @Column('uuid')
  tenantId: string;

  @Column('text')
  role: MemberRole;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
