import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { ApiKey, queryRows } from '@gatehouse/entities';

/**
 * The only code that queries `api_keys` (the admin API's keys, and the record of a key's use); a
 * key's project is found by `projectsNamedByKeySql` (ProjectsRepository), which reads it in the
 * same statement.
 */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  create(
    manager: EntityManager,
    key: Pick<ApiKey, 'tenantId' | 'projectId' | 'name' | 'keyPrefix' | 'secretHash'>,
  ): Promise<ApiKey> {
    const repo = manager.getRepository(ApiKey);
    return repo.save(repo.create(key));
  }

  /** Live (unrevoked) keys of a project, newest first (index api_keys_project_created_idx). */
  listLive(
    tenantId: string,
    projectId: string,
    page: { limit: number; offset: number },
  ): Promise<[ApiKey[], number]> {
    return this.dataSource.getRepository(ApiKey).findAndCount({
      where: { tenantId, projectId, revokedAt: IsNull() },
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: page.offset,
      take: page.limit,
    });
  }

  /** Revokes a live key of the project in one conditional UPDATE; null when there is none. */
  async revoke(
    manager: EntityManager,
    tenantId: string,
    projectId: string,
    keyId: string,
    now: Date,
  ): Promise<{ id: string; secret_hash: string; name: string } | null> {
    const rows = await queryRows<{ id: string; secret_hash: string; name: string }>(
      manager,
      `UPDATE api_keys SET revoked_at = $4 WHERE id = $1 AND project_id = $2 AND tenant_id = $3 AND revoked_at IS NULL RETURNING id, secret_hash, name`,
      [keyId, projectId, tenantId, now],
    );
    return rows[0] ?? null;
  }

  async liveSecretHashes(projectId: string, manager?: EntityManager): Promise<string[]> {
    const rows: { secret_hash: string }[] = await (manager ?? this.dataSource.manager).query(
      `SELECT secret_hash FROM api_keys WHERE project_id = $1 AND revoked_at IS NULL`,
      [projectId],
    );
    return rows.map((r) => r.secret_hash);
  }

  /** Sets `last_used_at` of the live key with this secret hash, unless it was set within the minute. */
  async recordUse(secretHash: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE api_keys SET last_used_at = now()
        WHERE secret_hash = $1 AND revoked_at IS NULL AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [secretHash],
    );
  }
}
