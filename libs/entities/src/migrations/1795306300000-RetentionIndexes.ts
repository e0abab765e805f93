import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Indexes for the worker's hourly retention sweep (delivered outbox events, expired sessions). */
export class RetentionIndexes1795306300000 implements MigrationInterface {
  name = 'RetentionIndexes1795306300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX IF NOT EXISTS outbox_events_dispatched_created_idx ON outbox_events (created_at) WHERE dispatched_at IS NOT NULL`,
    );
    await q.query(`CREATE INDEX IF NOT EXISTS sessions_expires_idx ON sessions (expires_at)`);
    await q.query(
      `CREATE INDEX IF NOT EXISTS sessions_revoked_idx ON sessions (revoked_at) WHERE revoked_at IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS sessions_revoked_idx`);
    await q.query(`DROP INDEX IF EXISTS sessions_expires_idx`);
    await q.query(`DROP INDEX IF EXISTS outbox_events_dispatched_created_idx`);
  }
}
