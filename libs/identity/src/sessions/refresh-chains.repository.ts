import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { queryPrepared, type PreparedStatement } from '@gatehouse/entities';
import { activeOrganizationJsonSql, type OrganizationClaim } from '@gatehouse/organizations';
import { claimSourcesSql, type ClaimSourcesRow } from '../token-claims';
import { authOriginOf } from '../cors/project-origins';
import type { ProjectKeyMatch } from '../projects-cache.service';
import { projectsNamedByKeySql } from '../projects/projects.repository';
import { originAllowedSql } from '../request-auth';
import { activeKidSql } from '../signing-keys.service';

/** The state of a chain whose presented token could not be rotated. */
export interface ChainStateRow {
  session_id: string;
  generation: number;
  token_hash: string;
  token_expires_at: Date;
  previous_token_hash: string | null;
  rotated_at: Date | null;
  successor_token_encrypted: string | null;
  user_id: string;
  project_id: string;
  tenant_id: string;
  session_expires_at: Date;
  session_revoked_at: Date | null;
  user_status: string;
  is_admin: boolean;
  /** The session's `auth_time` (its creation for sessions older than the column). */
  auth_time: Date;
  /** The admin acting as the user in an impersonated session (its tokens carry `act`); else null. */
  impersonator_id: string | null;
  /** The `org` claim of the session's active organization, read now; null: none (or no longer a member). */
  org: OrganizationClaim | null;
  /** What the project's `token_claims` read (null when it has none). */
  claim_sources: ClaimSourcesRow;
}

/** What a successful rotation returns: whose session it is, and the successor's expiry. */
export interface RotatedRow {
  session_id: string;
  user_id: string;
  project_id: string;
  tenant_id: string;
  is_admin: boolean;
  session_expires_at: Date;
  new_expires_at: Date;
  /** The project's `settings.access_token_ttl_seconds`, as stored (validated by the caller). */
  access_token_ttl: unknown;
  auth_time: Date;
  impersonator_id: string | null;
  /** The `org` claim of the session's active organization, read now; null: none (or no longer a member). */
  org: OrganizationClaim | null;
  /** What the project's `token_claims` read (null when it has none). */
  claim_sources: ClaimSourcesRow;
  /** The project's active signing key, which signs the new access token. */
  active_kid: string | null;
}

export type Rotation =
  | { kind: 'rotated'; row: RotatedRow }
  /** The key names no project (unknown, or a revoked API key). */
  | { kind: 'unknown-project' }
  /** The request's Origin is not one of the project's allowed origins (the CSRF rule). */
  | { kind: 'origin-refused' }
  /** The token was not rotated: its chain's state (null when the session is not one of this project's). */
  | {
      kind: 'not-rotated';
      state: ChainStateRow | null;
      accessTokenTtl: unknown;
      activeKid: string | null;
    };

/** The project a presented key names (the rule of `projectsNamedByKeySql`). */
const PROJECT_BY_KEY = (publishable: string, secretHash: string) =>
  projectsNamedByKeySql('p.id, p.allowed_origins, p.settings', publishable, secretHash);

/**
 * $1 session, $2 presented hash, $3 successor's generation, $4 successor hash, $5 sealed successor,
 * $6 idle expiry, $7 now, $8 publishable key, $9 API key secret hash, $10 the Origin to check (null
 * when none), $11 the auth runtime's own origin (allowed for an OIDC project's hosted pages). Claims the chain by updating it only while the presented token is its current one (a
 * concurrent refresh of the same token waits for this row, then finds another hash and matches
 * nothing), and only when the key names the session's project and the origin is allowed. No
 * indexed column of the chain changes, so its row is rewritten in its own page (a heap-only tuple),
 * and the session's row is only read: its last activity is the chain's `rotated_at` (see
 * SessionsRepository.listActive). The rotation alone commits asynchronously (see docs/decisions.md).
 */
const ROTATE_STATEMENT: PreparedStatement = {
  name: 'auth_refresh_rotate',
  text: `WITH proj AS (${PROJECT_BY_KEY('$8', '$9')}
       ), cur AS (
         UPDATE refresh_chains c SET generation = $3, previous_token_hash = c.token_hash, token_hash = $4, rotated_at = $7,
                successor_token_encrypted = $5, expires_at = LEAST($6::timestamptz, s.expires_at)
           FROM sessions s, users u, proj
          WHERE c.session_id = $1 AND c.token_hash = $2 AND c.generation = $3::int - 1 AND c.expires_at > $7
            AND s.id = c.session_id AND s.project_id = proj.id AND s.revoked_at IS NULL AND s.expires_at > $7
            AND u.id = s.user_id AND u.status = 'active'
            AND ${originAllowedSql('$10', 'proj.allowed_origins', { settings: 'proj.settings', authOrigin: '$11' })}
         RETURNING c.session_id, s.user_id, s.project_id, s.tenant_id, u.is_admin, s.expires_at AS session_expires_at,
                   c.expires_at AS new_expires_at, proj.settings -> 'access_token_ttl_seconds' AS access_token_ttl,
                   COALESCE(s.auth_time, s.created_at) AS auth_time, s.impersonator_id,
                   ${activeOrganizationJsonSql('s')} AS org,
                   ${claimSourcesSql('proj.settings', 's')} AS claim_sources,
                   ${activeKidSql('s.project_id')} AS active_kid
       )
       SELECT cur.*, set_config('synchronous_commit', 'off', true) AS commit_mode FROM cur`,
};

/**
 * $1 session (null for a token we did not issue), $2 publishable key, $3 API key secret hash, $4
 * Origin, $5 the auth runtime's own origin: after a failed rotation, whether the key names a project and the origin is allowed, and
 * the state of the session's chain.
 */
const STATE_STATEMENT: PreparedStatement = {
  name: 'auth_refresh_state',
  text: `WITH proj AS (${PROJECT_BY_KEY('$2', '$3')})
         SELECT ${originAllowedSql('$4', 'proj.allowed_origins', { settings: 'proj.settings', authOrigin: '$5' })} AS origin_allowed,
                proj.settings -> 'access_token_ttl_seconds' AS access_token_ttl,
                ${activeKidSql('proj.id')} AS active_kid, t.*
           FROM proj LEFT JOIN LATERAL (
                SELECT c.session_id, c.generation, c.token_hash, c.expires_at AS token_expires_at, c.previous_token_hash,
                       c.rotated_at, c.successor_token_encrypted,
                       s.user_id, s.project_id, s.tenant_id, s.expires_at AS session_expires_at, s.revoked_at AS session_revoked_at,
                       COALESCE(s.auth_time, s.created_at) AS auth_time, s.impersonator_id, u.status AS user_status, u.is_admin,
                       ${activeOrganizationJsonSql('s')} AS org,
                       ${claimSourcesSql('proj.settings', 's')} AS claim_sources
                  FROM refresh_chains c
                  JOIN sessions s ON s.id = c.session_id
                  JOIN users u ON u.id = s.user_id
                 WHERE c.session_id = $1::uuid AND s.project_id = proj.id) t ON true`,
};

/**
 * The only code that queries `refresh_chains` (but for a session's first token, written with the
 * session by SessionsRepository.create). A rotation is one prepared statement that also resolves
 * the project key and checks the origin, so the hot path costs one round trip to PostgreSQL and
 * none to Redis; only a token that cannot be rotated costs a second.
 */
@Injectable()
export class RefreshChainsRepository {
  private readonly authOrigin: string;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.authOrigin = authOriginOf(config.http.publicAuthUrl);
  }

  async rotate(p: {
    key: ProjectKeyMatch;
    origin: string | null;
    sessionId: string;
    presentedHash: string;
    successorGeneration: number;
    successorHash: string;
    successorSealed: string;
    idleExpiresAt: Date;
    now: Date;
  }): Promise<Rotation> {
    const rotated = await queryPrepared<RotatedRow>(this.dataSource, ROTATE_STATEMENT, [
      // Timestamps as ISO text: pg's own Date formatting costs more, and PostgreSQL reads either.
      p.sessionId,
      p.presentedHash,
      p.successorGeneration,
      p.successorHash,
      p.successorSealed,
      p.idleExpiresAt.toISOString(),
      p.now.toISOString(),
      p.key.publishableKey,
      p.key.secretHash,
      p.origin,
      this.authOrigin,
    ]);
    if (rotated[0]) return { kind: 'rotated', row: rotated[0] };
    return this.state(p);
  }

  /** Why a token was not rotated: the key, the origin, or the state of the session's chain. */
  async state(p: {
    key: ProjectKeyMatch;
    origin: string | null;
    sessionId: string | null;
  }): Promise<Exclude<Rotation, { kind: 'rotated' }>> {
    const [state] = await queryPrepared<
      Partial<ChainStateRow> & {
        origin_allowed: boolean;
        access_token_ttl: unknown;
        active_kid: string | null;
      }
    >(this.dataSource, STATE_STATEMENT, [
      p.sessionId,
      p.key.publishableKey,
      p.key.secretHash,
      p.origin,
      this.authOrigin,
    ]);
    if (!state) return { kind: 'unknown-project' };
    if (!state.origin_allowed) return { kind: 'origin-refused' };
    const {
      origin_allowed: _allowed,
      access_token_ttl: accessTokenTtl,
      active_kid: activeKid,
      ...chain
    } = state;
    return {
      kind: 'not-rotated',
      state: chain.session_id ? (chain as ChainStateRow) : null,
      accessTokenTtl,
      activeKid,
    };
  }
}
