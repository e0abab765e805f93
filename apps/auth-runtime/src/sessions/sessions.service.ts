import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { isId } from '@gatehouse/entities';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import {
  decryptSecretString,
  encryptSecret,
  hmacSha256,
  safeEqual,
  sha256Hex,
} from '@gatehouse/crypto';
import type { User } from '@gatehouse/entities';
import {
  AccessTokensService,
  accessTokenTtl,
  EventRecorder,
  originRefused,
  renderClaimSources,
  renderTokenClaims,
  RefreshChainsRepository,
  SessionRevocation,
  SessionsRepository,
  UsersRepository,
  type ChainStateRow,
  type ProjectKeyMatch,
  type RequestMeta,
  type ResolvedProject,
} from '@gatehouse/identity';
import type { OrganizationClaim } from '@gatehouse/organizations';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import type { CookieTokens } from '../auth/session-cookies';
import { projectKeyRequired } from '../projects/project-key.guard';
import { RefreshTokenCodec } from './refresh-token';
import { toSessionResponse, type SessionListResponse } from './session.response';
import { byUser } from '../users/user-actor';
import { enrolmentOf, recordDomainJoins } from '../users/domain-enrollment';

export const REFRESH_IDLE_MS = 7 * 24 * 3600 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600 * 1000;
/** Concurrent refreshes of one token within this window get the same successor (docs/api-contract.md §2). */
export const REFRESH_REUSE_GRACE_MS = 10_000;

export interface IssuedSession extends CookieTokens {
  sessionId: string;
  sessionExpiresAt: Date;
  expiresIn: number;
}

export type AuthMethod = 'password' | 'magic_link' | 'passkey' | 'oauth' | 'mfa' | 'impersonation';

/**
 * An impersonated session (docs/api-contract.md §13): its access tokens live at most 15 minutes and carry
 * `act`; the session itself ends 60 minutes after the link was opened, so no refresh goes past.
 */
export const IMPERSONATION_ACCESS_TTL_SECONDS = 900;
export const IMPERSONATION_SESSION_MS = 3600_000;

/** The access-token lifetime of a session: the project's, capped for an impersonated one. */
const sessionAccessTtl = (projectTtl: unknown, impersonatorId: string | null | undefined) =>
  impersonatorId
    ? Math.min(accessTokenTtl(projectTtl), IMPERSONATION_ACCESS_TTL_SECONDS)
    : accessTokenTtl(projectTtl);

/**
 * Sessions and their tokens: start (every way in ends here), refresh with rotation and reuse
 * detection, revocation that reaches every instance through the shared cache.
 */
@Injectable()
export class SessionsService {
  private readonly refreshTokens: RefreshTokenCodec;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sessions: SessionsRepository,
    private readonly users: UsersRepository,
    private readonly chains: RefreshChainsRepository,
    private readonly tokens: AccessTokensService,
    private readonly events: EventRecorder,
    private readonly revocation: SessionRevocation,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.refreshTokens = new RefreshTokenCodec(
      hmacSha256(config.auth.encryptionKey, 'gatehouse:refresh-token-mac'),
    );
  }

  /**
   * Creates a session with its first refresh token and access token, in the caller's transaction,
   * and records the user's sign-in (`last_sign_in_at`; a user signed in here needs no migration).
   * With `impersonatorId` (an admin's impersonation link), the session lasts IMPERSONATION_SESSION_MS,
   * its tokens carry `act`, `session.created` carries `impersonator_id`, and no sign-in of the user is recorded.
   */
  async start(
    manager: EntityManager,
    project: ResolvedProject,
    user: User,
    meta: RequestMeta,
    method: AuthMethod,
    opts: { impersonatorId?: string } = {},
  ): Promise<IssuedSession> {
    const now = this.clock.now();
    const expiresAt = new Date(
      now.getTime() + (opts.impersonatorId ? IMPERSONATION_SESSION_MS : SESSION_ABSOLUTE_MS),
    );
    const sessionId = randomUUID();
    const refreshToken = this.refreshTokens.issue(sessionId, 0);
    const refreshExpiresAt = new Date(
      Math.min(now.getTime() + REFRESH_IDLE_MS, expiresAt.getTime()),
    );
    const session = await this.sessions.create(manager, {
      id: sessionId,
      tenantId: user.tenantId,
      projectId: user.projectId,
      userId: user.id,
      authMethod: method,
      ipAddress: meta.ip,
      userAgent: meta.userAgent,
      expiresAt,
      now,
      refreshTokenHash: sha256Hex(refreshToken),
      refreshExpiresAt,
      securityStamp: user.securityStamp ?? 0,
      impersonatorId: opts.impersonatorId ?? null,
    });
    // A claim, reset or disabling ended the credential this sign-in proved after it was checked.
    if (!session)
      throw new ProblemError('invalid-credentials', {
        detail: 'The credentials are no longer valid.',
      });
    await this.sessionEvent(
      manager,
      'session.created',
      {
        tenantId: user.tenantId,
        projectId: user.projectId,
        userId: user.id,
        sessionId: session.id,
      },
      meta,
      {},
      { method, ...(opts.impersonatorId ? { impersonator_id: opts.impersonatorId } : {}) },
    );
    const access = await this.accessTokenFor(
      project,
      user,
      session.id,
      now,
      session.activeKid,
      manager,
      opts.impersonatorId,
      null,
      renderTokenClaims(project.settings.token_claims, {
        user: { metadata: user.metadata, email_verified: user.emailVerified },
      }),
    );
    if (!opts.impersonatorId) {
      // A verified email at an auto-join domain of the project makes the user a member (§14).
      const enrol = enrolmentOf(user);
      const joined = await this.users.touchSignIn(manager, user.id, now, enrol);
      if (enrol && joined.length)
        await recordDomainJoins(this.events, manager, user, joined, meta, enrol.domain);
    }
    return {
      sessionId: session.id,
      sessionExpiresAt: session.expiresAt,
      accessToken: access.token,
      accessExpiresAt: access.expiresAt,
      expiresIn: access.expiresIn,
      refreshToken,
      refreshExpiresAt,
    };
  }

  /**
   * Rotates a refresh token presented with a project key (and, when the request carries one, the
   * Origin the CSRF rule checks). A token of the session's chain older than its current one is a
   * replay: the whole session is revoked, but for the token rotated last, which within the grace
   * gets the same successor again.
   */
  async refresh(
    key: ProjectKeyMatch,
    origin: string | null,
    presented: string,
    meta: RequestMeta,
  ): Promise<IssuedSession & { tenantId: string }> {
    const invalid = () =>
      new ProblemError('unauthenticated', { detail: 'The refresh token is invalid or expired.' });
    const now = this.clock.now();
    const presentedHash = sha256Hex(presented);
    // A token we did not issue is never rotated, but the key and the origin are still judged first.
    const claims = this.refreshTokens.read(presented);
    const successor = claims
      ? this.refreshTokens.issue(claims.sessionId, claims.generation + 1)
      : '';
    const rotation = claims
      ? await this.chains.rotate({
          key,
          origin,
          sessionId: claims.sessionId,
          presentedHash,
          successorGeneration: claims.generation + 1,
          successorHash: sha256Hex(successor),
          successorSealed: encryptSecret(this.config.auth.encryptionKey, successor, presentedHash),
          idleExpiresAt: new Date(now.getTime() + REFRESH_IDLE_MS),
          now,
        })
      : await this.chains.state({ key, origin, sessionId: null });
    if (rotation.kind === 'unknown-project') throw projectKeyRequired();
    if (rotation.kind === 'origin-refused') throw originRefused();

    let session: Pick<
      ChainStateRow,
      | 'session_id'
      | 'user_id'
      | 'project_id'
      | 'tenant_id'
      | 'is_admin'
      | 'session_expires_at'
      | 'auth_time'
      | 'impersonator_id'
      | 'org'
      | 'claim_sources'
    >;
    let refreshToken: string;
    let refreshExpiresAt: Date;
    let ttl: unknown;
    let activeKid: string | null;
    if (rotation.kind === 'rotated') {
      session = rotation.row;
      refreshToken = successor;
      refreshExpiresAt = new Date(rotation.row.new_expires_at);
      ttl = rotation.row.access_token_ttl;
      activeKid = rotation.row.active_kid;
    } else {
      const row = rotation.state;
      if (
        !claims ||
        !row ||
        row.session_revoked_at ||
        row.user_status !== 'active' ||
        new Date(row.session_expires_at) <= now
      )
        throw invalid();
      // The current token (idle-expired) or one this chain never issued: refused, nothing revoked.
      if (claims.generation >= row.generation) throw invalid();
      const lastRotated =
        claims.generation === row.generation - 1 &&
        row.previous_token_hash !== null &&
        safeEqual(presentedHash, row.previous_token_hash);
      if (
        !lastRotated ||
        !row.rotated_at ||
        !row.successor_token_encrypted ||
        now.getTime() - new Date(row.rotated_at).getTime() > REFRESH_REUSE_GRACE_MS
      ) {
        await this.revokeForReuse(row, meta);
        throw invalid();
      }
      session = row;
      refreshToken = decryptSecretString(
        this.config.auth.encryptionKey,
        row.successor_token_encrypted,
        presentedHash,
      );
      refreshExpiresAt = new Date(row.token_expires_at);
      ttl = rotation.accessTokenTtl;
      activeKid = rotation.activeKid;
    }
    // The session's auth_time carries over: a refresh proves nothing new about the user.
    const access = await this.tokens.issue({
      tenantId: session.tenant_id,
      projectId: session.project_id,
      userId: session.user_id,
      sessionId: session.session_id,
      isAdmin: session.is_admin,
      ttlSeconds: sessionAccessTtl(ttl, session.impersonator_id),
      authTime: new Date(session.auth_time),
      activeKid,
      impersonatorId: session.impersonator_id,
      organization: session.org,
      claims: renderClaimSources(session.claim_sources),
    });
    return {
      tenantId: session.tenant_id,
      sessionId: session.session_id,
      sessionExpiresAt: new Date(session.session_expires_at),
      accessToken: access.token,
      accessExpiresAt: access.expiresAt,
      expiresIn: access.expiresIn,
      refreshToken,
      refreshExpiresAt,
    };
  }

  /** A replayed refresh token ends its session, by the system (once: a second replay finds it revoked). */
  private async revokeForReuse(
    row: { session_id: string; tenant_id: string; project_id: string; user_id: string },
    meta: RequestMeta,
  ): Promise<void> {
    const by = {
      tenantId: row.tenant_id,
      projectId: row.project_id,
      actorType: 'system' as const,
      actorId: null,
      meta,
    };
    await this.dataSource.transaction((manager) =>
      this.revocation.revokeOne(manager, row.user_id, row.session_id, by, 'refresh_token_reuse'),
    );
  }

  /** Revokes one of the user's own sessions; 404 when it is not theirs (docs/api-contract.md §2). */
  async revokeOwn(
    auth: { tid: string; aud: string; sub: string },
    sessionId: string,
    meta: RequestMeta,
    reason: string,
  ): Promise<void> {
    if (!(await this.endOwn(auth, sessionId, meta, reason)))
      throw new ProblemError('not-found', { detail: 'No such session.' });
  }

  /** Ends one of the user's own sessions, by the user, in a transaction of its own; false when it is not theirs or ended already. */
  async endOwn(
    auth: { tid: string; aud: string; sub: string },
    sessionId: string,
    meta: RequestMeta,
    reason: string,
  ): Promise<boolean> {
    if (!isId(sessionId)) return false;
    const by = byUser(auth.tid, auth.aud, auth.sub, meta);
    return this.dataSource.transaction((manager) =>
      this.revocation.revokeOne(manager, auth.sub, sessionId, by, reason),
    );
  }

  /**
   * Before a signed-in user adds a credential or a proof (a password, passkey, second factor, backup
   * codes, an email change): waits for a claim, reset or disabling in progress on the account, then
   * confirms the caller's session outlived it; 401 otherwise. In the caller's transaction, which
   * then writes while the user's row is held.
   */
  async lockForCredentialChange(
    manager: EntityManager,
    caller: { sub: string; sid: string },
  ): Promise<void> {
    const active = await this.users.lockForCredentialChange(manager, caller.sub);
    if (
      !active ||
      !(await this.sessions.isLive(manager, caller.sub, caller.sid, this.clock.now()))
    ) {
      throw new ProblemError('unauthenticated', { detail: 'A valid session is required.' });
    }
  }

  /**
   * The user proved a credential again in this session (`POST /v1/auth/reauthenticate`): the
   * session's `auth_time` becomes now, the next refresh keeps it, and a fresh access token carries
   * it at once. 401 when the session is no longer live.
   */
  async reauthenticated(
    project: ResolvedProject,
    user: User,
    sessionId: string,
    method: string,
    meta: RequestMeta,
  ): Promise<{ accessToken: string; accessExpiresAt: Date; expiresIn: number }> {
    const now = this.clock.now();
    const renewed = await this.dataSource.transaction(async (manager) => {
      const row = await this.sessions.renewAuthTime(manager, sessionId, user.id, now, method);
      if (!row)
        throw new ProblemError('unauthenticated', { detail: 'A valid session is required.' });
      await this.sessionEvent(
        manager,
        'session.reauthenticated',
        { tenantId: user.tenantId, projectId: user.projectId, userId: user.id, sessionId },
        meta,
        { method },
      );
      return row;
    });
    const access = await this.accessTokenFor(
      project,
      user,
      sessionId,
      now,
      renewed.active_kid,
      undefined,
      undefined,
      renewed.org,
      renderClaimSources(renewed.claim_sources),
    );
    return {
      accessToken: access.token,
      accessExpiresAt: access.expiresAt,
      expiresIn: access.expiresIn,
    };
  }

  /**
   * Makes an organization (or none) the session's active one and issues an access token whose `org`
   * claim says so (docs/api-contract.md §14); the session's `auth_time` carries over. `membership`
   * is what the caller read, in `manager`'s transaction with the organization's row held, so a
   * removal waits for the token issued here (which then lives at most its lifetime); null with an
   * organization id: not a member, 403. 401 when the session is no longer live.
   */
  async activateOrganization(
    manager: EntityManager,
    project: ResolvedProject,
    auth: { sub: string; sid: string; tid: string; adm: boolean },
    organizationId: string | null,
    membership: OrganizationClaim | null,
  ): Promise<{ accessToken: string; accessExpiresAt: Date; expiresIn: number }> {
    if (organizationId && !membership)
      throw new ProblemError('forbidden', {
        detail: 'You are not a member of this organization.',
      });
    const now = this.clock.now();
    const row = await this.sessions.setActiveOrganization(
      manager,
      auth.sid,
      auth.sub,
      organizationId,
      now,
    );
    if (!row) throw new ProblemError('unauthenticated', { detail: 'A valid session is required.' });
    const access = await this.tokens.issue(
      {
        tenantId: auth.tid,
        projectId: project.id,
        userId: auth.sub,
        sessionId: auth.sid,
        isAdmin: auth.adm,
        ttlSeconds: sessionAccessTtl(
          project.settings.access_token_ttl_seconds,
          row.impersonator_id,
        ),
        authTime: new Date(row.auth_time),
        activeKid: row.active_kid,
        impersonatorId: row.impersonator_id,
        organization: membership
          ? {
              id: membership.id,
              slug: membership.slug,
              role: membership.role,
              permissions: membership.permissions,
            }
          : null,
        claims: renderClaimSources(row.claim_sources),
      },
      manager,
    );
    return {
      accessToken: access.token,
      accessExpiresAt: access.expiresAt,
      expiresIn: access.expiresIn,
    };
  }

  /**
   * Records `session.<verb>` of one session, in the caller's transaction: the session's id and user
   * in the payload (with `sessionFields` beside them), `extra` next to it; the actor is the user
   * (revocations are recorded by SessionRevocation).
   */
  private sessionEvent(
    manager: EntityManager,
    action: string,
    s: { tenantId: string; projectId: string; userId: string; sessionId: string },
    meta: RequestMeta,
    extra: Record<string, unknown>,
    sessionFields: Record<string, unknown> = {},
  ): Promise<string> {
    return this.events.record(manager, {
      tenantId: s.tenantId,
      projectId: s.projectId,
      actorType: 'user',
      actorId: s.userId,
      action,
      resourceType: 'session',
      resourceId: s.sessionId,
      meta,
      data: { session: { id: s.sessionId, user_id: s.userId, ...sessionFields }, ...extra },
    });
  }

  /**
   * An access token of a session of `user`, with the project's lifetime, signed by its active key;
   * for a proof made at `authTime` (a sign-in or re-authentication) it is issued at that instant.
   */
  private accessTokenFor(
    project: ResolvedProject,
    user: User,
    sessionId: string,
    authTime: Date,
    activeKid: string | null,
    manager?: EntityManager,
    impersonatorId?: string,
    organization?: OrganizationClaim | null,
    claims?: Record<string, unknown>,
  ) {
    return this.tokens.issue(
      {
        tenantId: user.tenantId,
        projectId: user.projectId,
        userId: user.id,
        sessionId,
        isAdmin: user.isAdmin,
        ttlSeconds: sessionAccessTtl(project.settings.access_token_ttl_seconds, impersonatorId),
        authTime,
        issuedAt: authTime,
        activeKid,
        impersonatorId,
        organization,
        claims,
      },
      manager,
    );
  }

  async listActive(userId: string, currentSessionId: string): Promise<SessionListResponse> {
    const rows = await this.sessions.listActive(userId, this.clock.now());
    return { sessions: rows.map((s) => toSessionResponse(s, currentSessionId)) };
  }
}
