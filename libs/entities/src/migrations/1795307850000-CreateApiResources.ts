import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The APIs a project's OpenID Connect provider issues access tokens for (docs/oidc.md, "API
 * resources"): one row per (project, identifier), the identifier URL-normalised.
 */
export class CreateApiResources1795307850000 implements MigrationInterface {
  name = 'CreateApiResources1795307850000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE api_resources (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      identifier text NOT NULL,
      name text NOT NULL,
      scopes jsonb NOT NULL DEFAULT '[]',
      access_token_ttl_seconds integer CHECK (access_token_ttl_seconds BETWEEN 60 AND 86400),
      allow_dynamic_clients boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT api_resources_project_identifier_key UNIQUE (project_id, identifier)
    )`);
    await q.query(
      `CREATE INDEX api_resources_project_idx ON api_resources (project_id, created_at DESC, id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE api_resources`);
  }
}
