import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `claimed_until`: a worker that takes a pending attempt leases it until the attempt's timeout
 * (plus a margin) has passed, so a second worker, or a second job for the same row, never sends it
 * twice at the same time; a lease left by a crashed worker simply runs out (docs/webhooks.md).
 */
export class WebhookDeliveryLeases1795306100000 implements MigrationInterface {
  name = 'WebhookDeliveryLeases1795306100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN claimed_until timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS claimed_until`);
  }
}
