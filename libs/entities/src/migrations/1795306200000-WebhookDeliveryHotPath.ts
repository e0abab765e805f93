import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The delivery hot path writes each `webhook_deliveries` row three times (insert, lease, result):
 * - room in each page (fillfactor 80) so that taking the lease, which changes no indexed column,
 *   is a HOT update that touches no index;
 * - `webhook_deliveries_event_idx (event_id, webhook_id)` is a prefix of the unique
 *   `(event_id, webhook_id, attempt)` index: one index less to maintain on every insert.
 */
export class WebhookDeliveryHotPath1795306200000 implements MigrationInterface {
  name = 'WebhookDeliveryHotPath1795306200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries SET (fillfactor = 80)`);
    await q.query(`DROP INDEX IF EXISTS webhook_deliveries_event_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX IF NOT EXISTS webhook_deliveries_event_idx ON webhook_deliveries (event_id, webhook_id)`,
    );
    await q.query(`ALTER TABLE webhook_deliveries RESET (fillfactor)`);
  }
}
