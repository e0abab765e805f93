import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { isId } from '@gatehouse/entities';
import { AccessTokensService, EventRecorder, LockoutService, SecondFactorLockout, SessionsRepository, UsersRepository, type RequestMeta, type UserFilter, type UserRow } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { adminEvent } from '../common/admin-events';
import { paginated, type Page } from '../common/pagination';
import { OrganizationMembersRepository } from '@gatehouse/organizations';
import type { UpdateUserDto } from './dto/update-user.dto';
import { toUserDetailResponse, toUserResponse } from './user.response';

const notFound = () => new ProblemError('not-found', { detail: 'No such user.' });
const noSuchSession = () => new ProblemError('not-found', { detail: 'No such session.' });
/** The `revoke_reason` (and event `reason`) of a session an admin ended through the session routes. */
const ADMIN_REVOKED = 'admin_revoked';

/** A membership of the user appeared between locking their organizations and locking them. */
class MembershipsChanged extends Error {}

/**
 * Users of every project of the admin's tenant. Disabling or deleting a user revokes all of their
 * sessions at once, and an admin may end one session or all of them and leave the user active:
 * each way, in the database and the shared revocation cache, before commit, so no token outlives
 * the change (`sessionsEnded`); re-activating also clears their password and second-factor lockouts.
 * Events carry the user's project.
 */
@Injectable()
export class UsersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly members: OrganizationMembersRepository,
    private readonly tokens: AccessTokensService,
    private readonly lockout: LockoutService,
    private readonly mfaLockout: SecondFactorLockout,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  async list(tenantId: string, filter: UserFilter, page: Page) {
    if (filter.projectId !== undefined && !isId(filter.projectId)) return paginated('users', [], page, 0);
    const [rows, total] = await this.users.list(tenantId, filter, page);
    return paginated('users', rows.map(toUserResponse), page, total);
  }

  async get(tenantId: string, id: string) {
    const user = isId(id) ? await this.users.findInTenant(tenantId, id) : null;
    if (!user) throw notFound();
    const [sessions, organizations] = await Promise.all([this.sessions.listActive(user.id, this.clock.now(), 100), this.members.forUser(tenantId, user.id)]);
    return toUserDetailResponse(user, sessions, organizations);
  }

  async update(admin: AdminContext, id: string, dto: UpdateUserDto, meta: RequestMeta) {
    if (!isId(id)) throw notFound();
    if (id === admin.userId && dto.status === 'disabled') {
      throw new ProblemError('conflict', { detail: 'You cannot disable your own account.', errors: { status: ['cannot disable your own account'] } });
    }
    await this.dataSource.transaction(async (manager) => {
      const user = await this.users.lockInTenant(manager, admin.tenantId, id);
      if (!user) throw notFound();
      const changed = (['status', 'metadata'] as const).filter((k) => dto[k] !== undefined);
      if (!changed.length) return;
      await this.users.update(manager, user.id, { status: dto.status, metadata: dto.metadata });
      let revoked: string[] = [];
      if (dto.status === 'disabled') {
        revoked = await this.sessions.revokeAllOfUser(manager, user.id, 'user_disabled', this.clock.now());
        await this.sessionsEnded(manager, admin, user, revoked, 'user_disabled', meta);
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
            ...(dto.status !== undefined ? { status: dto.status, previous_status: user.status } : {}),
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
    if (id === admin.userId) throw new ProblemError('conflict', { detail: 'You cannot delete your own account.' });
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.deleteOnce(admin, id, meta);
      } catch (err) {
        if (!(err instanceof MembershipsChanged)) throw err;
        if (attempt === 3) throw new ProblemError('conflict', { detail: "The user's organizations changed while deleting; try again." });
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
      const sessionIds = await this.sessions.unrevokedIds(manager, user.id);
      await this.sessionsEnded(manager, admin, user, sessionIds, 'user_deleted', meta);
      await this.users.delete(manager, user.id);
      await this.events.record(
        manager,
        adminEvent(admin, meta, {
          projectId: user.project_id,
          action: 'user.deleted',
          resourceType: 'user',
          resourceId: user.id,
          data: { user: { id: user.id, email: user.email, project_id: user.project_id }, revoked_sessions: sessionIds.length },
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
  async revokeSession(admin: AdminContext, id: string, sessionId: string, meta: RequestMeta): Promise<void> {
    if (!isId(id)) throw notFound();
    if (!isId(sessionId)) throw noSuchSession();
    await this.dataSource.transaction(async (manager) => {
      const user = await this.users.lockInTenant(manager, admin.tenantId, id);
      if (!user) throw notFound();
      if (!(await this.sessions.revokeOwn(manager, user.id, sessionId, ADMIN_REVOKED, this.clock.now()))) throw noSuchSession();
      await this.sessionsEnded(manager, admin, user, [sessionId], ADMIN_REVOKED, meta);
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
      const revoked = await this.sessions.revokeAllOfUser(manager, user.id, ADMIN_REVOKED, this.clock.now());
      await this.sessionsEnded(manager, admin, user, revoked, ADMIN_REVOKED, meta);
    });
  }

  /**
   * After the sessions `sessionIds` were ended in `manager`'s transaction (revoked, or going with
   * their deleted user): marks them in the shared revocation cache (before commit: a cache failure rolls the change back, and their access
   * tokens are refused from the next request of every instance) and records one `session.revoked`
   * each, with the admin as actor, under the user's project, as the runtime records a sign-out.
   */
  private async sessionsEnded(manager: EntityManager, admin: AdminContext, user: UserRow, sessionIds: string[], reason: string, meta: RequestMeta): Promise<void> {
    await this.tokens.markRevoked(sessionIds);
    await this.events.sessionsRevoked(manager, { tenantId: admin.tenantId, projectId: user.project_id, actorType: 'admin', actorId: admin.userId, meta }, user.id, sessionIds, reason);
  }
}
