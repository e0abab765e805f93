import { Column, Entity, UpdateDateColumn } from 'typeorm';
import { ProjectScoped } from './scoped-entity';

/** An organization's policies. */
export interface OrganizationSettings {
  /** Members without a second factor cannot make it their active organization (403 `mfa-required`). Default false. */
  require_mfa?: boolean;
}

/** UNIQUE (project_id, slug) in the database. */
@Entity('organizations')
export class Organization extends ProjectScoped {
  @Column('text')
  name: string;

  @Column('text')
  slug: string;

  @Column('jsonb', { default: {} })
  metadata: Record<string, unknown>;

  /** Its policies (docs/api-contract.md §14); absent members take their defaults. */
  @Column('jsonb', { default: {} })
  settings: OrganizationSettings;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
