import { Column, Entity, UpdateDateColumn } from 'typeorm';
import { ProjectScoped } from './scoped-entity';

/**
 * A role of a project: a key members hold and the permissions it grants. The built-in `admin` and
 * `member` exist in every project without a row; a row with their key only stores what an admin
 * changed (names, and `member`'s permissions). UNIQUE (project_id, key).
 */
@Entity('project_roles')
export class ProjectRole extends ProjectScoped {
  @Column('text')
  key: string;

  @Column('text')
  name: string;

  @Column('text', { default: '' })
  description: string;

  /** Permission keys (system or of the project's catalog), sorted; ignored for `admin`, which holds every one. */
  @Column('text', { array: true, default: () => "'{}'" })
  permissions: string[];

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
