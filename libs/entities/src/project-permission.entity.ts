import { Column, Entity } from 'typeorm';
import { ProjectScoped } from './scoped-entity';

/**
 * A permission of a project's catalog (`resource:action`), assignable to its roles. The system
 * permissions (`org:*`) are not rows: every project has them. UNIQUE (project_id, key).
 */
@Entity('project_permissions')
export class ProjectPermission extends ProjectScoped {
  @Column('text')
  key: string;

  @Column('text', { default: '' })
  description: string;
}
