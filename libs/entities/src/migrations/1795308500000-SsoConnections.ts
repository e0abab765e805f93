import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Enterprise SSO connections of organizations (docs/api-contract.md §15): a SAML identity provider
 * (its entity id, SSO URL and signing certificates, read from its metadata; the service provider's
 * own certificate and sealed key) or an OpenID Connect one (issuer, client id, sealed secret), the
 * organization's verified domains it serves, and what a sign-in through it gives. A domain is in at
 * most one connection (the service checks it under the organization's lock; a domain is verified
 * for one organization of a project).
 */
export class SsoConnections1795308500000 implements MigrationInterface {
  name = 'SsoConnections1795308500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE sso_connections (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      type text NOT NULL CHECK (type IN ('saml', 'oidc')),
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
      domains text[] NOT NULL DEFAULT '{}',
      enabled boolean NOT NULL DEFAULT true,
      enforce boolean NOT NULL DEFAULT false,
      jit_enabled boolean NOT NULL DEFAULT true,
      jit_default_role text NOT NULL DEFAULT 'member' CHECK (jit_default_role ~ '^[a-z0-9_-]{1,40}$'),
      attribute_mapping jsonb NOT NULL DEFAULT '{}',
      group_roles jsonb NOT NULL DEFAULT '{}',
      saml jsonb,
      oidc jsonb,
      oidc_client_secret_encrypted text,
      sp_certificate text,
      sp_private_key_encrypted text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((type = 'saml') = (saml IS NOT NULL AND sp_certificate IS NOT NULL)),
      CHECK ((type = 'oidc') = (oidc IS NOT NULL))
    )`);
    await q.query(
      `CREATE INDEX sso_connections_organization_idx ON sso_connections (organization_id, created_at, id)`,
    );
    // Home-realm discovery: the connection of an email's domain in a project.
    await q.query(
      `CREATE INDEX sso_connections_domains_idx ON sso_connections USING gin (domains)`,
    );
    // "Does a connection give this role" (a role's deletion is refused while one does).
    await q.query(
      `CREATE INDEX sso_connections_project_role_idx ON sso_connections (project_id, jit_default_role)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sso_connections`);
  }
}
