import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `sessions.auth_time`: when the session's user last proved a credential (sign-in, MFA, passkey,
 * re-authentication). Access tokens carry it as `auth_time`; refresh keeps it; sensitive actions
 * require it to be recent (docs/security.md, step-up). Sessions started before this migration
 * have none: they count as authenticated at their creation (`COALESCE(auth_time, created_at)`),
 * never as recently as the migration, and the column is added without rewriting the table.
 */
export class SessionAuthTime1795306700000 implements MigrationInterface {
  name = 'SessionAuthTime1795306700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sessions ADD COLUMN auth_time timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sessions DROP COLUMN auth_time`);
  }
}
