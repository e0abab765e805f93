import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** A first attempt the relay creates for one (event, webhook). */
export interface NewAttempt {
  tenantId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  manual: boolean;
}

/** Everything one attempt needs, read in one query. */
export interface AttemptContext {
  id: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempt: number;
  manual: boolean;
  webhookId: string;
  webhookUrl: string;
  webhookEnabled: boolean;
  secretEncrypted: string;
  event: { id: string; type: string; tenantId: string; projectId: string | null; createdAt: Date; payload: Record<string, unknown> };
}

export interface AttemptResult {
  status: 'succeeded' | 'failed';
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
}

interface AttemptRow {
  id: string;
  status: AttemptContext['status'];
  attempt: number;
  manual: boolean;
  webhook_id: string;
  url: string;
  enabled: boolean;
  secret_encrypted: string;
  event_id: string;
  event_type: string;
  event_tenant_id: string;
  event_project_id: string | null;
  event_created_at: Date;
  payload: Record<string, unknown>;
}

/** The only code of the worker that queries `webhook_deliveries`. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts first attempts (idempotent per event, webhook and attempt); returns the ids created. */
  async insertFirstAttempts(manager: EntityManager, attempts: NewAttempt[], dueAt: Date): Promise<string[]> {
    if (attempts.length === 0) return [];
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, status, attempt, next_attempt_at, manual)
       SELECT t, w, e, ty, 'pending', 1, $5, m
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $6::boolean[]) AS x(t, w, e, ty, m)
       ON CONFLICT (event_id, webhook_id, attempt) DO NOTHING
       RETURNING id`,
      [
        attempts.map((a) => a.tenantId),
        attempts.map((a) => a.webhookId),
        attempts.map((a) => a.eventId),
        attempts.map((a) => a.eventType),
        dueAt,
        attempts.map((a) => a.manual),
      ],
    );
    return rows.map((r) => r.id);
  }

  async loadAttempt(id: string): Promise<AttemptContext | null> {
    const rows: AttemptRow[] = await this.dataSource.query(
      `SELECT d.id, d.status, d.attempt, d.manual, d.webhook_id, w.url, w.enabled, w.secret_encrypted,
              e.id AS event_id, e.type AS event_type, e.tenant_id AS event_tenant_id, e.project_id AS event_project_id,
              e.created_at AS event_created_at, e.payload
         FROM webhook_deliveries d
         JOIN webhooks w ON w.id = d.webhook_id
         JOIN outbox_events e ON e.id = d.event_id
        WHERE d.id = $1`,
      [id],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.id,
      status: r.status,
      attempt: r.attempt,
      manual: r.manual,
      webhookId: r.webhook_id,
      webhookUrl: r.url,
      webhookEnabled: r.enabled,
      secretEncrypted: r.secret_encrypted,
      event: {
        id: r.event_id,
        type: r.event_type,
        tenantId: r.event_tenant_id,
        projectId: r.event_project_id,
        createdAt: new Date(r.event_created_at),
        payload: r.payload,
      },
    };
  }

  /**
   * Records a made attempt, only if it is still pending (a duplicate run of the same job changes
   * nothing), and with `nextAttemptAt` queues the next attempt in the same statement. Returns
   * whether this call recorded it and the id of the next attempt.
   */
  async finish(id: string, result: AttemptResult, nextAttemptAt: Date | null, manager?: EntityManager): Promise<{ recorded: boolean; nextId: string | null }> {
    const rows: { recorded: boolean; next_id: string | null }[] = await (manager ?? this.dataSource.manager).query(
      `WITH done AS (
         UPDATE webhook_deliveries
            SET status = $2, response_status = $3, duration_ms = $4, error = $5, next_attempt_at = $6
          WHERE id = $1 AND status = 'pending'
          RETURNING tenant_id, webhook_id, event_id, event_type, attempt
       ), next AS (
         INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, status, attempt, next_attempt_at, manual)
         SELECT tenant_id, webhook_id, event_id, event_type, 'pending', attempt + 1, $6, false
           FROM done
          WHERE $6::timestamptz IS NOT NULL
         ON CONFLICT (event_id, webhook_id, attempt) DO NOTHING
         RETURNING id
       )
       SELECT EXISTS (SELECT 1 FROM done) AS recorded, (SELECT id FROM next) AS next_id`,
      [id, result.status, result.responseStatus, result.durationMs, result.error?.slice(0, 500) ?? null, nextAttemptAt],
    );
    return { recorded: rows[0]?.recorded ?? false, nextId: rows[0]?.next_id ?? null };
  }

  /** Due pending attempts in (due time, id) order, after `cursor` when given: the sweeper's pages. */
  async due(now: Date, limit: number, cursor: { at: Date; id: string } | null): Promise<{ id: string; at: Date }[]> {
    const rows: { id: string; next_attempt_at: Date }[] = cursor
      ? await this.dataSource.query(
          `SELECT id, next_attempt_at FROM webhook_deliveries
            WHERE status = 'pending' AND next_attempt_at <= $1 AND (next_attempt_at, id) > ($3, $4::uuid)
            ORDER BY next_attempt_at, id LIMIT $2`,
          [now, limit, cursor.at, cursor.id],
        )
      : await this.dataSource.query(
          `SELECT id, next_attempt_at FROM webhook_deliveries
            WHERE status = 'pending' AND next_attempt_at <= $1
            ORDER BY next_attempt_at, id LIMIT $2`,
          [now, limit],
        );
    return rows.map((r) => ({ id: r.id, at: new Date(r.next_attempt_at) }));
  }
}
