import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A role key of the organization's project: the built-in `admin` or `member`, or a custom role (docs/api-contract.md §14). */
export type MemberRole = string;

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
