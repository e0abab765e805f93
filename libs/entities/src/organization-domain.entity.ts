import { Column, Entity, UpdateDateColumn } from 'typeorm';
import { ProjectScoped } from './scoped-entity';

export type DomainStatus = 'pending' | 'verified';
export type DomainEnrollment = 'none' | 'suggest' | 'auto_join';

/**
 * A domain an organization claims (docs/api-contract.md §14). UNIQUE (organization_id, domain);
 * UNIQUE (project_id, domain) among verified ones.
 */
@Entity('organization_domains')
export class OrganizationDomain extends ProjectScoped {
  @Column('uuid')
  organizationId: string;

  /** Lower case, IDN in punycode (ASCII). */
  @Column('text')
  domain: string;

  @Column('text', { default: 'pending' })
  status: DomainStatus;

  /** The value the TXT record `_gatehouse-verification.<domain>` must hold. */
  @Column('text')
  verificationValue: string;

  @Column('text', { default: 'none' })
  enrollment: DomainEnrollment;

  /** A role key of the project given to users who join through the domain. */
  @Column('text', { default: 'member' })
  defaultRole: string;

  @Column('timestamptz', { nullable: true })
  verifiedAt: Date | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
