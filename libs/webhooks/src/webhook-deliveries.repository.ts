import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { WebhookDelivery } from '@gatehouse/entities';
import type { Page } from './page';
import type { WebhookEventSource } from './webhook-payload';
import { webhookIdsOfTenantSql } from './webhooks.repository';

/** A pending attempt this worker has just claimed, with everything needed to make it. */
export interface ClaimedAttempt {
  id: string;
  attempt: number;
  manual: boolean;
  webhookId: string;
  webhookUrl: string;
  webhookEnabled: boolean;
  secretEncrypted: string;
  /** The secret before a rotation, while it still signs beside the new one (docs/api-contract.md §13); else null. */
  previousSecretEncrypted: string | null;
  event: WebhookEventSource;
}

export interface AttemptResult {
  id: string;
  status: 'succeeded' | 'failed';
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  /** When the next attempt is due; null when none follows. */
  nextAttemptAt: Date | null;
  /** The headers sent (signatures included), and the receiver's headers and body (first 4 KiB) when it answered. */
  requestHeaders?: Record<string, string> | null;
  responseHeaders?: Record<string, string> | null;
  responseBody?: string | null;
}

export interface RecordedAttempt {
  /** False when the row was no longer pending (another run recorded it first). */
  recorded: boolean;
  /** The pending row of the next attempt, when one was queued. */
  next: { id: string; dueAt: Date } | null;
}

interface ClaimRow {
  id: string;
  attempt: number;
  manual: boolean;
  webhook_id: string;
  url: string;
  enabled: boolean;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  event_id: string;
  event_type: string;
  event_tenant_id: string;
  event_project_id: string | null;
  event_created_at: Date;
  payload: Record<string, unknown>;
}

/**
 * When `x`, the attempt that follows a failed one, is (or was) due: a pending one when its row
 * says; one already made (a redelivery, due when queued) when it was queued.
 */
const FOLLOW_UP_DUE = `CASE WHEN x.status = 'pending' THEN x.next_attempt_at ELSE x.created_at END`;

/**
 * The only code that queries `webhook_deliveries`: the control plane lists an admin's delivery
 * records and queues redeliveries (every query tenant-scoped); the worker claims pending attempts,
 * records them and sweeps the ones the queue lost. The relay's first attempts are written by
 * OutboxEventsRepository.relay, in the statement that takes their events.
 */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(WebhookDelivery);
  }

  /**
   * A webhook's delivery records, newest first (attempts of one event made in the same instant keep
   * their order); `status` and `eventType` filter (docs/api-contract.md §13).
   */
  list(
    tenantId: string,
    webhookId: string,
    page: Page,
    filter: { status?: WebhookDelivery['status']; eventType?: string } = {},
  ): Promise<[WebhookDelivery[], number]> {
    return this.repo().findAndCount({
      where: {
        tenantId,
        webhookId,
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.eventType ? { eventType: filter.eventType } : {}),
      },
      order: { createdAt: 'DESC', attempt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.limit,
    });
  }

  /**
   * How many delivery records (one per attempt) of the tenant's webhooks were created in
   * [`from`, `until`), by status (the admin stats). Walks each webhook's
   * (webhook_id, created_at DESC, id) index, so only the tenant's own records are read.
   */
  statusCountsSql(tenantId: string, from: Date, until: Date): { sql: string; params: unknown[] } {
    return {
      sql: `SELECT count(*) FILTER (WHERE d.status = 'succeeded')::int AS succeeded,
                   count(*) FILTER (WHERE d.status = 'failed')::int AS failed,
                   count(*) FILTER (WHERE d.status = 'pending')::int AS pending
              FROM webhook_deliveries d
             WHERE d.webhook_id IN (${webhookIdsOfTenantSql('$1')}) AND d.tenant_id = $1 AND d.created_at >= $2 AND d.created_at < $3`,
      params: [tenantId, from, until],
    };
  }

  async statusCounts(
    tenantId: string,
    from: Date,
    until: Date,
  ): Promise<{ succeeded: number; failed: number; pending: number }> {
    const q = this.statusCountsSql(tenantId, from, until);
    const [row] = await this.dataSource.query<
      [{ succeeded: number; failed: number; pending: number }]
    >(q.sql, q.params);
    return row;
  }

  /** The event a delivery sent, as the worker builds its body; null once the outbox row was purged. */
  async eventOf(tenantId: string, eventId: string): Promise<WebhookEventSource | null> {
    const rows: {
      id: string;
      type: string;
      tenant_id: string;
      project_id: string | null;
      created_at: Date;
      payload: Record<string, unknown>;
    }[] = await this.dataSource.query(
      `SELECT id, type, tenant_id, project_id, created_at, payload FROM outbox_events WHERE id = $1 AND tenant_id = $2`,
      [eventId, tenantId],
    );
    const r = rows[0];
    return r
      ? {
          id: r.id,
          type: r.type,
          tenantId: r.tenant_id,
          projectId: r.project_id,
          createdAt: new Date(r.created_at),
          payload: r.payload,
        }
      : null;
  }

  findOfWebhook(
    manager: EntityManager,
    tenantId: string,
    webhookId: string,
    id: string,
  ): Promise<WebhookDelivery | null> {
    return this.repo(manager).findOne({ where: { tenantId, webhookId, id } });
  }

  /** The attempt of (event, webhook) queued and not yet made, if any, row-locked. */
  findPending(
    manager: EntityManager,
    tenantId: string,
    webhookId: string,
    eventId: string,
  ): Promise<WebhookDelivery | null> {
    return this.repo(manager).findOne({
      where: { tenantId, webhookId, eventId, status: 'pending' },
      lock: { mode: 'pessimistic_write' },
    });
  }

  async lastAttempt(
    manager: EntityManager,
    tenantId: string,
    webhookId: string,
    eventId: string,
  ): Promise<number> {
    const row = await this.repo(manager)
      .createQueryBuilder('d')
      .select('MAX(d.attempt)', 'max')
      .where('d.tenant_id = :tenantId AND d.webhook_id = :webhookId AND d.event_id = :eventId', {
        tenantId,
        webhookId,
        eventId,
      })
      .getRawOne<{ max: number | null }>();
    return Number(row?.max ?? 0);
  }

  async insertPending(
    manager: EntityManager,
    values: Pick<
      WebhookDelivery,
      'tenantId' | 'webhookId' | 'eventId' | 'eventType' | 'attempt' | 'nextAttemptAt'
    >,
  ): Promise<WebhookDelivery> {
    const row = this.repo(manager).create({
      ...values,
      status: 'pending',
      manual: true,
      responseStatus: null,
      durationMs: null,
      error: null,
    });
    return this.repo(manager).save(row);
  }

  async makeDueNow(
    manager: EntityManager,
    delivery: WebhookDelivery,
    now: Date,
  ): Promise<WebhookDelivery> {
    delivery.nextAttemptAt = now;
    delivery.manual = true;
    return this.repo(manager).save(delivery);
  }

  /**
   * The pending rows among `ids` that no live lease holds, with their webhook and event. With
   * `leaseUntil`, takes them too (one UPDATE … RETURNING): a second run of the same work, or a
   * second worker, then leaves them alone until the lease runs out. Without it, only reads: the
   * relay's batch jobs, the one job that covers their rows while it lives, skip that write.
   */
  async pending(ids: string[], now: Date, leaseUntil: Date | null): Promise<ClaimedAttempt[]> {
    if (ids.length === 0) return [];
    const columns = `d.id, d.attempt, d.manual, d.webhook_id, w.url, w.enabled, w.secret_encrypted,
                     CASE WHEN w.previous_secret_expires_at > $2 THEN w.previous_secret_encrypted END AS previous_secret_encrypted,
                     e.id AS event_id, e.type AS event_type, e.tenant_id AS event_tenant_id,
                     e.project_id AS event_project_id, e.created_at AS event_created_at, e.payload`;
    const rows: ClaimRow[] = leaseUntil
      ? (
          await this.dataSource.query<[ClaimRow[], number]>(
            `UPDATE webhook_deliveries d
              SET claimed_until = $3
             FROM webhooks w, outbox_events e
            WHERE d.id = ANY($1::uuid[])
              AND d.status = 'pending'
              AND (d.claimed_until IS NULL OR d.claimed_until < $2)
              AND w.id = d.webhook_id
              AND e.id = d.event_id
            RETURNING ${columns}`,
            [ids, now, leaseUntil],
          )
        )[0]
      : await this.dataSource.query(
          `SELECT ${columns}
             FROM webhook_deliveries d
             JOIN webhooks w ON w.id = d.webhook_id
             JOIN outbox_events e ON e.id = d.event_id
            WHERE d.id = ANY($1::uuid[])
              AND d.status = 'pending'
              AND (d.claimed_until IS NULL OR d.claimed_until < $2)`,
          [ids, now],
        );
    return rows.map((r) => ({
      id: r.id,
      attempt: r.attempt,
      manual: r.manual,
      webhookId: r.webhook_id,
      webhookUrl: r.url,
      webhookEnabled: r.enabled,
      secretEncrypted: r.secret_encrypted,
      previousSecretEncrypted: r.previous_secret_encrypted,
      event: {
        id: r.event_id,
        type: r.event_type,
        tenantId: r.event_tenant_id,
        projectId: r.event_project_id,
        createdAt: new Date(r.event_created_at),
        payload: r.payload,
      },
    }));
  }

  /**
   * Records made attempts in one statement, each only if still pending (a duplicate run changes
   * nothing), and queues the next attempt of those with `nextAttemptAt`. Returns, per id, whether
   * it was recorded and the next attempt's row.
   */
  async finish(
    results: AttemptResult[],
    manager?: EntityManager,
  ): Promise<Map<string, RecordedAttempt>> {
    const out = new Map<string, RecordedAttempt>();
    if (results.length === 0) return out;
    const rows: { id: string; next_id: string | null; next_at: Date | null }[] = await (
      manager ?? this.dataSource.manager
    ).query(
      `WITH r AS (
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::int[], $5::text[], $6::timestamptz[], $7::jsonb[], $8::jsonb[], $9::text[])
                    AS r(id, status, response_status, duration_ms, error, next_at, request_headers, response_headers, response_body)
       ), done AS (
         UPDATE webhook_deliveries d
            SET status = r.status, response_status = r.response_status, duration_ms = r.duration_ms,
                error = r.error, claimed_until = NULL,
                request_headers = r.request_headers, response_headers = r.response_headers, response_body = r.response_body,
                -- A redelivery that already took the next number is the follow-up: point at it.
                next_attempt_at = CASE WHEN r.next_at IS NULL THEN NULL ELSE COALESCE(
                  (SELECT ${FOLLOW_UP_DUE}
                     FROM webhook_deliveries x
                    WHERE x.event_id = d.event_id AND x.webhook_id = d.webhook_id AND x.attempt = d.attempt + 1),
                  r.next_at) END
           FROM r
          WHERE d.id = r.id AND d.status = 'pending'
          RETURNING d.id, d.tenant_id, d.webhook_id, d.event_id, d.event_type, d.attempt, r.next_at
       ), next AS (
         INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, status, attempt, next_attempt_at, manual)
         SELECT tenant_id, webhook_id, event_id, event_type, 'pending', attempt + 1, next_at, false
           FROM done
          WHERE next_at IS NOT NULL
         ON CONFLICT (event_id, webhook_id, attempt) DO NOTHING
         RETURNING id, event_id, webhook_id, next_attempt_at
       )
       SELECT done.id, next.id AS next_id, next.next_attempt_at AS next_at
         FROM done LEFT JOIN next ON next.event_id = done.event_id AND next.webhook_id = done.webhook_id`,
      [
        results.map((r) => r.id),
        results.map((r) => r.status),
        results.map((r) => r.responseStatus),
        results.map((r) => r.durationMs),
        results.map((r) => r.error?.slice(0, 500) ?? null),
        results.map((r) => r.nextAttemptAt),
        results.map((r) => (r.requestHeaders ? JSON.stringify(r.requestHeaders) : null)),
        results.map((r) => (r.responseHeaders ? JSON.stringify(r.responseHeaders) : null)),
        results.map((r) => r.responseBody ?? null),
      ],
    );
    // A redelivery took the next number while this statement ran (its INSERT met it, the UPDATE
    // could not see it yet): that attempt is the follow-up, so the record points at it too.
    const wanted = new Set(results.filter((r) => r.nextAttemptAt).map((r) => r.id));
    const superseded = rows
      .filter((row) => !row.next_id && wanted.has(row.id))
      .map((row) => row.id);
    if (superseded.length > 0) {
      await (manager ?? this.dataSource.manager).query(
        `UPDATE webhook_deliveries d
            SET next_attempt_at = ${FOLLOW_UP_DUE}
           FROM webhook_deliveries x
          WHERE d.id = ANY($1::uuid[]) AND x.event_id = d.event_id AND x.webhook_id = d.webhook_id AND x.attempt = d.attempt + 1`,
        [superseded],
      );
    }
    for (const r of results) out.set(r.id, { recorded: false, next: null });
    for (const row of rows) {
      out.set(row.id, {
        recorded: true,
        next: row.next_id && row.next_at ? { id: row.next_id, dueAt: new Date(row.next_at) } : null,
      });
    }
    return out;
  }

  /**
   * Pending attempts the queue may have lost, oldest first: due and not held by a live lease; for
   * first attempts (handed out in relay batches, whose jobs cannot be looked up one row at a time)
   * only once due for `graceMs`, or when their lease ran out. Paged after `cursor`.
   */
  async lost(
    now: Date,
    graceMs: number,
    limit: number,
    cursor: { at: Date; id: string } | null,
  ): Promise<{ id: string; at: Date }[]> {
    const rows: { id: string; next_attempt_at: Date }[] = await this.dataSource.query(
      `SELECT id, next_attempt_at FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= $1
          AND (claimed_until IS NULL OR claimed_until < $1)
          AND (attempt > 1 OR claimed_until IS NOT NULL OR next_attempt_at <= $1::timestamptz - make_interval(secs => $2::float8 / 1000))
          AND ($4::timestamptz IS NULL OR (next_attempt_at, id) > ($4::timestamptz, $5::uuid))
        ORDER BY next_attempt_at, id
        LIMIT $3`,
      [now, graceMs, limit, cursor?.at ?? null, cursor?.id ?? null],
    );
    return rows.map((r) => ({ id: r.id, at: new Date(r.next_attempt_at) }));
  }
}
