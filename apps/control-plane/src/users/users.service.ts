import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { isId, uniqueViolation, type Project } from '@gatehouse/entities';
import {
  EventRecorder,
  LockoutService,
  OneTimeTokensRepository,
  parseUrl,
  applicationPageLink,
  PasswordHasher,
  PasswordPolicy,
  ProjectsRepository,
  SecondFactorLockout,
  SessionRevocation,
  SessionsRepository,
  UsersRepository,
  type RequestMeta,
  type SessionRevoker,
  type UserFilter,
  type UserRow,
} from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { enqueueMail, MailQueue } from '@gatehouse/queue';
import type { AdminContext } from '../auth/admin.guard';
import { assertRecentProof } from '../auth/recent-proof';
import { adminEvent } from '../common/admin-events';
import { paginated, type Page } from '@gatehouse/http';
import { OrganizationMembersRepository } from '@gatehouse/organizations';
import type { CreateUserDto } from './dto/create-user.dto';
import type { ImpersonateUserDto } from './dto/impersonate-user.dto';
import type { UpdateUserDto } from './dto/update-user.dto';
import {
  toUserFactorResponse,
  type ImpersonationLinkResponse,
  type UserFactorListResponse,
} from './user-factor.response';
import { UserFactors } from './user-factors';
import { toUserDetailResponse, toUserResponse, type UserResponse } from './user.response';

const notFound = () => new ProblemError('not-found', { detail: 'No such user.' });
const noSuchSession = () => new ProblemError('not-found', { detail: 'No such session.' });
/** The `revoke_reason` (and event `reason`) of a session an admin ended through the session routes. */
const ADMIN_REVOKED = 'admin_revoked';
/** The admin ends the user's sessions: their `session.revoked` events are the admin's, under the user's project. */
const revokedBy = (admin: AdminContext, user: UserRow, meta: RequestMeta): SessionRevoker => ({
  tenantId: admin.tenantId,
  projectId: user.project_id,
  actorType: 'admin',
  actorId: admin.userId,
  meta,
});

/** The reset flow's token lifetime (docs/api-contract.md §5) and a set-password invitation's (§13). */
const RESET_TTL_MS = 3600_000;
const SET_PASSWORD_TTL_MS = 7 * 24 * 3600_000;
/** An impersonation link works once, within 60 s (docs/api-contract.md §13). */
export const IMPERSONATION_LINK_TTL_MS = 60_000;

/**
 * The application page a reset or set-password mail links to (docs/api-contract.md §10): the project's
 * `settings.password_reset_url`, else `default_redirect_url`, else its first redirect URL, with
 * `?token=`; null when it has none of these.
 */
export const passwordResetLink = (
  project: Pick<Project, 'settings' | 'redirectUrls'>,
  token: string,
): string | null => applicationPageLink(project, 'password_reset_url', token);

const noLinkTarget = () =>
  new ProblemError('conflict', {
    detail:
      'The project has no password_reset_url, default_redirect_url or redirect URL for the link.',
  });

/** `{from, to}` of each field whose value changes (`data.changes` of an update event, docs/api-contract.md §13). */
function changesOf(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, to] of Object.entries(after)) {
    if (to !== undefined && JSON.stringify(before[field]) !== JSON.stringify(to))
      changes[field] = { from: before[field], to };
  }
  return changes;
}

/** A membership of the user appeared between locking their organizations and locking them. */
class MembershipsChanged extends Error {}

/**
 * Users of every project of the admin's tenant. Disabling or deleting a user revokes all of their
 * sessions at once, and an admin may end one session or all of them and leave the user active:
 * each way, in the database and the shared revocation cache, before commit, so no token outlives
 * the change (SessionRevocation, with the admin as actor); re-activating also clears their password and second-factor lockouts.
 * Events carry the user's project.
 */
@Injectable()
export class UsersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly members: OrganizationMembersRepository,
    private readonly revocation: SessionRevocation,
    private readonly lockout: LockoutService,
    private readonly mfaLockout: SecondFactorLockout,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
    private readonly projects: ProjectsRepository,
    private readonly policy: PasswordPolicy,
    private readonly hasher: PasswordHasher,
    private readonly oneTimeTokens: OneTimeTokensRepository,
    private readonly factors: UserFactors,
    private readonly mail: MailQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * `POST /v1/admin/users` (docs/api-contract.md §13): a user of one of the tenant's projects by the sign-up
   * rules (password policy, 409 naming the field for a taken email or username), with a password,
   * or none and optionally a mailed set-password link (a reset token living 7 days). The mail is
   * queued inside the transaction: a queue failure leaves no user behind (503).
   */
  async create(admin: AdminContext, dto: CreateUserDto, meta: RequestMeta): Promise<UserResponse> {
    const project = isId(dto.project_id)
      ? await this.projects.findInTenant(admin.tenantId, dto.project_id)
      : null;
    if (!project) throw new ProblemError('not-found', { detail: 'No such project.' });
    const email = dto.email.trim();
    const username = dto.username?.toLowerCase() ?? null;
    const invite = dto.send_invitation === true;
    const errors: Record<string, string[]> = {};
    if (dto.password !== undefined) {
      const problems = this.policy.problems(dto.password, { email, username });
      if (problems.length) errors.password = problems;
      if (invite) errors.send_invitation = ['must not be true when a password is given'];
    }
    if (Object.keys(errors).length) throw ProblemError.validation(errors);
    if (invite && !passwordResetLink(project, 'x')) throw noLinkTarget();
    const hashed = dto.password !== undefined ? await this.hasher.hash(dto.password) : null;
    let userId: string;
    try {
      userId = await this.dataSource.transaction(async (manager) => {
        const user = await this.users.create(manager, {
          tenantId: admin.tenantId,
          projectId: project.id,
          email,
          username,
          emailVerified: dto.email_verified ?? false,
          metadata: dto.metadata ?? {},
        });
        if (hashed) await this.users.setPassword(manager, user.id, hashed.hash, hashed.scheme);
        await this.events.record(
          manager,
          adminEvent(admin, meta, {
            projectId: project.id,
            action: 'user.created',
            resourceType: 'user',
            resourceId: user.id,
            data: {
              user: {
                id: user.id,
                email: user.email,
                username: user.username,
                project_id: project.id,
              },
              password_set: hashed !== null,
              invitation_sent: invite,
            },
          }),
        );
        if (invite) {
          const token = await this.oneTimeTokens.issue(
            manager,
            user,
            'password-reset',
            new Date(this.clock.nowMs() + SET_PASSWORD_TTL_MS),
            { email: user.email, set_password: true },
          );
          await this.mailPasswordLink('set-password', user.email, project, token, {
            expires_in_days: '7',
          });
        }
        return user.id;
      });
    } catch (err) {
      const constraint = uniqueViolation(err);
      if (constraint === 'users_project_email_uq')
        throw new ProblemError('conflict', {
          detail: 'A user with this email already exists in the project.',
          errors: { email: ['is already registered'] },
        });
      if (constraint === 'users_project_username_uq')
        throw new ProblemError('conflict', {
          detail: 'This username is taken in the project.',
          errors: { username: ['is already taken'] },
        });
      throw err;
    }
    const created = await this.users.findInTenant(admin.tenantId, userId);
    return toUserResponse(created!);
  }

  /**
   * `POST /v1/admin/users/{id}/password-reset` (docs/api-contract.md §13): the mail `password/forgot` sends (a
   * reset token of 1 hour), queued in the transaction of its audit event `user.password_reset_sent`.
   * A disabled user cannot reset (409), as `forgot` sends them nothing.
   */
  async sendPasswordReset(admin: AdminContext, id: string, meta: RequestMeta): Promise<void> {
    if (!isId(id)) throw notFound();
    await this.dataSource.transaction(async (manager) => {
      const user = await this.users.lockInTenant(manager, admin.tenantId, id);
      if (!user) throw notFound();
      if (user.status !== 'active')
        throw new ProblemError('conflict', { detail: 'The user is disabled; enable them first.' });
      const project = await this.projects.findInTenant(admin.tenantId, user.project_id, manager);
      if (!project) throw notFound();
      if (!passwordResetLink(project, 'x')) throw noLinkTarget();
      const token = await this.oneTimeTokens.issue(
        manager,
        { id: user.id, tenantId: user.tenant_id, projectId: user.project_id },
        'password-reset',
        new Date(this.clock.nowMs() + RESET_TTL_MS),
        { email: user.email },
      );
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: user.project_id,
          action: 'user.password_reset_sent',
          resourceType: 'user',
          resourceId: user.id,
          data: { user: { id: user.id, email: user.email, project_id: user.project_id } },
        }),
      );
      await this.mailPasswordLink('password-reset', user.email, project, token, {
        expires_in_minutes: '60',
      });
    });
  }

  /**
   * `POST /v1/admin/users/{id}/impersonate` ★ (docs/api-contract.md §13): a one-time link (60 s) to the auth
   * runtime that starts a session of the user with `act: {sub: <admin>}`. Another admin of the
   * tenant cannot be impersonated (403), nor a disabled user (409); `redirect_url` must be one of
   * the project's registered redirect URLs (400). Audited `user.impersonated` with the reason.
   */
  async impersonate(
    admin: AdminContext,
    id: string,
    dto: ImpersonateUserDto,
    meta: RequestMeta,
  ): Promise<ImpersonationLinkResponse> {
    assertRecentProof(admin, this.clock.nowMs());
    if (!isId(id)) throw notFound();
    return this.dataSource.transaction(async (manager) => {
      const user = await this.users.lockInTenant(manager, admin.tenantId, id);
      if (!user) throw notFound();
      if (user.is_admin)
        throw new ProblemError('forbidden', {
          detail: 'An administrator of the tenant cannot be impersonated.',
        });
      if (user.status !== 'active')
        throw new ProblemError('conflict', { detail: 'The user is disabled; enable them first.' });
      const project = await this.projects.findInTenant(admin.tenantId, user.project_id, manager);
      if (!project) throw notFound();
      const target = this.impersonationTarget(project, dto.redirect_url);
      const expiresAt = new Date(this.clock.nowMs() + IMPERSONATION_LINK_TTL_MS);
      const token = await this.oneTimeTokens.issue(
        manager,
        { id: user.id, tenantId: user.tenant_id, projectId: user.project_id },
        'impersonation',
        expiresAt,
        {
          admin_id: admin.userId,
          admin_project_id: admin.consoleProjectId,
          redirect_url: target,
        },
      );
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: user.project_id,
          action: 'user.impersonated',
          resourceType: 'user',
          resourceId: user.id,
          data: {
            user: { id: user.id, email: user.email, project_id: user.project_id },
            reason: dto.reason,
            redirect_url: target,
            expires_at: expiresAt.toISOString(),
          },
        }),
      );
      const url = new URL(`${this.config.http.publicAuthUrl}/v1/auth/impersonation/verify`);
      url.searchParams.set('token', token);
      url.searchParams.set('project_key', project.publishableKey);
      return { url: url.toString(), expires_at: expiresAt.toISOString() };
    });
  }

  /** The registered redirect URL `given` names (equal after URL parsing), else the project's default; 400/409 otherwise. */
  private impersonationTarget(project: Project, given: string | undefined): string {
    if (given !== undefined) {
      const href = parseUrl(given)?.href;
      const match = href ? project.redirectUrls.find((r) => parseUrl(r)?.href === href) : undefined;
      if (!match)
        throw ProblemError.validation({
          redirect_url: ["must be one of the project's registered redirect URLs"],
        });
      return match;
    }
    const settings = project.settings as Record<string, unknown>;
    const fallback = [settings.default_redirect_url, project.redirectUrls[0]].find(
      (v): v is string => typeof v === 'string' && v.length > 0,
    );
    if (!fallback)
      throw new ProblemError('conflict', {
        detail: 'The project has no default_redirect_url or redirect URL to land on.',
      });
    return fallback;
  }

  /** `GET /v1/admin/users/{id}/factors`. */
  async listFactors(tenantId: string, id: string): Promise<UserFactorListResponse> {
    const user = isId(id) ? await this.users.findInTenant(tenantId, id) : null;
    if (!user) throw notFound();
    return {
      factors: (await this.factors.list(this.dataSource.manager, user.id)).map(
        toUserFactorResponse,
      ),
    };
  }

  /**
   * `DELETE /v1/admin/users/{id}/factors/{factor_id}` ★: one TOTP or SMS factor (its backup codes
   * go with the last one, as the runtime's own removal does), the backup-code set, or one passkey.
   */
  async removeFactor(
    admin: AdminContext,
    id: string,
    factorId: string,
    meta: RequestMeta,
  ): Promise<void> {
    assertRecentProof(admin, this.clock.nowMs());
    if (!isId(id)) throw notFound();
    const noSuchFactor = () => new ProblemError('not-found', { detail: 'No such factor.' });
    if (!isId(factorId)) throw noSuchFactor();
    await this.dataSource.transaction(async (manager) => {
      const user = await this.users.lockInTenant(manager, admin.tenantId, id);
      if (!user) throw notFound();
      const factor = await this.factors.deleteFactor(manager, user.id, factorId);
      if (factor) {
        await this.mfaEvent(manager, admin, user, factor, meta);
        await this.factors.deleteBackupCodesIfNoFactor(manager, user.id);
        return;
      }
      if ((await this.factors.deleteBackupCodes(manager, user.id, factorId)) !== null) {
        await this.mfaEvent(manager, admin, user, 'backup_code', meta);
        return;
      }
      const passkey = await this.factors.deletePasskey(manager, user.id, factorId);
      if (!passkey) throw noSuchFactor();
      await this.passkeyRemoved(manager, admin, user, passkey, meta);
    });
  }

  /**
   * `DELETE /v1/admin/users/{id}/factors` ★ ("reset MFA"): every second factor, backup code and
   * passkey; one `mfa.disabled` / `passkey.removed` each, then `user.mfa_reset`. Nothing to remove is
   * still 204 (and audited).
   */
  async removeAllFactors(admin: AdminContext, id: string, meta: RequestMeta): Promise<void> {
    assertRecentProof(admin, this.clock.nowMs());
    if (!isId(id)) throw notFound();
    await this.dataSource.transaction(async (manager) => {
      const user = await this.users.lockInTenant(manager, admin.tenantId, id);
      if (!user) throw notFound();
      const removed = await this.factors.deleteAll(manager, user.id);
      for (const factor of removed.factors) await this.mfaEvent(manager, admin, user, factor, meta);
      for (const passkey of removed.passkeys)
        await this.passkeyRemoved(manager, admin, user, passkey, meta);
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: user.project_id,
          action: 'user.mfa_reset',
          resourceType: 'user',
          resourceId: user.id,
          data: {
            user: { id: user.id, email: user.email, project_id: user.project_id },
            factors: removed.factors,
            backup_codes: removed.backupCodes,
            passkeys: removed.passkeys.length,
          },
        }),
      );
    });
  }

  private mfaEvent(
    manager: EntityManager,
    admin: AdminContext,
    user: UserRow,
    factor: string,
    meta: RequestMeta,
  ) {
    return this.events.record(
      manager,
      adminEvent(admin, meta, {
        projectId: user.project_id,
        action: 'mfa.disabled',
        resourceType: 'user',
        resourceId: user.id,
        data: { user: { id: user.id }, factor },
      }),
    );
  }

  private passkeyRemoved(
    manager: EntityManager,
    admin: AdminContext,
    user: UserRow,
    passkey: { id: string; name: string },
    meta: RequestMeta,
  ) {
    return this.events.record(
      manager,
      adminEvent(admin, meta, {
        projectId: user.project_id,
        action: 'passkey.removed',
        resourceType: 'passkey',
        resourceId: passkey.id,
        data: { passkey: { id: passkey.id, user_id: user.id, name: passkey.name } },
      }),
    );
  }

  /** Queues the mail of a link that sets the user's password (`token`, a `password-reset` one-time token). */
  private mailPasswordLink(
    template: 'set-password' | 'password-reset',
    to: string,
    project: Project,
    token: string,
    expiry: Record<string, string>,
  ): Promise<void> {
    return enqueueMail(
      this.mail,
      {
        template,
        to,
        projectId: project.id,
        projectName: project.name,
        variables: { link: passwordResetLink(project, token)!, ...expiry },
      },
      this.config.http.dependencyTimeoutMs,
    );
  }

  async list(tenantId: string, filter: UserFilter, page: Page) {
    if (filter.projectId !== undefined && !isId(filter.projectId))
      return paginated('users', [], page, 0);
    const [rows, total] = await this.users.list(tenantId, filter, page);
    return paginated('users', rows.map(toUserResponse), page, total);
  }

  async get(tenantId: string, id: string) {
    const user = isId(id) ? await this.users.findInTenant(tenantId, id) : null;
    if (!user) throw notFound();
    const [sessions, organizations, passwordLock, factorLock] = await Promise.all([
      this.sessions.listActive(user.id, this.clock.now(), 100),
      this.members.forUser(tenantId, user.id),
      this.lockout.lockedUntil(user.project_id, user.email, user.username),
      this.mfaLockout.lockedUntil(user.project_id, user.id),
    ]);
    const lockedUntil = [passwordLock, factorLock].reduce<Date | null>(
      (a, b) => (b && (!a || b > a) ? b : a),
      null,
    );
    return toUserDetailResponse(user, sessions, organizations, lockedUntil);
  }

  async update(admin: AdminContext, id: string, dto: UpdateUserDto, meta: RequestMeta) {
    if (!isId(id)) throw notFound();
    if (id === admin.userId && dto.status === 'disabled') {
      throw new ProblemError('conflict', {
        detail: 'You cannot disable your own account.',
        errors: { status: ['cannot disable your own account'] },
      });
    }
    await this.dataSource.transaction(async (manager) => {
      const user = await this.users.lockInTenant(manager, admin.tenantId, id);
      if (!user) throw notFound();
      const changed = (['status', 'metadata', 'email_verified'] as const).filter(
        (k) => dto[k] !== undefined,
      );
      if (!changed.length) return;
      const changes = changesOf(
        { status: user.status, metadata: user.metadata, email_verified: user.email_verified },
        { status: dto.status, metadata: dto.metadata, email_verified: dto.email_verified },
      );
      await this.users.update(manager, user.id, {
        status: dto.status,
        metadata: dto.metadata,
        emailVerified: dto.email_verified,
      });
      let revoked: string[] = [];
      if (dto.status === 'disabled') {
        revoked = await this.revocation.revokeAll(
          manager,
          user.id,
          revokedBy(admin, user, meta),
          'user_disabled',
        );
      }
      if (dto.status === 'active') {
        await this.lockout.reset(user.project_id, user.email, user.username);
        await this.mfaLockout.reset(user.project_id, user.id);
      }
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: user.project_id,
          action: 'user.updated',
          resourceType: 'user',
          resourceId: user.id,
          data: {
            user: { id: user.id, email: user.email, project_id: user.project_id },
            changed,
            changes,
            ...(dto.status !== undefined
              ? { status: dto.status, previous_status: user.status }
              : {}),
            ...(dto.status === 'disabled' ? { revoked_sessions: revoked.length } : {}),
          },
        }),
      );
    });
    return this.get(admin.tenantId, id);
  }

  /**
   * Deletes a user, unless they are the last admin of an organization (409, docs/api-contract.md §6). The
   * user's organizations are locked before the user, in the order member changes lock them, so no
   * promotion or demotion slips between the check and the delete; a membership added between the
   * two locks makes the delete start over (once the user row is locked, none can be added).
   */
  async delete(admin: AdminContext, id: string, meta: RequestMeta): Promise<void> {
    if (!isId(id)) throw notFound();
    if (id === admin.userId)
      throw new ProblemError('conflict', { detail: 'You cannot delete your own account.' });
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.deleteOnce(admin, id, meta);
      } catch (err) {
        if (!(err instanceof MembershipsChanged)) throw err;
        if (attempt === 3)
          throw new ProblemError('conflict', {
            detail: "The user's organizations changed while deleting; try again.",
          });
      }
    }
  }

  private async deleteOnce(admin: AdminContext, id: string, meta: RequestMeta): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const locked = new Set(await this.members.lockOrganizationsOf(manager, admin.tenantId, id));
      const user = await this.users.lockInTenant(manager, admin.tenantId, id);
      if (!user) throw notFound();
      const memberships = await this.members.membershipsWithOtherAdmins(manager, user.id);
      if (memberships.some((m) => !locked.has(m.organization_id))) throw new MembershipsChanged();
      const orphaned = memberships.filter((m) => m.role === 'admin' && m.other_admins === 0);
      if (orphaned.length > 0) {
        throw new ProblemError('conflict', {
          detail: `This user is the last admin of ${orphaned.map((o) => `"${o.name}"`).join(', ')}; make another member an admin, or delete the organization, first.`,
          extensions: { organization_ids: orphaned.map((o) => o.organization_id) },
        });
      }
      const sessionIds = await this.revocation.endWithDeletedUser(
        manager,
        user.id,
        revokedBy(admin, user, meta),
        'user_deleted',
      );
      await this.users.delete(manager, user.id);
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: user.project_id,
          action: 'user.deleted',
          resourceType: 'user',
          resourceId: user.id,
          data: {
            user: { id: user.id, email: user.email, project_id: user.project_id },
            revoked_sessions: sessionIds.length,
          },
        }),
      );
    });
  }

  /**
   * Ends one session of the user (`DELETE …/users/{id}/sessions/{session_id}`) by the rule of the
   * runtime's own `DELETE /v1/auth/sessions/{id}` (`SessionsRepository.revokeOwn`): it must be the
   * user's and not yet revoked, else 404, an ended session included (docs/admin-api.md). The user's
   * row is locked first, as every change of theirs does; the user stays active.
   */
  async revokeSession(
    admin: AdminContext,
    id: string,
    sessionId: string,
    meta: RequestMeta,
  ): Promise<void> {
    if (!isId(id)) throw notFound();
    if (!isId(sessionId)) throw noSuchSession();
    await this.dataSource.transaction(async (manager) => {
      const user = await this.users.lockInTenant(manager, admin.tenantId, id);
      if (!user) throw notFound();
      if (
        !(await this.revocation.revokeOne(
          manager,
          user.id,
          sessionId,
          revokedBy(admin, user, meta),
          ADMIN_REVOKED,
        ))
      )
        throw noSuchSession();
    });
  }

  /**
   * Ends every live session of the user (`DELETE …/users/{id}/sessions`), as disabling does, but the
   * user stays active and may sign in again. Their row is locked first, so a sign-in in flight either
   * committed before (its session is revoked too) or starts after. Nothing left to end is still 204.
   */
  async revokeSessions(admin: AdminContext, id: string, meta: RequestMeta): Promise<void> {
    if (!isId(id)) throw notFound();
    await this.dataSource.transaction(async (manager) => {
      const user = await this.users.lockInTenant(manager, admin.tenantId, id);
      if (!user) throw notFound();
      await this.revocation.revokeAll(
        manager,
        user.id,
        revokedBy(admin, user, meta),
        ADMIN_REVOKED,
      );
    });
  }
}
