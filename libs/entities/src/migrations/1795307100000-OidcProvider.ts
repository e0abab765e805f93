import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The OpenID Connect provider (docs/api-contract.md §11): a project's clients and the grants its users gave
 * them. A grant names the Gatehouse session that signed the user in, so ending that session (or
 * deleting the user) ends the grant's tokens.
 */
export class OidcProvider1795307100000 implements MigrationInterface {
  name = 'OidcProvider1795307100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE oauth_clients (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      client_id text NOT NULL UNIQUE,
      name text NOT NULL,
      secret_hash text,
      redirect_uris jsonb NOT NULL DEFAULT '[]',
      post_logout_redirect_uris jsonb NOT NULL DEFAULT '[]',
      grant_types jsonb NOT NULL,
      token_endpoint_auth_method text NOT NULL CHECK (token_endpoint_auth_method IN ('client_secret_basic', 'client_secret_post', 'none')),
      scopes jsonb NOT NULL,
      first_party boolean NOT NULL DEFAULT false,
      id_token_signed_response_alg text NOT NULL DEFAULT 'ES256' CHECK (id_token_signed_response_alg IN ('ES256', 'RS256')),
      registration_token_hash text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(
      `CREATE INDEX oauth_clients_project_idx ON oauth_clients (project_id, created_at DESC, id)`,
    );

    await q.query(`CREATE TABLE oauth_grants (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      grant_id text NOT NULL UNIQUE,
      client_id text NOT NULL REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
      session_id uuid REFERENCES sessions(id) ON DELETE SET NULL,
      scopes jsonb NOT NULL DEFAULT '[]',
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    )`);
    await q.query(`CREATE INDEX oauth_grants_user_idx ON oauth_grants (user_id)`);
    await q.query(`CREATE INDEX oauth_grants_session_idx ON oauth_grants (session_id)`);
    await q.query(`CREATE INDEX oauth_grants_client_idx ON oauth_grants (client_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE oauth_grants`);
    await q.query(`DROP TABLE oauth_clients`);
  }
}
