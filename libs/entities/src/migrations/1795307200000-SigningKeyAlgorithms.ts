import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signing keys gain an RS256 kind (OpenID Connect clients that ask for RS256 ID tokens): one
 * active key per project and algorithm, and only the algorithms we make. Our own access tokens
 * stay ES256. Going down drops the RS256 keys: a schema with one active key per project cannot
 * hold them, and code before this migration would publish them as ES256 keys.
 */
export class SigningKeyAlgorithms1795307200000 implements MigrationInterface {
  name = 'SigningKeyAlgorithms1795307200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE signing_keys ADD CONSTRAINT signing_keys_algorithm_check CHECK (algorithm IN ('ES256', 'RS256'))`,
    );
    await q.query(
      `CREATE UNIQUE INDEX signing_keys_one_active_per_algorithm ON signing_keys (project_id, algorithm) WHERE status = 'active'`,
    );
    await q.query(`DROP INDEX signing_keys_one_active`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM signing_keys WHERE algorithm <> 'ES256'`);
    await q.query(
      `CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (project_id) WHERE status = 'active'`,
    );
    await q.query(`DROP INDEX signing_keys_one_active_per_algorithm`);
    await q.query(`ALTER TABLE signing_keys DROP CONSTRAINT signing_keys_algorithm_check`);
  }
}
