import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lazy password migration (docs/migration.md): a user imported without a password hash is marked,
 * and their first password sign-in asks the project's old system (`settings.password_migration`).
 */
export class PasswordMigration1795307400000 implements MigrationInterface {
  name = 'PasswordMigration1795307400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN needs_migration boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP COLUMN needs_migration`);
  }
}
