import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { UserStatus } from '@gatehouse/entities';
import { containsPattern } from '@gatehouse/entities';
import type { Page } from '../common/pagination';

export interface UserRow {
  id: string;
  tenant_id: string;
  project_id: string;
  email: string;
  email_verified: boolean;
  username: string | null;
  status: UserStatus;
  is_admin: boolean;
  metadata: Record<string, unknown>;
  mfa_factors: string[];
  created_at: Date;
  updated_at: Date;
  last_sign_in_at: Date | null;
}

export interface UserFilter {
  projectId?: string;
  /** Case-insensitive literal substring of email or username. */
  q?: string;
}

const COLUMNS = `u.id, u.tenant_id, u.project_id, u.email, u.email_verified, u.username, u.status, u.is_admin, u.metadata,
  u.created_at, u.updated_at, u.last_sign_in_at,
  COALESCE((SELECT array_agg(f.type ORDER BY f.type) FROM mfa_factors f WHERE f.user_id = u.id AND f.status = 'enabled'), '{}') AS mfa_factors`;

/**
 * The only code of the control plane that queries `users`. Lists walk the (tenant_id|project_id,
 * created_at DESC, id) indexes; `q` uses the trigram GIN indexes on lower(email)/lower(username).
 */
@Injectable()
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  private where(tenantId: string, filter: UserFilter): { sql: string; params: unknown[] } {
    const params: unknown[] = [tenantId];
    const clauses = ['u.tenant_id = $1'];
    if (filter.projectId) {
      params.push(filter.projectId);
      clauses.push(`u.project_id = $${params.length}`);
    }
    if (filter.q) {
      params.push(containsPattern(filter.q));
      const p = `lower($${params.length})`;
      clauses.push(`(lower(u.email) LIKE ${p} ESCAPE '\\' OR lower(u.username) LIKE ${p} ESCAPE '\\')`);
    }
    return { sql: clauses.join(' AND '), params };
  }

  /**
   * The page's ids first (an index-only walk for plain lists, so deep pages skip heap fetches),
   * then the 20 rows and their enabled MFA factors.
   */
  listSql(tenantId: string, filter: UserFilter, page: Page): { sql: string; params: unknown[] } {
    const w = this.where(tenantId, filter);
    return {
      sql: `WITH page AS (
              SELECT u.id, u.created_at FROM users u WHERE ${w.sql}
               ORDER BY u.created_at DESC, u.id LIMIT ${page.limit} OFFSET ${page.offset})
            SELECT ${COLUMNS} FROM page JOIN users u ON u.id = page.id ORDER BY page.created_at DESC, page.id`,
      params: w.params,
    };
  }

  countSql(tenantId: string, filter: UserFilter): { sql: string; params: unknown[] } {
    const w = this.where(tenantId, filter);
    return { sql: `SELECT count(*)::int AS total FROM users u WHERE ${w.sql}`, params: w.params };
  }

  async list(tenantId: string, filter: UserFilter, page: Page): Promise<[UserRow[], number]> {
    const list = this.listSql(tenantId, filter, page);
    const count = this.countSql(tenantId, filter);
    // Two pool connections: the page and the count run side by side.
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query<UserRow[]>(list.sql, list.params),
      this.dataSource.query<[{ total: number }]>(count.sql, count.params),
    ]);
    return [rows, total];
  }

  async findInTenant(tenantId: string, id: string, manager?: EntityManager): Promise<UserRow | null> {
    const rows: UserRow[] = await (manager ?? this.dataSource.manager).query(`SELECT ${COLUMNS} FROM users u WHERE u.id = $1 AND u.tenant_id = $2`, [
      id,
      tenantId,
    ]);
    return rows[0] ?? null;
  }

  /** Row-locks the user (FOR UPDATE: also waits for sessions being inserted for them). */
  async lockInTenant(manager: EntityManager, tenantId: string, id: string): Promise<UserRow | null> {
    const locked: unknown[] = await manager.query(`SELECT id FROM users WHERE id = $1 AND tenant_id = $2 FOR UPDATE`, [id, tenantId]);
    return locked.length ? this.findInTenant(tenantId, id, manager) : null;
  }

  async update(manager: EntityManager, id: string, fields: { status?: UserStatus; metadata?: Record<string, unknown> }): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [id];
    if (fields.status !== undefined) {
      params.push(fields.status);
      sets.push(`status = $${params.length}`);
      // Disabling ends every sign-in in flight (the auth runtime's session insert checks the stamp).
      if (fields.status === 'disabled') sets.push('security_stamp = security_stamp + 1');
    }
    if (fields.metadata !== undefined) {
      params.push(JSON.stringify(fields.metadata));
      sets.push(`metadata = $${params.length}::jsonb`);
    }
    if (!sets.length) return;
    await manager.query(`UPDATE users SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, params);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`DELETE FROM users WHERE id = $1`, [id]);
  }
}
