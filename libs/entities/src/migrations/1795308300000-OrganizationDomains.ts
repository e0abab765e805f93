import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Verified domains of organizations (docs/api-contract.md §14): a domain an organization claims,
 * proven by a DNS TXT record (or an admin), and what a user whose verified email is at it gets
 * (nothing, a suggestion, or a membership). A domain is verified for at most one organization of a
 * project (the partial unique index, which also serves the sign-in's auto-join lookup).
 */
export class OrganizationDomains1795308300000 implements MigrationInterface {
  name = 'OrganizationDomains1795308300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE organization_domains (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      domain text NOT NULL CHECK (domain = lower(domain) AND length(domain) BETWEEN 3 AND 253),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified')),
      verification_value text NOT NULL,
      enrollment text NOT NULL DEFAULT 'none' CHECK (enrollment IN ('none', 'suggest', 'auto_join')),
      default_role text NOT NULL DEFAULT 'member' CHECK (default_role ~ '^[a-z0-9_-]{1,40}$'),
      verified_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT organization_domains_org_domain_key UNIQUE (organization_id, domain)
    )`);
    await q.query(
      `CREATE UNIQUE INDEX organization_domains_verified_uq ON organization_domains (project_id, domain) WHERE status = 'verified'`,
    );
    // "Does a domain give this role" (a role's deletion is refused while one does).
    await q.query(
      `CREATE INDEX organization_domains_project_role_idx ON organization_domains (project_id, default_role)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE organization_domains`);
  }
}
