import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An organization's policies (docs/api-contract.md §14), e.g. `require_mfa`; `{}` takes every default. */
export class OrganizationSettings1795308200000 implements MigrationInterface {
  name = 'OrganizationSettings1795308200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organizations ADD COLUMN settings jsonb NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organizations DROP COLUMN settings`);
  }
}
