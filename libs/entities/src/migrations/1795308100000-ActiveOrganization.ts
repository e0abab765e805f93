import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A session's active organization (docs/api-contract.md §14): its access tokens carry the `org`
 * claim of the user's membership there, read again at each refresh. Deleting the organization
 * clears it (the partial index serves that lookup; most sessions have none).
 */
export class ActiveOrganization1795308100000 implements MigrationInterface {
  name = 'ActiveOrganization1795308100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE sessions ADD COLUMN active_organization_id uuid REFERENCES organizations(id) ON DELETE SET NULL`,
    );
    await q.query(
      `CREATE INDEX sessions_active_organization_idx ON sessions (active_organization_id) WHERE active_organization_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sessions DROP COLUMN active_organization_id`);
  }
}
