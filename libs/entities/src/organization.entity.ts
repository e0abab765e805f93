import { Column, Entity, UpdateDateColumn } from 'typeorm';
import { ProjectScoped } from './scoped-entity';

/** UNIQUE (project_id, slug) in the database. */
@Entity('organizations')
export class Organization extends ProjectScoped {
  @Column('text')
  name: string;

  @Column('text')
  slug: string;

  @Column('jsonb', { default: {} })
  metadata: Record<string, unknown>;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
