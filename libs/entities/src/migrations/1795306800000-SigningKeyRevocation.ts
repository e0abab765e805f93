import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A signing key can be revoked (`status = 'revoked'`, `revoked_at`): tokens it signed are refused
 * at once on every instance and `jwks.json` drops it. Only a key that is not the active one.
 */
export class SigningKeyRevocation1795306800000 implements MigrationInterface {
  name = 'SigningKeyRevocation1795306800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE signing_keys ADD COLUMN revoked_at timestamptz`);
    await q.query(`ALTER TABLE signing_keys DROP CONSTRAINT signing_keys_status_check`);
    await q.query(
      `ALTER TABLE signing_keys ADD CONSTRAINT signing_keys_status_check CHECK (status IN ('active', 'retiring', 'retired', 'revoked'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE signing_keys SET status = 'retired' WHERE status = 'revoked'`);
    await q.query(`ALTER TABLE signing_keys DROP CONSTRAINT signing_keys_status_check`);
    await q.query(
      `ALTER TABLE signing_keys ADD CONSTRAINT signing_keys_status_check CHECK (status IN ('active', 'retiring', 'retired'))`,
    );
    await q.query(`ALTER TABLE signing_keys DROP COLUMN revoked_at`);
  }
}
