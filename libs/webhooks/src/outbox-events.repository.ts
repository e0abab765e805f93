import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryRows } from '@gatehouse/entities';
import { WEBHOOK_ALL_EVENTS, WEBHOOK_TEST_EVENT } from './webhook-events';

/**
 * The only code that reads, marks and purges `outbox_events`, used by the worker (the relay and
 * retention's purge): rows are written by EventRecorder (@gatehouse/identity) in the transaction of
 * the change; everything else here.
 */
@Injectable()
export class OutboxEventsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The relay's step, in one statement (one round trip, atomic): takes up to `limit` of the oldest
   * undispatched events (SKIP LOCKED, so relays on several workers never take the same event), writes
   * one pending first attempt per webhook that receives it, and marks the events dispatched.
   * A webhook receives an event of its tenant when it is enabled and lists the event's type or
   * `"*"`; `webhook.test` goes only to the webhook named in its data, enabled or not (admin action).
   * Returns how many events were taken and the ids of the attempts created.
   */
  async relay(limit: number, at: Date): Promise<{ events: number; created: string[] }> {
    const [row] = await this.dataSource.query<{ events: number; created: string[] | null }[]>(
      `WITH ev AS (
         SELECT id, tenant_id, type, payload -> 'webhook' ->> 'id' AS target
           FROM outbox_events
          WHERE dispatched_at IS NULL
          ORDER BY created_at
          LIMIT $1
          FOR UPDATE SKIP LOCKED
       ), hit AS (
         SELECT ev.tenant_id, w.id AS webhook_id, ev.id AS event_id, ev.type AS event_type, ev.type = $3 AS manual
           FROM ev JOIN webhooks w ON w.tenant_id = ev.tenant_id
          WHERE CASE WHEN ev.type = $3 THEN w.id::text = ev.target
                     ELSE w.enabled AND (w.events ? $4 OR w.events ? ev.type) END
       ), ins AS (
         INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, status, attempt, next_attempt_at, manual)
         SELECT tenant_id, webhook_id, event_id, event_type, 'pending', 1, $2, manual FROM hit
         ON CONFLICT (event_id, webhook_id, attempt) DO NOTHING
         RETURNING id
       ), upd AS (
         UPDATE outbox_events o SET dispatched_at = $2 FROM ev WHERE o.id = ev.id RETURNING o.id
       )
       SELECT (SELECT count(*) FROM upd)::int AS events, (SELECT array_agg(id) FROM ins) AS created`,
      [limit, at, WEBHOOK_TEST_EVENT, WEBHOOK_ALL_EVENTS],
    );
    return { events: row?.events ?? 0, created: row?.created ?? [] };
  }

  /**
   * Deletes up to `limit` events dispatched before `before` that no pending attempt still needs;
   * their delivery records go with them (ON DELETE CASCADE). Returns how many were deleted.
   */
  async purgeDelivered(before: Date, limit: number): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `DELETE FROM outbox_events WHERE id IN (
         SELECT e.id FROM outbox_events e
          WHERE e.created_at < $1 AND e.dispatched_at IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
          LIMIT $2)
       RETURNING id`,
      [before, limit],
    );
    return rows.length;
  }
}
