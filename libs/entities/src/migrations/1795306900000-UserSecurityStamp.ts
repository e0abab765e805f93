import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `users.security_stamp`: a counter that every change ending an account's credentials bumps (a
 * claim of an unverified account, a password reset or change, disabling). A sign-in reads it with
 * the credential it checks, and its session is written only while the stamp is unchanged (in the
 * statement that writes the session, which waits for a claim in progress): a sign-in whose
 * credential ended meanwhile gets no session. Added with a constant default, so no table rewrite.
 */
export class UserSecurityStamp1795306900000 implements MigrationInterface {
  name = 'UserSecurityStamp1795306900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN security_stamp integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP COLUMN security_stamp`);
  }
}
