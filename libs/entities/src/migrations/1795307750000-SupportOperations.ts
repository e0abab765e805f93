import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * docs/api-contract.md §13, support operations:
 * - `sessions.impersonator_id`: the admin who opened the session by an impersonation link (its
 *   access tokens carry `act`); null for the user's own sessions. An admin deleted later leaves
 *   the id (the audit keeps who it was), so no foreign key.
 * - `webhooks.previous_secret_encrypted` / `previous_secret_expires_at`: after a rotation the old
 *   secret signs beside the new one until it expires (24 hours).
 * - `webhook_deliveries.request_headers` / `response_headers` / `response_body`: what an attempt
 *   sent (the body is the outbox event's) and received (the body's first 4 KiB), for the delivery
 *   detail. Rows made before have none (null).
 * Every column is nullable without a default: added without rewriting the tables.
 */
export class SupportOperations1795307750000 implements MigrationInterface {
  name = 'SupportOperations1795307750000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sessions ADD COLUMN impersonator_id uuid`);
    await q.query(
      `ALTER TABLE webhooks ADD COLUMN previous_secret_encrypted text, ADD COLUMN previous_secret_expires_at timestamptz`,
    );
    await q.query(
      `ALTER TABLE webhook_deliveries ADD COLUMN request_headers jsonb, ADD COLUMN response_headers jsonb, ADD COLUMN response_body text`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE webhook_deliveries DROP COLUMN request_headers, DROP COLUMN response_headers, DROP COLUMN response_body`,
    );
    await q.query(
      `ALTER TABLE webhooks DROP COLUMN previous_secret_encrypted, DROP COLUMN previous_secret_expires_at`,
    );
    await q.query(`ALTER TABLE sessions DROP COLUMN impersonator_id`);
  }
}
