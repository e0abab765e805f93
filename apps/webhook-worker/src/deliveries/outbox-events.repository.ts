import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** An outbox row as the relay needs it: who it is for, not what it says (the worker reads that per attempt). */
export interface UndispatchedEvent {
  id: string;
  tenantId: string;
  type: string;
  /** `data.webhook.id` of a `webhook.test` event: the one webhook it is for. */
  targetWebhookId: string | null;
}

/** The only code of the worker that queries `outbox_events`. */
@Injectable()
export class OutboxEventsRepository {
  /**
   * The oldest events not yet relayed, row-locked; rows another relay holds are skipped, so any
   * number of workers can relay side by side without handing an event out twice.
   */
  async lockUndispatched(manager: EntityManager, limit: number): Promise<UndispatchedEvent[]> {
    const rows: { id: string; tenant_id: string; type: string; target_webhook_id: string | null }[] = await manager.query(
      `SELECT id, tenant_id, type, payload -> 'webhook' ->> 'id' AS target_webhook_id
         FROM outbox_events
        WHERE dispatched_at IS NULL
        ORDER BY created_at
        LIMIT $1
        FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    return rows.map((r) => ({ id: r.id, tenantId: r.tenant_id, type: r.type, targetWebhookId: r.target_webhook_id }));
  }

  async markDispatched(manager: EntityManager, ids: string[], at: Date): Promise<void> {
    await manager.query(`UPDATE outbox_events SET dispatched_at = $2 WHERE id = ANY($1::uuid[])`, [ids, at]);
  }
}
