import { randomUUID } from 'node:crypto';
import { AuditEvent, OutboxEvent, Session, User } from '@gatehouse/entities';
import {
  createUser,
  expectProblem,
  mintAccessToken,
  seedTenant,
  spawnApp,
  startTestApp,
  type AppProcess,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

interface RuntimeSession {
  sessionId: string;
  accessToken: string;
  /** `service_refresh_token=<token>`, as the browser sends it back. */
  refreshCookie: string;
}

/**
 * The admin ends a user's sessions (one, or all) from the control plane (in process): users sign in
 * through two auth runtimes (real processes sharing PostgreSQL and Redis: apps never import apps),
 * and a revoked session's access token is refused on the next request of either, its refresh token
 * too, while the user's other sessions go on. Each revocation is announced as the runtime's own
 * revoke announces it (`session.revoked`, audit and outbox), with the admin as the actor.
 */
describe('admin user sessions: revoke one or all, refused at once on every runtime', () => {
  let t: TestApp;
  let runtimes: AppProcess[] = [];
  let tenant: SeededTenant;
  let token: string;
  const auth = () => ({ Authorization: `Bearer ${token}`, 'X-Forwarded-For': '192.0.2.44' });
  const revokeOne = (userId: string, sessionId: string, headers: Record<string, string> = auth()) =>
    t.http().delete(`/v1/admin/users/${userId}/sessions/${sessionId}`).set(headers);
  const revokeAll = (userId: string, headers: Record<string, string> = auth()) =>
    t.http().delete(`/v1/admin/users/${userId}/sessions`).set(headers);

  const call = async (
    runtime: AppProcess,
    method: string,
    path: string,
    init: { body?: object; token?: string; cookie?: string } = {},
  ) => {
    const res = await fetch(`http://127.0.0.1:${runtime.port}${path}`, {
      method,
      headers: {
        'X-Service-Project-Key': tenant.projectKey,
        ...(init.body ? { 'Content-Type': 'application/json' } : {}),
        ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
        ...(init.cookie ? { Cookie: init.cookie } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    const text = await res.text();
    return {
      status: res.status,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
      setCookie: res.headers.getSetCookie(),
    };
  };
  const sessionOf = (res: Awaited<ReturnType<typeof call>>): RuntimeSession => {
    const session = res.body!.session as { id: string; access_token: string };
    return {
      sessionId: session.id,
      accessToken: session.access_token,
      refreshCookie: res.setCookie
        .find((c) => c.startsWith('service_refresh_token='))!
        .split(';')[0],
    };
  };
  const password = 'a sturdy passphrase 42';
  async function signUp(
    runtime: AppProcess,
    email: string,
  ): Promise<RuntimeSession & { userId: string }> {
    const res = await call(runtime, 'POST', '/v1/auth/sign-up', { body: { email, password } });
    expect(res.status).toBe(201);
    return { ...sessionOf(res), userId: (res.body!.user as { id: string }).id };
  }
  async function signIn(runtime: AppProcess, email: string): Promise<RuntimeSession> {
    const res = await call(runtime, 'POST', '/v1/auth/sign-in', {
      body: { identifier: email, password },
    });
    expect(res.status).toBe(200);
    return sessionOf(res);
  }
  /** What each runtime answers the session's access token: `/v1/auth/sessions` (its status) and `/me` (whether it names a user). */
  async function seenBy(
    runtime: AppProcess,
    s: RuntimeSession,
  ): Promise<{ sessions: number; me: boolean }> {
    const sessions = await call(runtime, 'GET', '/v1/auth/sessions', { token: s.accessToken });
    if (sessions.status === 401)
      expect(sessions.body!.type).toBe('https://gatehouse.dev/problems/unauthenticated');
    const me = await call(runtime, 'GET', '/v1/auth/me', { token: s.accessToken });
    expect(me.status).toBe(200);
    return { sessions: sessions.status, me: me.body!.user !== null };
  }
  const live = { sessions: 200, me: true };
  const refused = { sessions: 401, me: false };
  const everywhere = (s: RuntimeSession) => Promise.all(runtimes.map((r) => seenBy(r, s)));
  /** Refreshes on the given runtime; returns the status and, on success, the rotated cookie. */
  async function refresh(runtime: AppProcess, s: RuntimeSession): Promise<number> {
    const res = await call(runtime, 'POST', '/v1/auth/refresh', { cookie: s.refreshCookie });
    if (res.status === 200)
      s.refreshCookie = res.setCookie
        .find((c) => c.startsWith('service_refresh_token='))!
        .split(';')[0];
    return res.status;
  }
  const revocationEvents = () =>
    t.dataSource
      .getRepository(AuditEvent)
      .find({ where: { action: 'session.revoked' }, order: { createdAt: 'ASC' } });

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane, { TRUST_PROXY: 'loopback' });
    runtimes = await Promise.all([
      spawnApp('auth-runtime', { RATE_LIMITS_ENABLED: 'false' }),
      spawnApp('auth-runtime', { RATE_LIMITS_ENABLED: 'false' }),
    ]);
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
  });
  afterAll(async () => {
    await Promise.all(runtimes.map((r) => r.stop()));
    await t.close();
  });

  it('revokes one session: its access token is refused on every runtime and its refresh token too; the other session goes on; announced as a sign-out is', async () => {
    const [a, b] = runtimes;
    const first = await signUp(a, 'two-devices@example.com');
    const second = await signIn(b, 'two-devices@example.com');
    // Both runtimes have verified both tokens (and keep them in their caches of verified tokens).
    for (const s of [first, second]) expect(await everywhere(s)).toEqual([live, live]);

    const res = await revokeOne(first.userId, first.sessionId);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');

    expect(await everywhere(first)).toEqual([refused, refused]);
    expect(await everywhere(second)).toEqual([live, live]);
    expect(await refresh(b, first)).toBe(401);
    expect(await refresh(a, second)).toBe(200);
    const listed = await call(a, 'GET', '/v1/auth/sessions', { token: second.accessToken });
    expect(
      (listed.body!.sessions as { id: string; current: boolean }[]).map((s) => [s.id, s.current]),
    ).toEqual([[second.sessionId, true]]);
    const detail = await t.http().get(`/v1/admin/users/${first.userId}`).set(auth());
    expect(detail.body).toMatchObject({
      status: 'active',
      sessions: [expect.objectContaining({ id: second.sessionId })],
    });
    expect(detail.body.sessions).toHaveLength(1);
    const row = await t.dataSource.getRepository(Session).findOneByOrFail({ id: first.sessionId });
    expect([row.revokedAt instanceof Date, row.revokeReason]).toEqual([true, 'admin_revoked']);

    const [event] = await revocationEvents();
    expect(event).toMatchObject({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      actorType: 'admin',
      actorId: tenant.adminUserId,
      action: 'session.revoked',
      resourceType: 'session',
      resourceId: first.sessionId,
      ipAddress: '192.0.2.44',
    });
    expect(event.metadata).toEqual({
      session: { id: first.sessionId, user_id: first.userId },
      reason: 'admin_revoked',
    });
    const outbox = await t.dataSource
      .getRepository(OutboxEvent)
      .findBy({ type: 'session.revoked' });
    expect(outbox.map((o) => [o.tenantId, o.projectId, o.payload])).toEqual([
      [tenant.tenantId, tenant.project.id, event.metadata],
    ]);

    // Already revoked: 404, as the runtime answers the user's own DELETE of an ended session; nothing more is written.
    expectProblem(
      await revokeOne(first.userId, first.sessionId),
      404,
      'not-found',
      `/v1/admin/users/${first.userId}/sessions/${first.sessionId}`,
    );
    expect(
      (
        await call(a, 'DELETE', `/v1/auth/sessions/${first.sessionId}`, {
          token: second.accessToken,
        })
      ).status,
    ).toBe(404);
    expect(await revocationEvents()).toHaveLength(1);

    // The user's own sign-out announces its revocation with the same event: only the actor and the reason differ.
    expect((await call(b, 'POST', '/v1/auth/sign-out', { token: second.accessToken })).status).toBe(
      204,
    );
    const [, own] = await revocationEvents();
    expect(own).toMatchObject({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      actorType: 'user',
      actorId: first.userId,
      resourceType: 'session',
      resourceId: second.sessionId,
    });
    expect(own.metadata).toEqual({
      ...event.metadata,
      session: { id: second.sessionId, user_id: first.userId },
      reason: 'sign_out',
    });
  });

  it('revokes every session of the user: all refused on every runtime, refreshes too; the user stays active and signs in again', async () => {
    const [a, b] = runtimes;
    const first = await signUp(a, 'everywhere@example.com');
    const sessions = [
      first,
      await signIn(b, 'everywhere@example.com'),
      await signIn(a, 'everywhere@example.com'),
    ];
    const bystander = await signUp(b, 'bystander@example.com');
    for (const s of sessions) expect(await everywhere(s)).toEqual([live, live]);

    const res = await revokeAll(first.userId);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');

    for (const s of sessions) expect(await everywhere(s)).toEqual([refused, refused]);
    for (const [i, s] of sessions.entries()) expect(await refresh(runtimes[i % 2], s)).toBe(401);
    expect(await everywhere(bystander)).toEqual([live, live]);
    expect(await refresh(a, bystander)).toBe(200);

    const rows = await t.dataSource.getRepository(Session).findBy({ userId: first.userId });
    expect(rows.map((r) => [r.revokedAt instanceof Date, r.revokeReason])).toEqual(
      sessions.map(() => [true, 'admin_revoked']),
    );
    const user = await t.dataSource.getRepository(User).findOneByOrFail({ id: first.userId });
    expect(user.status).toBe('active');
    expect((await t.http().get(`/v1/admin/users/${first.userId}`).set(auth())).body).toMatchObject({
      status: 'active',
      sessions: [],
    });

    const events = await revocationEvents();
    expect(
      events.map((e) => [e.resourceId, e.projectId, e.actorType, e.actorId, e.metadata]).sort(),
    ).toEqual(
      sessions
        .map((s) => [
          s.sessionId,
          tenant.project.id,
          'admin',
          tenant.adminUserId,
          { session: { id: s.sessionId, user_id: first.userId }, reason: 'admin_revoked' },
        ])
        .sort(),
    );
    expect(
      await t.dataSource
        .getRepository(OutboxEvent)
        .countBy({ type: 'session.revoked', projectId: tenant.project.id }),
    ).toBe(3);

    // Nothing left to revoke: 204 again, nothing written.
    expect((await revokeAll(first.userId)).status).toBe(204);
    expect(await revocationEvents()).toHaveLength(3);

    // The user was only signed out: they sign in again, and the new session works everywhere.
    const again = await signIn(b, 'everywhere@example.com');
    expect(await everywhere(again)).toEqual([live, live]);
    expect(await refresh(a, again)).toBe(200);
  });

  it("answers 404 for another tenant's user or session, another user's session, an unknown or malformed id, and changes nothing", async () => {
    const [a, b] = runtimes;
    const user = await signUp(a, 'target@example.com');
    const other = await signUp(b, 'other-user@example.com');
    const foreignTenant = await seedTenant(t.app, 'Other');
    const foreignUser = await createUser(t.app, foreignTenant.project, 'foreign@example.com');
    const foreignSession = await mintAccessToken(t.app, foreignUser.id);
    const foreignAdmin = {
      Authorization: `Bearer ${(await mintAccessToken(t.app, foreignTenant.adminUserId)).token}`,
    };

    const attempts: [path: string, headers: Record<string, string>][] = [
      // The other tenant's admin, with this tenant's user and session.
      [`/v1/admin/users/${user.userId}/sessions/${user.sessionId}`, foreignAdmin],
      [`/v1/admin/users/${user.userId}/sessions`, foreignAdmin],
      // This tenant's admin, with the other tenant's user and session, or a mix.
      [`/v1/admin/users/${foreignUser.id}/sessions/${foreignSession.sessionId}`, auth()],
      [`/v1/admin/users/${foreignUser.id}/sessions`, auth()],
      [`/v1/admin/users/${user.userId}/sessions/${foreignSession.sessionId}`, auth()],
      // A session of another user of the tenant, under this user.
      [`/v1/admin/users/${user.userId}/sessions/${other.sessionId}`, auth()],
      [`/v1/admin/users/${other.userId}/sessions/${user.sessionId}`, auth()],
      // Unknown and malformed ids.
      [`/v1/admin/users/${user.userId}/sessions/${randomUUID()}`, auth()],
      [`/v1/admin/users/${randomUUID()}/sessions/${user.sessionId}`, auth()],
      [`/v1/admin/users/${randomUUID()}/sessions`, auth()],
      [`/v1/admin/users/${user.userId}/sessions/not-an-id`, auth()],
      [`/v1/admin/users/not-an-id/sessions/${user.sessionId}`, auth()],
      [`/v1/admin/users/not-an-id/sessions`, auth()],
      [`/v1/admin/users/${user.userId}/sessions/%27%20OR%201%3D1`, auth()],
    ];
    for (const [path, headers] of attempts) {
      const res = await t.http().delete(path).set(headers);
      try {
        expectProblem(res, 404, 'not-found', path);
      } catch (err) {
        throw new Error(
          `DELETE ${path} answered ${res.status} ${JSON.stringify(res.body)}: ${(err as Error).message}`,
        );
      }
    }

    for (const s of [user, other]) expect(await everywhere(s)).toEqual([live, live]);
    expect(await refresh(b, user)).toBe(200);
    expect(
      await t.dataSource.query(
        `SELECT count(*)::int AS n FROM sessions WHERE revoked_at IS NOT NULL`,
      ),
    ).toEqual([{ n: 0 }]);
    expect(await revocationEvents()).toEqual([]);
  });

  it("answers 401 without an admin token and 403 to a non-admin (the user's own runtime token), changing nothing", async () => {
    const [a] = runtimes;
    const user = await signUp(a, 'self-service@example.com');
    const plain = { Authorization: `Bearer ${user.accessToken}` };
    for (const path of [
      `/v1/admin/users/${user.userId}/sessions/${user.sessionId}`,
      `/v1/admin/users/${user.userId}/sessions`,
    ]) {
      expectProblem(await t.http().delete(path), 401, 'unauthenticated', path);
      expectProblem(
        await t.http().delete(path).set('Authorization', 'Bearer nope.nope.nope'),
        401,
        'unauthenticated',
        path,
      );
      expectProblem(await t.http().delete(path).set(plain), 403, 'forbidden', path);
    }
    expect(await everywhere(user)).toEqual([live, live]);
    expect(await revocationEvents()).toEqual([]);
  });

  it('answers 405 with Allow to other methods of the new paths', async () => {
    const u = await createUser(t.app, tenant.project, 'methods@example.com');
    const s = await mintAccessToken(t.app, u.id);
    for (const [method, path, allow] of [
      ['get', `/v1/admin/users/${u.id}/sessions/${s.sessionId}`, 'DELETE'],
      ['patch', `/v1/admin/users/${u.id}/sessions/${s.sessionId}`, 'DELETE'],
      ['post', `/v1/admin/users/${u.id}/sessions`, 'DELETE'],
    ] as const) {
      const res = await t.http()[method](path).set(auth());
      expectProblem(res, 405, 'method-not-allowed', path);
      expect(res.headers.allow).toBe(allow);
    }
  });

  it('an admin may end their own sessions, the current one included: its token is refused on the next request', async () => {
    const other = await mintAccessToken(t.app, tenant.adminUserId);
    expect((await revokeOne(tenant.adminUserId, other.sessionId)).status).toBe(204);
    expectProblem(
      await t.http().get('/v1/admin/users').set('Authorization', `Bearer ${other.token}`),
      401,
      'unauthenticated',
    );
    expect((await t.http().get('/v1/admin/users').set(auth())).status).toBe(200);
    expect((await revokeAll(tenant.adminUserId)).status).toBe(204);
    expectProblem(await t.http().get('/v1/admin/users').set(auth()), 401, 'unauthenticated');
    expect(
      (await t.dataSource.getRepository(User).findOneByOrFail({ id: tenant.adminUserId })).status,
    ).toBe('active');
  });
});
