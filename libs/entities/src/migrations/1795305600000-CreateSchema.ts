import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The whole Gatehouse data model. Every table carries `tenant_id` so that every admin query can be
 * scoped explicitly; indexes follow the real queries (see docs/data-model.md).
 */
export class CreateSchema1795305600000 implements MigrationInterface {
  name = 'CreateSchema1795305600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);

    await q.query(`CREATE TABLE tenants (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);

    await q.query(`CREATE TABLE projects (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      name text NOT NULL,
      publishable_key text NOT NULL UNIQUE,
      is_console boolean NOT NULL DEFAULT false,
      allowed_origins jsonb NOT NULL DEFAULT '[]',
      redirect_urls jsonb NOT NULL DEFAULT '[]',
      settings jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(
      `CREATE INDEX projects_tenant_created_idx ON projects (tenant_id, created_at DESC, id)`,
    );
    await q.query(
      `CREATE UNIQUE INDEX projects_one_console_per_tenant ON projects (tenant_id) WHERE is_console`,
    );

    await q.query(`CREATE TABLE api_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      name text NOT NULL,
      key_prefix text NOT NULL,
      secret_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    )`);
    await q.query(
      `CREATE INDEX api_keys_project_created_idx ON api_keys (project_id, created_at DESC, id)`,
    );

    await q.query(`CREATE TABLE signing_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      kid text NOT NULL UNIQUE,
      algorithm text NOT NULL DEFAULT 'ES256',
      status text NOT NULL CHECK (status IN ('active', 'retiring', 'retired')),
      public_jwk jsonb NOT NULL,
      private_key_encrypted text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      retire_after timestamptz
    )`);
    await q.query(
      `CREATE INDEX signing_keys_project_idx ON signing_keys (project_id, created_at DESC)`,
    );
    await q.query(
      `CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (project_id) WHERE status = 'active'`,
    );

    await q.query(`CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      email text NOT NULL,
      email_verified boolean NOT NULL DEFAULT false,
      username text,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
      is_admin boolean NOT NULL DEFAULT false,
      metadata jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      last_sign_in_at timestamptz
    )`);
    await q.query(`CREATE UNIQUE INDEX users_project_email_uq ON users (project_id, lower(email))`);
    await q.query(
      `CREATE UNIQUE INDEX users_project_username_uq ON users (project_id, lower(username)) WHERE username IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX users_tenant_created_idx ON users (tenant_id, created_at DESC, id)`,
    );
    await q.query(
      `CREATE INDEX users_project_created_idx ON users (project_id, created_at DESC, id)`,
    );
    await q.query(
      `CREATE INDEX users_email_trgm_idx ON users USING gin (lower(email) gin_trgm_ops)`,
    );
    await q.query(
      `CREATE INDEX users_username_trgm_idx ON users USING gin (lower(username) gin_trgm_ops)`,
    );

    await q.query(`CREATE TABLE password_credentials (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      password_hash text NOT NULL,
      scheme text NOT NULL CHECK (scheme IN ('bcrypt', 'bcrypt-sha256')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);

    await q.query(`CREATE TABLE sessions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      auth_method text NOT NULL DEFAULT 'password',
      ip_address text,
      user_agent text,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_active_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      revoke_reason text
    )`);
    await q.query(
      `CREATE INDEX sessions_user_active_idx ON sessions (user_id, created_at DESC) WHERE revoked_at IS NULL`,
    );

    await q.query(`CREATE TABLE refresh_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      session_id uuid NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      rotated_at timestamptz,
      successor_id uuid REFERENCES refresh_tokens(id) ON DELETE SET NULL,
      successor_token_encrypted text
    )`);
    await q.query(`CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id)`);

    await q.query(`CREATE TABLE one_time_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      user_id uuid REFERENCES users(id) ON DELETE CASCADE,
      purpose text NOT NULL,
      token_hash text NOT NULL UNIQUE,
      payload jsonb NOT NULL DEFAULT '{}',
      attempts integer NOT NULL DEFAULT 0,
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX one_time_tokens_user_idx ON one_time_tokens (user_id, purpose)`);
    await q.query(`CREATE INDEX one_time_tokens_expiry_idx ON one_time_tokens (expires_at)`);

    await q.query(`CREATE TABLE mfa_factors (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      type text NOT NULL CHECK (type IN ('totp', 'sms')),
      status text NOT NULL CHECK (status IN ('pending', 'enabled')),
      secret_encrypted text,
      phone_number text,
      last_used_step bigint,
      created_at timestamptz NOT NULL DEFAULT now(),
      enabled_at timestamptz,
      UNIQUE (user_id, type)
    )`);

    await q.query(`CREATE TABLE mfa_backup_codes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, code_hash)
    )`);

    await q.query(`CREATE TABLE passkeys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      credential_id text NOT NULL UNIQUE,
      public_key bytea NOT NULL,
      counter bigint NOT NULL DEFAULT 0,
      transports jsonb NOT NULL DEFAULT '[]',
      device_type text NOT NULL,
      backed_up boolean NOT NULL DEFAULT false,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz
    )`);
    await q.query(`CREATE INDEX passkeys_user_idx ON passkeys (user_id, created_at DESC)`);

    await q.query(`CREATE TABLE oauth_identities (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      provider text NOT NULL,
      subject text NOT NULL,
      email text,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      UNIQUE (project_id, provider, subject)
    )`);
    await q.query(`CREATE INDEX oauth_identities_user_idx ON oauth_identities (user_id)`);

    await q.query(`CREATE TABLE oauth_transactions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      provider text NOT NULL,
      state_hash text NOT NULL UNIQUE,
      browser_binding_hash text NOT NULL,
      code_verifier_encrypted text NOT NULL,
      nonce text,
      redirect_url text NOT NULL,
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);

    await q.query(`CREATE TABLE organizations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      name text NOT NULL,
      slug text NOT NULL,
      metadata jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (project_id, slug)
    )`);
    await q.query(
      `CREATE INDEX organizations_tenant_created_idx ON organizations (tenant_id, created_at DESC, id)`,
    );

    await q.query(`CREATE TABLE organization_members (
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('admin', 'member')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, user_id)
    )`);
    await q.query(`CREATE INDEX organization_members_user_idx ON organization_members (user_id)`);

    await q.query(`CREATE TABLE invitations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('admin', 'member')),
      token_hash text NOT NULL UNIQUE,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'revoked')),
      invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
      expires_at timestamptz NOT NULL,
      accepted_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(
      `CREATE INDEX invitations_org_created_idx ON invitations (organization_id, created_at DESC, id)`,
    );

    await q.query(`CREATE TABLE webhooks (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      url text NOT NULL,
      events jsonb NOT NULL DEFAULT '[]',
      description text,
      enabled boolean NOT NULL DEFAULT true,
      disabled_reason text,
      secret_encrypted text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(
      `CREATE INDEX webhooks_tenant_created_idx ON webhooks (tenant_id, created_at DESC, id)`,
    );

    await q.query(`CREATE TABLE outbox_events (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid,
      type text NOT NULL,
      payload jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      dispatched_at timestamptz
    )`);
    await q.query(
      `CREATE INDEX outbox_events_pending_idx ON outbox_events (created_at) WHERE dispatched_at IS NULL`,
    );

    await q.query(`CREATE TABLE webhook_deliveries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      webhook_id uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
      event_id uuid NOT NULL REFERENCES outbox_events(id) ON DELETE CASCADE,
      event_type text NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
      attempt integer NOT NULL,
      response_status integer,
      duration_ms integer,
      error text,
      next_attempt_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(
      `CREATE INDEX webhook_deliveries_webhook_created_idx ON webhook_deliveries (webhook_id, created_at DESC, id)`,
    );
    await q.query(
      `CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id, webhook_id)`,
    );

    await q.query(`CREATE TABLE audit_events (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid,
      actor_type text NOT NULL,
      actor_id text,
      action text NOT NULL,
      resource_type text NOT NULL,
      resource_id text,
      ip_address text,
      user_agent text,
      metadata jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(
      `CREATE INDEX audit_events_tenant_created_idx ON audit_events (tenant_id, created_at DESC, id)`,
    );
    await q.query(
      `CREATE INDEX audit_events_tenant_action_created_idx ON audit_events (tenant_id, action, created_at DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'audit_events',
      'webhook_deliveries',
      'outbox_events',
      'webhooks',
      'invitations',
      'organization_members',
      'organizations',
      'oauth_transactions',
      'oauth_identities',
      'passkeys',
      'mfa_backup_codes',
      'mfa_factors',
      'one_time_tokens',
      'refresh_tokens',
      'sessions',
      'password_credentials',
      'users',
      'signing_keys',
      'api_keys',
      'projects',
      'tenants',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table} CASCADE`);
    }
  }
}
