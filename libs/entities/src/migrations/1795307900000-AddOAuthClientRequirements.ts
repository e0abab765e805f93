import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a client must send with its authorization requests (docs/oidc.md): `require_pkce` (true
 * unless a confidential client is registered to use the OpenID Connect nonce instead, RFC 9700
 * §2.1.1) and `require_pushed_authorization_requests` (RFC 9126 §6). New clients sign their ID
 * tokens RS256 unless they ask for ES256 (OpenID Connect Dynamic Client Registration §2); existing
 * clients keep the algorithm they were registered with.
 */
export class AddOAuthClientRequirements1795307900000 implements MigrationInterface {
  name = 'AddOAuthClientRequirements1795307900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE oauth_clients ADD COLUMN require_pkce boolean NOT NULL DEFAULT true`,
    );
    await q.query(
      `ALTER TABLE oauth_clients ADD COLUMN require_pushed_authorization_requests boolean NOT NULL DEFAULT false`,
    );
    await q.query(
      `ALTER TABLE oauth_clients ALTER COLUMN id_token_signed_response_alg SET DEFAULT 'RS256'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE oauth_clients ALTER COLUMN id_token_signed_response_alg SET DEFAULT 'ES256'`,
    );
    await q.query(`ALTER TABLE oauth_clients DROP COLUMN require_pushed_authorization_requests`);
    await q.query(`ALTER TABLE oauth_clients DROP COLUMN require_pkce`);
  }
}
