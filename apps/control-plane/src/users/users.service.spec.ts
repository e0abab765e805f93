import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '@gatehouse/config';
import type {
  AccessTokensService,
  EventRecorder,
  LockoutService,
  OneTimeTokensRepository,
  PasswordHasher,
  PasswordPolicy,
  ProjectsRepository,
  SecondFactorLockout,
  SessionsRepository,
  UsersRepository,
} from '@gatehouse/identity';
import { SessionRevocation } from '@gatehouse/identity';
import type { MailQueue } from '@gatehouse/queue';
import type { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import type { OrganizationMembersRepository } from '@gatehouse/organizations';
import type { UserFactors } from './user-factors';
import { UsersService } from './users.service';

/** The services of the support operations (create, reset mail, factors), which these tests do not reach. */
const unusedSupportServices = () =>
  [
    {} as ProjectsRepository,
    {} as PasswordPolicy,
    {} as PasswordHasher,
    {} as OneTimeTokensRepository,
    {} as UserFactors,
    {} as MailQueue,
    {} as AppConfig,
  ] as const;

type Membership = {
  organization_id: string;
  name: string;
  role: 'admin' | 'member';
  other_admins: number;
};

/**
 * The rules of deleting a user, with fake repositories: who may not be deleted (oneself, the last
 * admin of an organization), what a delete ends (sessions, the row), and how a membership that
 * appears between the two locks is handled (start over, at most three times).
 */
describe('UsersService.delete decides on what the locked rows say', () => {
  const admin = {
    tenantId: randomUUID(),
    userId: randomUUID(),
    sessionId: randomUUID(),
    consoleProjectId: randomUUID(),
  };
  const meta = { ip: null, userAgent: null };
  const target = { id: randomUUID(), project_id: randomUUID(), email: 'someone@example.com' };

  let lockedOrganizations: string[][];
  let memberships: Membership[][];
  let deleted: string[];
  let marked: string[][];
  let actions: string[];
  let service: UsersService;

  beforeEach(() => {
    lockedOrganizations = [];
    memberships = [];
    deleted = [];
    marked = [];
    actions = [];
    const members = {
      lockOrganizationsOf: async () => lockedOrganizations.shift() ?? [],
      membershipsWithOtherAdmins: async () => memberships.shift() ?? [],
    } as unknown as OrganizationMembersRepository;
    const users = {
      lockInTenant: async (_m: EntityManager, tenantId: string, id: string) =>
        tenantId === admin.tenantId && id === target.id ? target : null,
      delete: async (_m: EntityManager, id: string) => void deleted.push(id),
    } as unknown as UsersRepository;
    const sessions = { unrevokedIds: async () => ['s1', 's2'] } as unknown as SessionsRepository;
    const tokens = {
      markRevoked: async (ids: string[]) => void marked.push(ids),
    } as unknown as AccessTokensService;
    const events = {
      record: async (_m: EntityManager, e: { action: string }) => void actions.push(e.action),
      sessionsRevoked: async (_m: EntityManager, _by: unknown, _userId: string, ids: string[]) =>
        void actions.push(`sessions.revoked:${ids.length}`),
    } as unknown as EventRecorder;
    const dataSource = {
      transaction: async (work: (m: EntityManager) => Promise<unknown>) =>
        work({} as EntityManager),
    } as unknown as DataSource;
    service = new UsersService(
      dataSource,
      users,
      sessions,
      members,
      new SessionRevocation(sessions, tokens, events, {} as Clock),
      {} as LockoutService,
      {} as SecondFactorLockout,
      events,
      {} as Clock,
      ...unusedSupportServices(),
    );
  });

  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      () => 'deleted',
      (e: unknown) => (e instanceof ProblemError ? `${e.slug}: ${e.message}` : String(e)),
    );

  it('deletes a user: their sessions are marked revoked before the row goes, and both are audited', async () => {
    const org = randomUUID();
    lockedOrganizations.push([org]);
    memberships.push([{ organization_id: org, name: 'Acme', role: 'admin', other_admins: 1 }]);
    expect(await outcome(service.delete(admin, target.id, meta))).toBe('deleted');
    expect(marked).toEqual([['s1', 's2']]);
    expect(deleted).toEqual([target.id]);
    expect(actions).toEqual(['sessions.revoked:2', 'user.deleted']);
  });

  it('refuses to delete the last admin of an organization, naming it, and deletes nothing', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    lockedOrganizations.push([a, b]);
    memberships.push([
      { organization_id: a, name: 'Acme', role: 'admin', other_admins: 0 },
      { organization_id: b, name: 'Globex', role: 'member', other_admins: 0 },
    ]);
    const err = await service.delete(admin, target.id, meta).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProblemError);
    expect((err as ProblemError).slug).toBe('conflict');
    expect((err as ProblemError).message).toContain('"Acme"');
    expect((err as ProblemError).message).not.toContain('Globex');
    expect((err as ProblemError).options.extensions).toEqual({ organization_ids: [a] });
    expect(deleted).toEqual([]);
    expect(marked).toEqual([]);
  });

  it('refuses to delete oneself, and answers 404 for a malformed or unknown id', async () => {
    expect(await outcome(service.delete(admin, admin.userId, meta))).toBe(
      'conflict: You cannot delete your own account.',
    );
    expect(await outcome(service.delete(admin, 'not-an-id', meta))).toBe(
      'not-found: No such user.',
    );
    expect(
      await outcome(service.delete({ ...admin, tenantId: randomUUID() }, target.id, meta)),
    ).toBe('not-found: No such user.');
    expect(deleted).toEqual([]);
  });

  it('starts over when a membership appeared between locking the organizations and the user, at most three times', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    // First pass: a membership of `b` appeared after the organizations were locked; the second pass locks it.
    lockedOrganizations.push([a], [a, b]);
    memberships.push(
      [
        { organization_id: a, name: 'A', role: 'member', other_admins: 1 },
        { organization_id: b, name: 'B', role: 'member', other_admins: 1 },
      ],
      [
        { organization_id: a, name: 'A', role: 'member', other_admins: 1 },
        { organization_id: b, name: 'B', role: 'member', other_admins: 1 },
      ],
    );
    expect(await outcome(service.delete(admin, target.id, meta))).toBe('deleted');
    expect(deleted).toEqual([target.id]);

    deleted.length = 0;
    for (let i = 0; i < 3; i++) {
      lockedOrganizations.push([]);
      memberships.push([{ organization_id: b, name: 'B', role: 'member', other_admins: 1 }]);
    }
    expect(await outcome(service.delete(admin, target.id, meta))).toBe(
      "conflict: The user's organizations changed while deleting; try again.",
    );
    expect(deleted).toEqual([]);
  });
});

/**
 * The admin's session routes, with fake repositories: which session ends (the user's, live, in the
 * admin's tenant, by the repository's rule), that its cache mark and its event follow, and that a
 * refused request touches nothing.
 */
describe("UsersService ends sessions by the rule of the runtime's own revoke", () => {
  const admin = {
    tenantId: randomUUID(),
    userId: randomUUID(),
    sessionId: randomUUID(),
    consoleProjectId: randomUUID(),
  };
  const meta = { ip: '192.0.2.1', userAgent: null };
  const target = { id: randomUUID(), project_id: randomUUID(), email: 'someone@example.com' };
  const [mine, ended] = [randomUUID(), randomUUID()];

  let steps: string[];
  let service: UsersService;

  beforeEach(() => {
    steps = [];
    const users = {
      lockInTenant: async (_m: EntityManager, tenantId: string, id: string) =>
        tenantId === admin.tenantId && id === target.id ? target : null,
    } as unknown as UsersRepository;
    const sessions = {
      // The repository's rule: the user's and not yet revoked.
      revokeOwn: async (_m: EntityManager, userId: string, sessionId: string, reason: string) => {
        steps.push(`revokeOwn:${reason}`);
        return userId === target.id && sessionId === mine ? { id: mine } : null;
      },
      revokeAllOfUser: async (_m: EntityManager, userId: string, reason: string) => {
        steps.push(`revokeAllOfUser:${reason}`);
        return userId === target.id ? [mine, ended] : [];
      },
    } as unknown as SessionsRepository;
    const tokens = {
      markRevoked: async (ids: string[]) => void steps.push(`markRevoked:${ids.join(',')}`),
    } as unknown as AccessTokensService;
    const events = {
      sessionsRevoked: async (
        _m: EntityManager,
        by: { projectId: string; actorType: string; actorId: string },
        userId: string,
        ids: string[],
        reason: string,
      ) =>
        void steps.push(
          `sessionsRevoked:${by.actorType}:${by.actorId === admin.userId}:${by.projectId === target.project_id}:${userId === target.id}:${ids.join(',')}:${reason}`,
        ),
    } as unknown as EventRecorder;
    const dataSource = {
      transaction: async (work: (m: EntityManager) => Promise<unknown>) =>
        work({} as EntityManager),
    } as unknown as DataSource;
    const clock = { now: () => new Date() } as unknown as Clock;
    service = new UsersService(
      dataSource,
      users,
      sessions,
      {} as OrganizationMembersRepository,
      new SessionRevocation(sessions, tokens, events, clock),
      {} as LockoutService,
      {} as SecondFactorLockout,
      events,
      clock,
      ...unusedSupportServices(),
    );
  });

  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (e: unknown) => (e instanceof ProblemError ? `${e.slug}: ${e.message}` : String(e)),
    );

  it("ends one session of the user: the row, then the cache mark, then one session.revoked by the admin under the user's project", async () => {
    expect(await outcome(service.revokeSession(admin, target.id, mine, meta))).toBe('ok');
    expect(steps).toEqual([
      'revokeOwn:admin_revoked',
      `markRevoked:${mine}`,
      `sessionsRevoked:admin:true:true:true:${mine}:admin_revoked`,
    ]);
  });

  it("answers 404 for a session the rule refuses (another user's, or ended), a malformed id, or a user of another tenant, and marks nothing", async () => {
    expect(await outcome(service.revokeSession(admin, target.id, ended, meta))).toBe(
      'not-found: No such session.',
    );
    expect(await outcome(service.revokeSession(admin, target.id, 'not-an-id', meta))).toBe(
      'not-found: No such session.',
    );
    expect(await outcome(service.revokeSession(admin, 'not-an-id', mine, meta))).toBe(
      'not-found: No such user.',
    );
    expect(
      await outcome(
        service.revokeSession({ ...admin, tenantId: randomUUID() }, target.id, mine, meta),
      ),
    ).toBe('not-found: No such user.');
    expect(
      await outcome(service.revokeSessions({ ...admin, tenantId: randomUUID() }, target.id, meta)),
    ).toBe('not-found: No such user.');
    expect(steps).toEqual(['revokeOwn:admin_revoked']);
  });

  it('ends every live session of the user, each announced', async () => {
    expect(await outcome(service.revokeSessions(admin, target.id, meta))).toBe('ok');
    expect(steps).toEqual([
      'revokeAllOfUser:admin_revoked',
      `markRevoked:${mine},${ended}`,
      `sessionsRevoked:admin:true:true:true:${mine},${ended}:admin_revoked`,
    ]);
  });
});
