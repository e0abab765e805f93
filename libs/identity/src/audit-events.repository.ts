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
}

export interface AuditFilter {
  action?: string;
  start?: AuditTimeBound;
  end?: AuditTimeBound;
}

/**
 * The only code that reads `audit_events` (the control plane's audit query); its rows are written
 * by EventRecorder, beside it, in the transaction of each change.
 * Newest first on the (tenant_id, created_at DESC, id) or (tenant_id, action, created_at DESC) index.
 */
@Injectable()
export class AuditEventsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The page and the count statements (also EXPLAINed by `npm run bench:admin`). */
  sql(tenantId: string, filter: AuditFilter, page: { limit: number; offset: number }): { list: string; count: string; params: unknown[] } {
    const params: unknown[] = [tenantId];
    const clauses = ['tenant_id = $1'];
    if (filter.action !== undefined) {
      params.push(filter.action);
      clauses.push(`action = $${params.length}`);
    }
    for (const bound of [filter.start, filter.end]) {
      if (!bound) continue;
      params.push(bound.at);
      clauses.push(`created_at ${bound.op} $${params.length}::timestamptz`);
    }
    const where = clauses.join(' AND ');
    return {
      list: `SELECT id, actor_type, actor_id, action, resource_type, resource_id, project_id, ip_address, user_agent, created_at
               FROM audit_events WHERE ${where} ORDER BY created_at DESC, id LIMIT ${page.limit} OFFSET ${page.offset}`,
      count: `SELECT count(*)::int AS total FROM audit_events WHERE ${where}`,
      params,
    };
  }

  async list(tenantId: string, filter: AuditFilter, page: { limit: number; offset: number }): Promise<[AuditEventRow[], number]> {
    const q = this.sql(tenantId, filter, page);
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query<AuditEventRow[]>(q.list, q.params),
      this.dataSource.query<[{ total: number }]>(q.count, q.params),
    ]);
    return [rows, total];
  }
}
