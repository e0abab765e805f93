import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** One bound of an audit query: an instant (ISO 8601 with its zone) and how `created_at` compares to it. */
export interface AuditTimeBound {
  at: string;
  op: '>=' | '<' | '<=';
}

export interface AuditEventRow {
  id: string;
  actor_type: string;
  actor_id: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  project_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Date;
  /** The event's `data` (docs/api-contract.md §13): what changed, why a sign-in failed, an import's counts; `{}` when nothing. */
  metadata: Record<string, unknown>;
}

/** Where an export page ends: the last event's `created_at` (as PostgreSQL wrote it, microseconds kept) and id. */
export interface AuditCursor {
  created_at: string;
  id: string;
}

/** One UTC day of one project in `daily`: how many of each kind of sign-in activity it recorded. */
export interface DailyActivityRow {
  /** `YYYY-MM-DD`, the UTC day. */
  date: string;
  project_id: string;
  sign_ins: number;
  sign_ups: number;
  failed_sign_ins: number;
  lockouts: number;
}

/**
 * Which audit events each count of `GET /v1/admin/stats` takes (docs/admin-api.md#stats):
 * - `sign_ins`: `session.created`, a session started by any way in (password, magic link, passkey,
 *   social, an MFA challenge completed), the session a sign-up opens included; refreshes and
 *   re-authentications start none;
 * - `sign_ups`: `user.created` with the user as actor (a password sign-up, or a first social
 *   sign-in that created the account); users provisioned by the system (a tenant's first admin)
 *   are not sign-ups;
 * - `failed_sign_ins`: `user.sign_in_failed`, one per refused attempt the runtime records (wrong
 *   password or unknown identifier, disabled account, refused passkey, failed social sign-in,
 *   wrong second-factor code); attempts refused by a lock or a rate limit before any check are not;
 * - `lockouts`: `user.locked`, a lock starting (an identifier's password lock, or a user's second
 *   factor lock).
 */
export const ACTIVITY_COUNTS = {
  sign_ins: `action = 'session.created'`,
  sign_ups: `action = 'user.created' AND actor_type = 'user'`,
  failed_sign_ins: `action = 'user.sign_in_failed'`,
  lockouts: `action = 'user.locked'`,
} as const satisfies Record<Exclude<keyof DailyActivityRow, 'date' | 'project_id'>, string>;

const ACTIVITY_ACTIONS = `('session.created', 'user.created', 'user.sign_in_failed', 'user.locked')`;

export interface AuditFilter {
  action?: string;
  /** `user.*`: actions starting with `user.` (docs/api-contract.md §13). */
  actionPrefix?: string;
  /** Events whose actor or resource is this user. */
  userId?: string;
  actorId?: string;
  projectId?: string;
  start?: AuditTimeBound;
  end?: AuditTimeBound;
}

const AUDIT_COLUMNS =
  'id, actor_type, actor_id, action, resource_type, resource_id, project_id, ip_address, user_agent, created_at, metadata';

/**
 * The only code that reads `audit_events` (the control plane's audit query and the daily activity
 * of its stats); its rows are written by EventRecorder, beside it, in the transaction of each change.
 * Newest first on the (tenant_id, created_at DESC, id) or (tenant_id, action, created_at DESC) index
 * (the latter covers `project_id` and `actor_type` for the daily activity).
 */
@Injectable()
export class AuditEventsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The page and the count statements (also EXPLAINed by `npm run bench:admin`). */
  sql(
    tenantId: string,
    filter: AuditFilter,
    page: { limit: number; offset: number },
  ): { list: string; count: string; params: unknown[] } {
    const { where, params } = this.where(tenantId, filter);
    return {
      list: `SELECT ${AUDIT_COLUMNS}
               FROM audit_events WHERE ${where} ORDER BY created_at DESC, id LIMIT ${page.limit} OFFSET ${page.offset}`,
      count: `SELECT count(*)::int AS total FROM audit_events WHERE ${where}`,
      params,
    };
  }

  /**
   * One page of the export (`GET /v1/admin/audit/export`): newest first, after `cursor` (keyset on
   * created_at DESC, id DESC, so events written meanwhile are neither skipped nor read twice).
   */
  async exportPage(
    tenantId: string,
    filter: AuditFilter,
    cursor: AuditCursor | null,
    limit: number,
  ): Promise<(AuditEventRow & { cursor: string })[]> {
    const { where, params } = this.where(tenantId, filter);
    const clauses = [where];
    if (cursor) {
      params.push(cursor.created_at, cursor.id);
      clauses.push(
        `(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`,
      );
    }
    return this.dataSource.query(
      `SELECT ${AUDIT_COLUMNS}, created_at::text AS cursor FROM audit_events WHERE ${clauses.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
      params,
    );
  }

  private where(tenantId: string, filter: AuditFilter): { where: string; params: unknown[] } {
    const params: unknown[] = [tenantId];
    const clauses = ['tenant_id = $1'];
    if (filter.action !== undefined) {
      params.push(filter.action);
      clauses.push(`action = $${params.length}`);
    }
    if (filter.actionPrefix !== undefined) {
      // A literal prefix: LIKE's own wildcards in it are escaped.
      params.push(`${filter.actionPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      clauses.push(`action LIKE $${params.length} ESCAPE '\\'`);
    }
    if (filter.userId !== undefined) {
      params.push(filter.userId);
      clauses.push(
        `(actor_id = $${params.length} OR (resource_type = 'user' AND resource_id = $${params.length}))`,
      );
    }
    if (filter.actorId !== undefined) {
      params.push(filter.actorId);
      clauses.push(`actor_id = $${params.length}`);
    }
    if (filter.projectId !== undefined) {
      params.push(filter.projectId);
      clauses.push(`project_id = $${params.length}::uuid`);
    }
    for (const bound of [filter.start, filter.end]) {
      if (!bound) continue;
      params.push(bound.at);
      clauses.push(`created_at ${bound.op} $${params.length}::timestamptz`);
    }
    return { where: clauses.join(' AND '), params };
  }

  async list(
    tenantId: string,
    filter: AuditFilter,
    page: { limit: number; offset: number },
  ): Promise<[AuditEventRow[], number]> {
    const q = this.sql(tenantId, filter, page);
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query<AuditEventRow[]>(q.list, q.params),
      this.dataSource.query<[{ total: number }]>(q.count, q.params),
    ]);
    return [rows, total];
  }

  /**
   * The daily activity statement (also EXPLAINed by `npm run bench:admin`): per UTC day and
   * project, the counts of ACTIVITY_COUNTS among the tenant's events of [`from`, `until`) (both UTC
   * midnights), days and projects with none left out, by date then project. A LATERAL over the
   * days: each day is one index-only range scan of the covering (tenant_id, action, created_at
   * DESC) index, grouped by project alone. Grouped by `date_trunc('day', …)` in one pass instead,
   * the planner expects a group per event (it knows no better for an expression of `created_at`),
   * sorts them all and spills to disk. Days are 24 hours from a UTC midnight whatever the
   * session's time zone.
   */
  dailyActivitySql(tenantId: string, from: Date, until: Date): { sql: string; params: unknown[] } {
    const counts = Object.entries(ACTIVITY_COUNTS).map(
      ([name, when]) => `count(*) FILTER (WHERE ${when})::int AS ${name}`,
    );
    return {
      sql: `SELECT to_char(d.day AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, c.*
              FROM generate_series($2::timestamptz, $3::timestamptz - interval '24 hours', interval '24 hours') AS d(day)
             CROSS JOIN LATERAL (
                   SELECT project_id, ${counts.join(', ')}
                     FROM audit_events
                    WHERE tenant_id = $1 AND action IN ${ACTIVITY_ACTIONS} AND created_at >= d.day AND created_at < d.day + interval '24 hours' AND project_id IS NOT NULL
                    GROUP BY project_id
                   HAVING count(*) FILTER (WHERE ${Object.values(ACTIVITY_COUNTS)
                     .map((when) => `(${when})`)
                     .join(' OR ')}) > 0
                   ) c
             ORDER BY d.day, c.project_id`,
      params: [tenantId, from, until],
    };
  }

  dailyActivity(tenantId: string, from: Date, until: Date): Promise<DailyActivityRow[]> {
    const q = this.dailyActivitySql(tenantId, from, until);
    return this.dataSource.query<DailyActivityRow[]>(q.sql, q.params);
  }
}
