import { Column, Entity } from 'typeorm';
import { TenantScoped } from './scoped-entity';

import type { MemberRole } from './organization-member.entity';

export type InvitationStatus = 'pending' | 'accepted' | 'revoked';

@Entity('invitations')
export class Invitation extends TenantScoped {
  @Column('uuid')
  organizationId: string;

  @Column('text')
  email: string;

  @Column('text')
  role: MemberRole;

  /** UNIQUE in the database. */
  @Column('text')
  tokenHash: string;

  @Column('text', { default: 'pending' })
  status: InvitationStatus;

  /** References `users.id` (ON DELETE SET NULL). */
  @Column('uuid', { nullable: true })
  invitedBy: string | null;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  acceptedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
