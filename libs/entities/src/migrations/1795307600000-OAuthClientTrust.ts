import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the provider needs to know about a client beyond its redirect URIs (docs/oidc.md):
 * whether it registered itself (dynamic registration: its errors before sign-in are shown, never
 * redirected, and its post-logout redirect needs its ID token) and the `default_acr_values` it
 * registered with. Clients registered before this migration are found by their
 * `oauth_client.created` audit event.
 */
export class OAuthClientTrust1795307600000 implements MigrationInterface {
  name = 'OAuthClientTrust1795307600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE oauth_clients ADD COLUMN self_registered boolean NOT NULL DEFAULT false`,
    );
    await q.query(
      `ALTER TABLE oauth_clients ADD COLUMN default_acr_values jsonb NOT NULL DEFAULT '[]'`,
    );
    await q.query(
      `UPDATE oauth_clients c SET self_registered = true
        WHERE EXISTS (SELECT 1 FROM audit_events e
                       WHERE e.tenant_id = c.tenant_id AND e.action = 'oauth_client.created' AND e.resource_id = c.client_id
                         AND e.metadata->>'dynamic_registration' = 'true')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_clients DROP COLUMN default_acr_values`);
    await q.query(`ALTER TABLE oauth_clients DROP COLUMN self_registered`);
  }
}
