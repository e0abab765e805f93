import type {
  DataSource,
  EntityManager,
  EntityTarget,
  FindOptionsOrder,
  FindOptionsWhere,
  Repository,
} from 'typeorm';

/** A row that belongs to one project of one tenant, listed newest first. */
export interface ProjectRow {
  id: string;
  tenantId: string;
  projectId: string;
  createdAt: Date;
}

/**
 * The admin API's reads and writes of a table whose rows belong to one project of one tenant and
 * that names a row by `key` (`api_resources` by id, `oauth_clients` by `client_id`): a page newest
 * first, one row read or row-locked, a change saved. A value that could name no row (`plausible`)
 * is answered without a query. `C` is what a change may set.
 */
export abstract class ProjectRowsRepository<T extends ProjectRow, C extends Partial<T>> {
  protected constructor(
    protected readonly dataSource: DataSource,
    private readonly entity: EntityTarget<T>,
    private readonly key: keyof T & string,
    private readonly plausible: (value: string) => boolean,
  ) {}

  protected repo(manager?: EntityManager): Repository<T> {
    return (manager ?? this.dataSource.manager).getRepository(this.entity);
  }

  /** The project's rows, newest first (each table's index on its project and creation time). */
  list(
    tenantId: string,
    projectId: string,
    page: { limit: number; offset: number },
  ): Promise<[T[], number]> {
    return this.repo().findAndCount({
      where: { tenantId, projectId } as FindOptionsWhere<T>,
      order: { createdAt: 'DESC', id: 'DESC' } as FindOptionsOrder<T>,
      skip: page.offset,
      take: page.limit,
    });
  }

  /** The row `value` names in this project of this tenant, or null. */
  async getInProject(
    tenantId: string,
    projectId: string,
    value: string,
    manager?: EntityManager,
  ): Promise<T | null> {
    if (!this.plausible(value)) return null;
    return this.repo(manager).findOne({ where: this.named(tenantId, projectId, value) });
  }

  /** Reads and row-locks that row until the transaction ends (serialises concurrent changes). */
  async lockInProject(
    manager: EntityManager,
    tenantId: string,
    projectId: string,
    value: string,
  ): Promise<T | null> {
    if (!this.plausible(value)) return null;
    return this.repo(manager).findOne({
      where: this.named(tenantId, projectId, value),
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Applies changes to a (locked) row and saves it; `updated_at` moves. */
  update(manager: EntityManager, row: T, changes: C): Promise<T> {
    return this.repo(manager).save(Object.assign(row, changes));
  }

  private named(tenantId: string, projectId: string, value: string): FindOptionsWhere<T> {
    return { tenantId, projectId, [this.key]: value } as FindOptionsWhere<T>;
  }
}
