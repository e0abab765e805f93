import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organization an authorization request named (`organization=<id>`, docs/api-contract.md
 * §14): the grant's access tokens carry it as `org` while the user is its member.
 */
export class OAuthGrantOrganization1795308400000 implements MigrationInterface {
  name = 'OAuthGrantOrganization1795308400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE oauth_grants ADD COLUMN organization_id uuid REFERENCES organizations(id) ON DELETE SET NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_grants DROP COLUMN organization_id`);
  }
}
