import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ProjectRole, queryRows } from '@gatehouse/entities';
import type { Page } from './page';
import { BUILT_IN_ROLES, isBuiltInRole } from './roles';

export type ProjectRoleChanges = Partial<Pick<ProjectRole, 'name' | 'description' | 'permissions'>>;

/**
 * The only code that queries `project_roles`: custom roles of a project, and the stored changes of
 * the built-in `admin` and `member` (rows with their key). Lock order: a member's or invitation's
 * role is taken FOR SHARE (`lockAssignable`) after the organization's row; a role's deletion takes
 * it FOR UPDATE before it asks whether anyone holds it.
 */
@Injectable()
export class ProjectRolesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(ProjectRole);
  }

  /** Inserts a role (or a built-in's stored changes); a key already stored raises the unique violation. */
  create(
    manager: EntityManager,
    values: Pick<
      ProjectRole,
      'tenantId' | 'projectId' | 'key' | 'name' | 'description' | 'permissions'
    >,
  ): Promise<ProjectRole> {
    const repo = this.repo(manager);
    return repo.save(repo.create(values));
  }

  /** The stored rows of the built-in roles of a project (their changes), by key. */
  async builtIns(projectId: string, manager?: EntityManager): Promise<Map<string, ProjectRole>> {
    const rows = await this.repo(manager)
      .createQueryBuilder('r')
      .where('r.project_id = :projectId AND r.key IN (:...keys)', {
        projectId,
        keys: [...BUILT_IN_ROLES],
      })
      .getMany();
    return new Map(rows.map((r) => [r.key, r]));
  }

  /** The project's custom roles (not the built-ins), by key. */
  listCustom(projectId: string, page: Page): Promise<[ProjectRole[], number]> {
    return this.repo()
      .createQueryBuilder('r')
      .where('r.project_id = :projectId AND r.key NOT IN (:...keys)', {
        projectId,
        keys: [...BUILT_IN_ROLES],
      })
      .orderBy('r.key', 'ASC')
      .skip(page.offset)
      .take(page.limit)
      .getManyAndCount();
  }

  async countCustom(projectId: string, manager?: EntityManager): Promise<number> {
    const [{ n }] = await queryRows<{ n: number }>(
      manager ?? this.dataSource.manager,
      `SELECT count(*)::int AS n FROM project_roles WHERE project_id = $1 AND key <> ALL($2::text[])`,
      [projectId, [...BUILT_IN_ROLES]],
    );
    return n;
  }

  findByKey(projectId: string, key: string, manager?: EntityManager): Promise<ProjectRole | null> {
    return this.repo(manager).findOne({ where: { projectId, key } });
  }

  lockByKey(manager: EntityManager, projectId: string, key: string): Promise<ProjectRole | null> {
    return this.repo(manager).findOne({
      where: { projectId, key },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /**
   * Whether `key` names a role of the project a member may be given: a built-in, or a custom role
   * whose row is then locked FOR SHARE (its deletion waits for this transaction, and sees the holder).
   */
  async lockAssignable(manager: EntityManager, projectId: string, key: string): Promise<boolean> {
    if (isBuiltInRole(key)) return true;
    const rows = await queryRows<{ id: string }>(
      manager,
      `SELECT id FROM project_roles WHERE project_id = $1 AND key = $2 FOR SHARE`,
      [projectId, key],
    );
    return rows.length > 0;
  }

  /** The keys of the project's roles that grant `permission` (a permission in use cannot be deleted). */
  async granting(manager: EntityManager, projectId: string, permission: string): Promise<string[]> {
    const rows = await queryRows<{ key: string }>(
      manager,
      `SELECT key FROM project_roles WHERE project_id = $1 AND permissions @> ARRAY[$2]::text[] ORDER BY key`,
      [projectId, permission],
    );
    return rows.map((r) => r.key);
  }

  /** Applies changes to a (locked) role and saves it; `updated_at` moves. */
  update(manager: EntityManager, role: ProjectRole, changes: ProjectRoleChanges) {
    return this.repo(manager).save(Object.assign(role, changes));
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`DELETE FROM project_roles WHERE id = $1`, [id]);
  }
}
