import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * User import (docs/api-contract.md §12): a password credential may hold a hash in the scheme it was imported
 * in until the next sign-in replaces it; a user may carry the id it had in the system it came
 * from (`external_id`, unique per project), which makes a repeated import idempotent.
 */
export class UserImport1795307300000 implements MigrationInterface {
  name = 'UserImport1795307300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE password_credentials DROP CONSTRAINT password_credentials_scheme_check`,
    );
    await q.query(
      `ALTER TABLE password_credentials ADD CONSTRAINT password_credentials_scheme_check CHECK (scheme IN ('bcrypt-sha256', 'bcrypt', 'argon2', 'scrypt', 'pbkdf2', 'firebase-scrypt', 'sha256', 'sha512', 'md5'))`,
    );
    await q.query(`ALTER TABLE users ADD COLUMN external_id text`);
    await q.query(
      `CREATE UNIQUE INDEX users_project_external_id ON users (project_id, external_id) WHERE external_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    // Hashes in a scheme the older code cannot verify are dropped (their users reset their password).
    await q.query(
      `DELETE FROM password_credentials WHERE scheme NOT IN ('bcrypt-sha256', 'bcrypt')`,
    );
    await q.query(
      `ALTER TABLE password_credentials DROP CONSTRAINT password_credentials_scheme_check`,
    );
    await q.query(
      `ALTER TABLE password_credentials ADD CONSTRAINT password_credentials_scheme_check CHECK (scheme IN ('bcrypt', 'bcrypt-sha256'))`,
    );
    await q.query(`DROP INDEX users_project_external_id`);
    await q.query(`ALTER TABLE users DROP COLUMN external_id`);
  }
}
