import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook deliveries with PostgreSQL as the source of truth (docs/webhooks.md):
 * - `manual`: the attempt was asked for by an admin (test event, redeliver) and is made even while
 *   the webhook is disabled; automatic attempts of a disabled webhook are cancelled.
 * - one row per (event, webhook, attempt), so concurrent schedulers can never create an attempt twice;
 * - the worker's sweeper finds due pending attempts through a partial index.
 */
export class WebhookDeliveryScheduling1795306000000 implements MigrationInterface {
  name = 'WebhookDeliveryScheduling1795306000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE webhook_deliveries ADD COLUMN manual boolean NOT NULL DEFAULT false`,
    );
    await q.query(
      `CREATE UNIQUE INDEX webhook_deliveries_attempt_uq ON webhook_deliveries (event_id, webhook_id, attempt)`,
    );
    await q.query(
      `CREATE INDEX webhook_deliveries_pending_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS webhook_deliveries_pending_due_idx`);
    await q.query(`DROP INDEX IF EXISTS webhook_deliveries_attempt_uq`);
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS manual`);
  }
}
