import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ProjectPermission, queryRows } from '@gatehouse/entities';
import type { Page } from './page';

/**
 * The only code that queries `project_permissions`: a project's permission catalog. Lock order:
 * a role's write takes its permissions FOR SHARE (`lockKeys`), a permission's deletion its row FOR
 * UPDATE (`lockByKey`) before it asks whether a role grants it, so neither misses the other.
 */
@Injectable()
export class ProjectPermissionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(ProjectPermission);
  }

  /** Inserts a permission; a key already in the project raises the unique violation (the caller answers 409). */
  create(
    manager: EntityManager,
    values: Pick<ProjectPermission, 'tenantId' | 'projectId' | 'key' | 'description'>,
  ): Promise<ProjectPermission> {
    const repo = this.repo(manager);
    return repo.save(repo.create(values));
  }

  count(projectId: string, manager?: EntityManager): Promise<number> {
    return this.repo(manager).countBy({ projectId });
  }

  /** The project's permissions by key. */
  list(projectId: string, page: Page): Promise<[ProjectPermission[], number]> {
    return this.repo().findAndCount({
      where: { projectId },
      order: { key: 'ASC' },
      skip: page.offset,
      take: page.limit,
    });
  }

  /** Every key of the catalog, sorted (what `admin` holds beside the system permissions). */
  async keys(projectId: string, manager?: EntityManager): Promise<string[]> {
    const rows = await queryRows<{ key: string }>(
      manager ?? this.dataSource.manager,
      `SELECT key FROM project_permissions WHERE project_id = $1 ORDER BY key`,
      [projectId],
    );
    return rows.map((r) => r.key);
  }

  /** Of `keys`, those the catalog has, each row locked FOR SHARE until the transaction ends. */
  async lockKeys(manager: EntityManager, projectId: string, keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const rows = await queryRows<{ key: string }>(
      manager,
      `SELECT key FROM project_permissions WHERE project_id = $1 AND key = ANY($2::text[]) ORDER BY key FOR SHARE`,
      [projectId, keys],
    );
    return new Set(rows.map((r) => r.key));
  }

  lockByKey(
    manager: EntityManager,
    projectId: string,
    key: string,
  ): Promise<ProjectPermission | null> {
    return this.repo(manager).findOne({
      where: { projectId, key },
      lock: { mode: 'pessimistic_write' },
    });
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`DELETE FROM project_permissions WHERE id = $1`, [id]);
  }
}
