import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { containsPattern, Project, type ProjectSettings } from '@gatehouse/entities';

/** A project as request handling reads it (resolved by key or id; ProjectsCache keeps it). */
export interface ProjectRow {
  id: string;
  tenant_id: string;
  name: string;
  is_console: boolean;
  allowed_origins: string[];
  redirect_urls: string[];
  settings: ProjectSettings;
  publishable_key: string;
  /** Set when the key that found it was an API key secret. */
  api_key_id?: string;
}

const COLUMNS =
  'p.id, p.tenant_id, p.name, p.is_console, p.allowed_origins, p.redirect_urls, p.settings, p.publishable_key';

/**
 * The one SQL rule for "which project does this key name": the project whose publishable key it is,
 * or the project of a live (unrevoked) API key with this secret hash. A query of `columns` of
 * `projects p`, plus `api_key_id` (null for a publishable key); `publishable` and `secretHash` are
 * the placeholders (`$n`) of the statement that embeds it, one of them null when executed. Used by
 * `byKey` below and inside the hot statements that check the key themselves (refresh, `/me`), so
 * they agree with it by construction. (It reads `api_keys` in the same statement; that table's
 * other queries are ApiKeysRepository's.)
 */
export function projectsNamedByKeySql(
  columns: string,
  publishable: string,
  secretHash: string,
): string {
  return `SELECT ${columns}, NULL::uuid AS api_key_id FROM projects p WHERE p.publishable_key = ${publishable}
          UNION ALL
          SELECT ${columns}, k.id AS api_key_id FROM api_keys k JOIN projects p ON p.id = k.project_id
           WHERE k.secret_hash = ${secretHash} AND k.revoked_at IS NULL`;
}

/**
 * The only code that queries `projects`: the admin API's reads and writes (tenant-scoped), the
 * resolution of project keys and ids behind ProjectsCache, the CORS origin sets, and provisioning.
 */
@Injectable()
export class ProjectsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(Project);
  }

  findInTenant(tenantId: string, id: string, manager?: EntityManager): Promise<Project | null> {
    return this.repo(manager).findOne({ where: { tenantId, id } });
  }

  /** Reads and row-locks the project until the transaction ends (serialises concurrent changes). */
  lockInTenant(manager: EntityManager, tenantId: string, id: string): Promise<Project | null> {
    return this.repo(manager).findOne({
      where: { tenantId, id },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Newest first; `q` matches a case-insensitive substring of the name, literally. */
  async list(
    tenantId: string,
    q: string | undefined,
    page: { limit: number; offset: number },
  ): Promise<[Project[], number]> {
    const qb = this.repo().createQueryBuilder('p').where('p.tenant_id = :tenantId', { tenantId });
    if (q) qb.andWhere(`lower(p.name) LIKE lower(:q) ESCAPE '\\'`, { q: containsPattern(q) });
    return qb
      .orderBy('p.created_at', 'DESC')
      .addOrderBy('p.id', 'DESC')
      .skip(page.offset)
      .take(page.limit)
      .getManyAndCount();
  }

  /** Every project of the tenant, the console project included, oldest first: ids and names only. */
  namesInTenant(tenantId: string): Promise<{ id: string; name: string }[]> {
    return this.dataSource.query(
      `SELECT id, name FROM projects WHERE tenant_id = $1 ORDER BY created_at, id`,
      [tenantId],
    );
  }

  save(project: Project, manager: EntityManager): Promise<Project> {
    return this.repo(manager).save(project);
  }

  /** Deletes the project; its users, keys, clients, sessions and the rest go with it (ON DELETE CASCADE). */
  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`DELETE FROM projects WHERE id = $1`, [id]);
  }

  async insert(
    manager: EntityManager,
    values: Pick<
      Project,
      | 'tenantId'
      | 'name'
      | 'publishableKey'
      | 'isConsole'
      | 'allowedOrigins'
      | 'redirectUrls'
      | 'settings'
    >,
  ): Promise<Project> {
    return this.repo(manager).save(this.repo(manager).create(values));
  }

  /** The project a key names (`lookup`: exactly one of the two set), with the API key's id when it was one. */
  async byKey(
    publishableKey: string | null,
    secretHash: string | null,
  ): Promise<ProjectRow | null> {
    const rows: ProjectRow[] = await this.dataSource.query(
      projectsNamedByKeySql(COLUMNS, '$1', '$2'),
      [publishableKey, secretHash],
    );
    return rows[0] ?? null;
  }

  async byId(id: string): Promise<ProjectRow | null> {
    const rows: ProjectRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM projects p WHERE p.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** The publishable key of the first tenant's console project (the console's default sign-in), or null before bootstrap. */
  async firstConsoleKey(): Promise<string | null> {
    const rows: { publishable_key: string }[] = await this.dataSource.query(
      `SELECT publishable_key FROM projects WHERE is_console ORDER BY created_at, id LIMIT 1`,
    );
    return rows[0]?.publishable_key ?? null;
  }

  /** The union of the allowed origins of every project, or of console projects only. */
  async allowedOrigins(consoleOnly: boolean): Promise<string[]> {
    const rows: { origin: string }[] = await this.dataSource.query(
      `SELECT DISTINCT o.origin
         FROM projects p CROSS JOIN LATERAL jsonb_array_elements_text(
                CASE WHEN jsonb_typeof(p.allowed_origins) = 'array' THEN p.allowed_origins ELSE '[]'::jsonb END) AS o(origin)
        ${consoleOnly ? 'WHERE p.is_console' : ''}`,
    );
    return rows.map((r) => r.origin);
  }
}
