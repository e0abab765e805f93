import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { queryPrepared, queryRows, Session, type PreparedStatement } from '@gatehouse/entities';
import { activeOrganizationJsonSql, type OrganizationClaim } from '@gatehouse/organizations';
import { claimSourcesSql, type ClaimSourcesRow } from '../token-claims';

/** SQL of the settings of session `s`'s project. */
const PROJECT_SETTINGS = (s: string) =>
  `(SELECT ps.settings FROM projects ps WHERE ps.id = ${s}.project_id)`;
import { activeKidSql } from '../signing-keys.service';
import type { UserClaimsRow } from '../users/users.repository';

export type NewSession = Pick<
  Session,
  | 'id'
  | 'tenantId'
  | 'projectId'
  | 'userId'
  | 'authMethod'
  | 'ipAddress'
  | 'userAgent'
  | 'expiresAt'
> & {
  now: Date;
  securityStamp: number;
  refreshTokenHash: string;
  refreshExpiresAt: Date;
  /** The admin opening the session by an impersonation link. */
  impersonatorId?: string | null;
};

/** A live session as its owner (`/v1/auth/sessions`) and an admin (the user detail) see it. */
export interface SessionRow {
  id: string;
  auth_method: string;
  created_at: Date;
  last_active_at: Date;
  expires_at: Date;
  ip_address: string | null;
  user_agent: string | null;
  /** The admin acting as the user in an impersonated session (docs/api-contract.md §13); else null. */
  impersonator_id: string | null;
}

/**
 * SQL for statements of other tables that read `sessions` in the same round trip (`/me`): how
 * many live sessions the user `userRef` has at `now`, and whether the session `sessionRef` is
 * the user's and not revoked.
 */
export const liveSessionCountSql = (userRef: string, now: string) =>
  `(SELECT count(*)::int FROM sessions s WHERE s.user_id = ${userRef} AND s.revoked_at IS NULL AND s.expires_at > ${now})`;
export const unrevokedSessionOfUserSql = (sessionRef: string, userRef: string) =>
  `EXISTS (SELECT 1 FROM sessions s WHERE s.id = ${sessionRef} AND s.user_id = ${userRef} AND s.revoked_at IS NULL)`;

/**
 * $1–$6 tenant, project, user, method, ip, user agent; $7 now (also the session's `auth_time`); $8
 * expiry; $9 refresh token hash; $10 its expiry; $11 the session's id (chosen by the caller: the
 * refresh token names it); $12 the user's security stamp as the sign-in read it with the credential
 * it checked; $13 the impersonating admin (null for the user's own sign-in). The session is written only while the stamp is unchanged: the user's row is locked
 * first, so a claim, reset or disabling in progress is waited for, and a sign-in whose credential
 * it ended meanwhile writes nothing. Also answers the project's active signing key, which signs
 * the first access token (read here so that a rotation applies at once, at no extra round trip).
 */
const CREATE_STATEMENT: PreparedStatement = {
  name: 'auth_session_create',
  text: `WITH u AS (
           SELECT id FROM users WHERE id = $3 AND security_stamp = $12 FOR NO KEY UPDATE
         ), s AS (
           INSERT INTO sessions (id, tenant_id, project_id, user_id, auth_method, ip_address, user_agent, last_active_at, auth_time, expires_at, impersonator_id)
           SELECT $11, $1, $2, u.id, $4, $5, $6, $7, $7, $8, $13::uuid FROM u
           RETURNING id, expires_at
         ), c AS (
           INSERT INTO refresh_chains (session_id, generation, token_hash, expires_at) SELECT id, 0, $9, $10 FROM s
         )
         SELECT id, expires_at, ${activeKidSql('$2')} AS active_kid FROM s`,
};

/**
 * The OpenID Connect provider's check of the Gatehouse session behind its own session, run on
 * every request that reads the provider session: $1 session, $2 user, $3 project, $4 now. Answers
 * the user's claims columns (the users row `u`, as USER_CLAIMS_COLUMNS), so the request reads no more.
 */
const LIVE_SESSION_USER: PreparedStatement = {
  name: 'oidc_live_session',
  text: `SELECT u.id, u.tenant_id, u.email, u.email_verified, u.username FROM sessions s
           JOIN users u ON u.id = s.user_id AND u.status = 'active'
          WHERE s.id = $1 AND s.user_id = $2 AND s.project_id = $3 AND s.revoked_at IS NULL AND s.expires_at > $4`,
};

/**
 * The only code that queries `sessions` (both HTTP apps, the worker's housekeeping and the
 * revocation list of AccessTokensService; `/me` reads it through the SQL above). It also starts a
 * session's refresh chain with its first token (rotations belong to RefreshChainsRepository).
 */
@Injectable()
export class SessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Inserts a session and its refresh chain in one statement (they are written together, always);
   * null when the user's security stamp is no longer `s.securityStamp` (nothing is written).
   */
  async create(
    manager: EntityManager,
    s: NewSession,
  ): Promise<{ id: string; expiresAt: Date; activeKid: string | null } | null> {
    const rows = await queryPrepared<{ id: string; expires_at: Date; active_kid: string | null }>(
      manager,
      CREATE_STATEMENT,
      [
        s.tenantId,
        s.projectId,
        s.userId,
        s.authMethod,
        s.ipAddress,
        s.userAgent,
        s.now,
        s.expiresAt,
        s.refreshTokenHash,
        s.refreshExpiresAt,
        s.id,
        s.securityStamp,
        s.impersonatorId ?? null,
      ],
    );
    return rows[0]
      ? { id: rows[0].id, expiresAt: new Date(rows[0].expires_at), activeKid: rows[0].active_kid }
      : null;
  }

  /**
   * Whether the session is the user's and live. Called after the user's row is locked
   * (UsersRepository.lockForCredentialChange), in a statement of its own, so that it sees what a
   * claim that held the lock committed.
   */
  async isLive(
    manager: EntityManager,
    userId: string,
    sessionId: string,
    now: Date,
  ): Promise<boolean> {
    const rows = await queryRows<{ live: boolean }>(
      manager,
      `SELECT true AS live FROM sessions WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > $3`,
      [sessionId, userId, now],
    );
    return rows.length > 0;
  }

  /**
   * The user (their claims columns) when `sessionId` is a live session of this active user of the
   * project, else null: whether the OpenID Connect provider's session may still be used.
   */
  async liveSessionUser(
    projectId: string,
    sessionId: string,
    userId: string,
    now: Date,
  ): Promise<UserClaimsRow | null> {
    const rows = await queryPrepared<UserClaimsRow>(this.dataSource, LIVE_SESSION_USER, [
      sessionId,
      userId,
      projectId,
      now,
    ]);
    return rows[0] ?? null;
  }

  /** How and when the session was last proved (its `auth_method` and `auth_time`); a session not found reads as a password one of unknown time. */
  async proof(sessionId: string): Promise<{ authMethod: string; authTimeMs: number | null }> {
    const rows = await queryRows<{ auth_method: string; auth_time: Date | null }>(
      this.dataSource.manager,
      `SELECT auth_method, auth_time FROM sessions WHERE id = $1`,
      [sessionId],
    );
    return {
      authMethod: rows[0]?.auth_method ?? 'password',
      authTimeMs: rows[0]?.auth_time ? new Date(rows[0].auth_time).getTime() : null,
    };
  }

  /**
   * Records a fresh proof of identity in a live session of the user (re-authentication); returns
   * the project's active signing key, or null when the session is not live. A step-up (`proof`
   * `mfa` on a password session, `passkey` on any session below the second level) raises the
   * session's `auth_method` to what it has now proved, as the sign-in would have recorded it.
   */
  /**
   * Makes `organizationId` (or none) the live session's active organization; what its next access
   * token needs, or null when the session is not live. The caller has checked the membership.
   */
  async setActiveOrganization(
    manager: EntityManager,
    sessionId: string,
    userId: string,
    organizationId: string | null,
    now: Date,
  ): Promise<{
    auth_time: Date;
    impersonator_id: string | null;
    active_kid: string | null;
    claim_sources: ClaimSourcesRow;
  } | null> {
    const rows = await queryRows<{
      auth_time: Date;
      impersonator_id: string | null;
      active_kid: string | null;
      claim_sources: ClaimSourcesRow;
    }>(
      manager,
      `UPDATE sessions s SET active_organization_id = $3
        WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > $4
       RETURNING COALESCE(s.auth_time, s.created_at) AS auth_time, s.impersonator_id,
                 ${activeKidSql('s.project_id')} AS active_kid,
                 ${claimSourcesSql(PROJECT_SETTINGS('s'), 's')} AS claim_sources`,
      [sessionId, userId, organizationId, now],
    );
    return rows[0] ?? null;
  }

  async renewAuthTime(
    manager: EntityManager,
    sessionId: string,
    userId: string,
    at: Date,
    proof?: string,
  ): Promise<{
    active_kid: string | null;
    org: OrganizationClaim | null;
    claim_sources: ClaimSourcesRow;
  } | null> {
    const rows = await queryRows<{
      active_kid: string | null;
      org: OrganizationClaim | null;
      claim_sources: ClaimSourcesRow;
    }>(
      manager,
      `UPDATE sessions s SET auth_time = $3,
              auth_method = CASE WHEN $4 = 'mfa' AND s.auth_method = 'password' THEN 'mfa'
                                 WHEN $4 = 'passkey' AND s.auth_method NOT IN ('mfa', 'passkey') THEN 'passkey'
                                 ELSE s.auth_method END
        WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > $3
       RETURNING ${activeKidSql('s.project_id')} AS active_kid, ${activeOrganizationJsonSql('s')} AS org,
                 ${claimSourcesSql(PROJECT_SETTINGS('s'), 's')} AS claim_sources`,
      [sessionId, userId, at, proof ?? null],
    );
    return rows[0] ?? null;
  }

  /** Revokes every live session of a user but one (a password change keeps the session that made it); returns their ids. */
  async revokeAllOfUserExcept(
    manager: EntityManager,
    userId: string,
    keepSessionId: string,
    reason: string,
    now: Date,
  ): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      manager,
      `UPDATE sessions SET revoked_at = $4, revoke_reason = $3 WHERE user_id = $1 AND id <> $2 AND revoked_at IS NULL RETURNING id`,
      [userId, keepSessionId, reason, now],
    );
    return rows.map((r) => r.id);
  }

  /**
   * The user's live sessions, newest first, at most `limit` (the owner sees all; the admin detail
   * view, which is not a paginated list, the 100 newest). A session was last active at its last
   * refresh (its chain's `rotated_at`), else at its start.
   */
  listActive(userId: string, now: Date, limit: number | null = null): Promise<SessionRow[]> {
    return this.dataSource.query(
      `SELECT s.id, s.auth_method, s.created_at, GREATEST(s.last_active_at, c.rotated_at) AS last_active_at, s.expires_at, s.ip_address, s.user_agent, s.impersonator_id
         FROM sessions s LEFT JOIN refresh_chains c ON c.session_id = s.id
        WHERE s.user_id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2
        ORDER BY s.created_at DESC, s.id LIMIT $3`,
      [userId, now, limit],
    );
  }

  /**
   * How many live sessions (not revoked, not expired at `now`: what `/me` counts) each project of
   * the tenant has, projects without any left out (the admin stats).
   */
  liveCountsByProject(
    tenantId: string,
    now: Date,
  ): Promise<{ project_id: string; count: number }[]> {
    return this.dataSource.query(
      `SELECT project_id, count(*)::int AS count FROM sessions
        WHERE tenant_id = $1 AND revoked_at IS NULL AND expires_at > $2
        GROUP BY project_id ORDER BY project_id`,
      [tenantId, now],
    );
  }

  /** The ids of the user's sessions not yet revoked (whose tokens a deletion must refuse). */
  async unrevokedIds(manager: EntityManager, userId: string): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      manager,
      `SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL`,
      [userId],
    );
    return rows.map((r) => r.id);
  }

  /** The ids of the project's sessions not yet revoked (whose tokens its deletion must refuse). */
  async unrevokedIdsOfProject(manager: EntityManager, projectId: string): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      manager,
      `SELECT id FROM sessions WHERE project_id = $1 AND revoked_at IS NULL`,
      [projectId],
    );
    return rows.map((r) => r.id);
  }

  /** The ids of sessions revoked after `since` (the revocation list every instance keeps). */
  async revokedSince(since: Date): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `SELECT id FROM sessions WHERE revoked_at IS NOT NULL AND revoked_at > $1`,
      [since],
    );
    return rows.map((r) => r.id);
  }

  /** Deletes up to `limit` sessions that expired, or were revoked, before `before` (their chains by cascade); returns how many. */
  async purge(before: Date, limit: number): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `DELETE FROM sessions WHERE id IN (
         SELECT id FROM sessions WHERE expires_at < $1 OR revoked_at < $1 LIMIT $2)
       RETURNING id`,
      [before, limit],
    );
    return rows.length;
  }

  /** Revokes one session of the user; returns false when it is not theirs or already revoked. */
  async revokeOwn(
    manager: EntityManager,
    userId: string,
    sessionId: string,
    reason: string,
    now: Date,
  ): Promise<Session | null> {
    const rows: Session[] = await manager
      .createQueryBuilder()
      .update(Session)
      .set({ revokedAt: now, revokeReason: reason })
      .where('id = :sessionId AND user_id = :userId AND revoked_at IS NULL', { sessionId, userId })
      .returning('*')
      .execute()
      .then((r) => r.raw as Session[]);
    return rows[0] ?? null;
  }

  /** Revokes every active session of a user; returns their ids. */
  async revokeAllOfUser(
    manager: EntityManager,
    userId: string,
    reason: string,
    now: Date,
  ): Promise<string[]> {
    const raw: { id: string }[] = await manager
      .createQueryBuilder()
      .update(Session)
      .set({ revokedAt: now, revokeReason: reason })
      .where('user_id = :userId AND revoked_at IS NULL', { userId })
      .returning(['id'])
      .execute()
      .then((r) => r.raw as { id: string }[]);
    return raw.map((r) => r.id);
  }
}
