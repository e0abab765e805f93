import { Column, Entity } from 'typeorm';
import { UserScoped } from './scoped-entity';

@Entity('sessions')
export class Session extends UserScoped {
  @Column('text', { default: 'password' })
  authMethod: string;

  @Column('text', { nullable: true })
  ipAddress: string | null;

  @Column('text', { nullable: true })
  userAgent: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  lastActiveAt: Date;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /** When the user last proved a credential in this session; null for sessions older than the column. */
  @Column({ type: 'timestamptz', nullable: true })
  authTime: Date | null;

  @Column('text', { nullable: true })
  revokeReason: string | null;

  /** The admin who opened this session by an impersonation link (docs/api-contract.md §13); null for the user's own. */
  @Column('uuid', { nullable: true })
  impersonatorId: string | null;

  /** The organization its access tokens speak for (`org` claim, docs/api-contract.md §14); null: none. */
  @Column('uuid', { nullable: true })
  activeOrganizationId: string | null;
}
