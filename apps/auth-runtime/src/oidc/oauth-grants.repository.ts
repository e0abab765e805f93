import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryPrepared, queryRows, type PreparedStatement } from '@gatehouse/entities';
import { EventRecorder, type RequestMeta, type UsersRepository } from '@gatehouse/identity';
import { organizationClaimSql, type OrganizationClaim } from '@gatehouse/organizations';
import { Clock } from '@gatehouse/platform';

/** A user as the provider's claims need them (UsersRepository's claims row: read with a grant, a session, or alone). */
export type OidcUserRow = NonNullable<Awaited<ReturnType<UsersRepository['activeClaimsUser']>>>;

/** A grant that may be used: its user, the Gatehouse session it is tied to, and the `org` claim of the organization it names (null: none, or no longer a member). */
export type ActiveGrantRow = OidcUserRow & { session_id: string; org: OrganizationClaim | null };

export interface NewGrant {
  tenantId: string;
  projectId: string;
  userId: string;
  grantId: string;
  clientId: string;
  sessionId: string;
  scopes: string[];
  /** Scopes granted for API resources (RFC 8707), by resource identifier; recorded in the event only. */
  resources?: Record<string, string[]>;
}

const USER_COLUMNS = `u.id, u.tenant_id, u.email, u.email_verified, u.username`;

/** Prepared once per connection: every code, token and grant lookup runs it. $1 grant id, $2 project, $3 now. */
const ACTIVE_GRANT: PreparedStatement = {
  name: 'oidc_active_grant',
  text: `SELECT ${USER_COLUMNS}, g.session_id,
                CASE WHEN g.organization_id IS NOT NULL THEN ${organizationClaimSql('g.user_id', 'g.organization_id')} END AS org
           FROM oauth_grants g
           JOIN users u ON u.id = g.user_id AND u.status = 'active'
           JOIN sessions s ON s.id = g.session_id AND s.user_id = g.user_id AND s.revoked_at IS NULL AND s.expires_at > $3
          WHERE g.grant_id = $1 AND g.project_id = $2 AND g.revoked_at IS NULL`,
};

/**
 * The only code that queries `oauth_grants`: what a user granted a client, tied to the Gatehouse
 * session that signed them in. A grant is honoured only while it is not revoked, its session is
 * live and its user active: one statement answers all three (and returns the user, so the request
 * reads no more; the one read of `sessions` and `users` outside their repositories, kept as one
 * statement because every code and token lookup runs it).
 */
@Injectable()
export class OAuthGrantsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  /** The grant's user (and the live session it is tied to) when the grant may still be used, else null. */
  async activeGrantUser(projectId: string, grantId: string): Promise<ActiveGrantRow | null> {
    const rows = await queryPrepared<ActiveGrantRow>(this.dataSource, ACTIVE_GRANT, [
      grantId,
      projectId,
      this.clock.now(),
    ]);
    return rows[0] ?? null;
  }

  /**
   * Names the organization an authorization request asked for (`organization=`), or none: kept only
   * when it is an organization of the project whose member the grant's user is; false when the
   * grant is not (yet) recorded.
   */
  async setOrganization(
    projectId: string,
    grantId: string,
    organizationId: string | null,
  ): Promise<boolean> {
    const rows = await queryRows<{ grant_id: string }>(
      this.dataSource.manager,
      `UPDATE oauth_grants g SET organization_id = (
              SELECT o.id FROM organizations o
                JOIN organization_members m ON m.organization_id = o.id AND m.user_id = g.user_id
               WHERE o.id = $3::uuid AND o.project_id = g.project_id)
        WHERE g.grant_id = $1 AND g.project_id = $2
       RETURNING g.grant_id`,
      [grantId, projectId, organizationId],
    );
    return rows.length > 0;
  }

  /** Records a grant (or its new scopes); `oauth_grant.created` the first time, in the same transaction. */
  async save(grant: NewGrant, meta: RequestMeta): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const rows = await queryRows<{ inserted: boolean }>(
        manager,
        `INSERT INTO oauth_grants (tenant_id, project_id, user_id, grant_id, client_id, session_id, scopes)
         SELECT $1, $2, $3, $4, $5, $6, $7::jsonb
          WHERE EXISTS (SELECT 1 FROM users WHERE id = $3 AND project_id = $2)
         ON CONFLICT (grant_id) DO UPDATE SET scopes = EXCLUDED.scopes
         RETURNING (xmax = 0) AS inserted`,
        [
          grant.tenantId,
          grant.projectId,
          grant.userId,
          grant.grantId,
          grant.clientId,
          grant.sessionId,
          JSON.stringify(grant.scopes),
        ],
      );
      if (!rows[0]?.inserted) return;
      await this.events.record(manager, {
        tenantId: grant.tenantId,
        projectId: grant.projectId,
        actorType: 'user',
        actorId: grant.userId,
        action: 'oauth_grant.created',
        resourceType: 'oauth_grant',
        resourceId: grant.grantId,
        meta,
        data: {
          grant_id: grant.grantId,
          client_id: grant.clientId,
          user_id: grant.userId,
          session_id: grant.sessionId,
          scopes: grant.scopes,
          ...(grant.resources && Object.keys(grant.resources).length
            ? { resources: grant.resources }
            : {}),
        },
      });
    });
  }

  /**
   * A refused token request (a wrong client secret, a bad or replayed code, a reused refresh token)
   * as a security event: `oauth_token.failed` with the client, grant type and OAuth error; never
   * the presented secret, code or token.
   */
  async recordTokenFailure(
    tenantId: string,
    projectId: string,
    failure: {
      clientId: string | null;
      grantType: string | null;
      error: string;
      description: string | null;
    },
    meta: RequestMeta,
  ): Promise<void> {
    await this.dataSource.transaction((manager) =>
      this.events.record(manager, {
        tenantId,
        projectId,
        actorType: 'system',
        actorId: null,
        action: 'oauth_token.failed',
        resourceType: 'oauth_client',
        resourceId: failure.clientId,
        meta,
        data: {
          client_id: failure.clientId,
          grant_type: failure.grantType,
          error: failure.error,
          error_description: failure.description,
        },
      }),
    );
  }

  /** Revokes a grant once (`oauth_grant.revoked` with the reason); later calls change nothing. */
  async revoke(
    projectId: string,
    grantId: string,
    reason: string,
    meta: RequestMeta,
  ): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const rows = await queryRows<{ tenant_id: string; user_id: string; client_id: string }>(
        manager,
        `UPDATE oauth_grants SET revoked_at = $3 WHERE grant_id = $1 AND project_id = $2 AND revoked_at IS NULL RETURNING tenant_id, user_id, client_id`,
        [grantId, projectId, this.clock.now()],
      );
      const row = rows[0];
      if (!row) return false;
      await this.events.record(manager, {
        tenantId: row.tenant_id,
        projectId,
        actorType: 'system',
        actorId: null,
        action: 'oauth_grant.revoked',
        resourceType: 'oauth_grant',
        resourceId: grantId,
        meta,
        data: { grant_id: grantId, client_id: row.client_id, user_id: row.user_id, reason },
      });
      return true;
    });
  }
}
