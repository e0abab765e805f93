import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** The only code of the worker that queries `webhooks`. */
@Injectable()
export class WebhooksRepository {
  /** A 410 answer: the webhook is disabled with reason `gone`. Returns the webhook when this call disabled it. */
  async disableGone(
    manager: EntityManager,
    id: string,
    at: Date,
  ): Promise<{ id: string; tenantId: string; url: string; events: string[]; description: string | null } | null> {
    const rows: [{ id: string; tenant_id: string; url: string; events: string[]; description: string | null }[], number] = await manager.query(
      `UPDATE webhooks SET enabled = false, disabled_reason = 'gone', updated_at = $2
        WHERE id = $1 AND enabled
        RETURNING id, tenant_id, url, events, description`,
      [id, at],
    );
    const row = rows[0]?.[0];
    return row ? { id: row.id, tenantId: row.tenant_id, url: row.url, events: row.events, description: row.description } : null;
  }
}
