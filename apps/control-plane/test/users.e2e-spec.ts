import {
  AuditEvent,
  MfaFactor,
  Organization,
  OrganizationMember,
  OutboxEvent,
  PasswordCredential,
  Session,
  User,
} from '@gatehouse/entities';
import { AccessTokensService, LockoutService, SecondFactorLockout } from '@gatehouse/identity';
import { ProblemError } from '@gatehouse/problem-details';
import {
  createUser,
  eventually,
  expectProblem,
  mintAccessToken,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

describe('admin users: list and search, get, patch status and metadata, delete', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let token: string;
  const auth = () => ({ Authorization: `Bearer ${token}`, 'X-Forwarded-For': '192.0.2.44' });
  const get = (path: string) => t.http().get(path).set(auth());
  const ids = (body: { users: { id: string }[] }) => body.users.map((u) => u.id);

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane, { TRUST_PROXY: 'loopback' });
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
  });
  afterAll(() => t.close());

  async function user(email: string, username: string | null = null): Promise<User> {
    const u = await createUser(t.app, tenant.project, email);
    if (username) await t.dataSource.getRepository(User).update({ id: u.id }, { username });
    return t.dataSource.getRepository(User).findOneByOrFail({ id: u.id });
  }

  it("lists the tenant's users newest first with the admin user resource and pagination", async () => {
    const a = await user('ada@example.com', 'ada');
    await t.dataSource.getRepository(MfaFactor).save([
      {
        tenantId: tenant.tenantId,
        projectId: tenant.project.id,
        userId: a.id,
        type: 'totp',
        status: 'enabled',
        secretEncrypted: 'x',
      },
      {
        tenantId: tenant.tenantId,
        projectId: tenant.project.id,
        userId: a.id,
        type: 'sms',
        status: 'pending',
        phoneNumber: '+15550100',
      },
    ]);
    const res = await get('/v1/admin/users');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 2 });
    const listed = res.body.users.find((u: { id: string }) => u.id === a.id);
    expect(listed).toEqual({
      id: a.id,
      project_id: tenant.project.id,
      email: 'ada@example.com',
      email_verified: false,
      username: 'ada',
      status: 'active',
      is_admin: false,
      metadata: {},
      mfa_factors: ['totp'],
      created_at: a.createdAt.toISOString(),
      updated_at: expect.any(String),
      last_sign_in_at: null,
    });
    expect(res.body.users.find((u: { id: string }) => u.id === tenant.adminUserId)).toMatchObject({
      is_admin: true,
      project_id: tenant.consoleProjectId,
    });

    for (let i = 0; i < 5; i++) await user(`bulk${i}@example.com`);
    const p1 = await get('/v1/admin/users?limit=3');
    const p2 = await get('/v1/admin/users?limit=3&page=2');
    const p3 = await get('/v1/admin/users?limit=3&page=3');
    expect(p1.body.pagination).toEqual({ page: 1, limit: 3, total: 7 });
    const all = [...ids(p1.body), ...ids(p2.body), ...ids(p3.body)];
    expect(all).toHaveLength(7);
    expect(new Set(all).size).toBe(7);
    const created = (await get('/v1/admin/users?limit=100')).body.users.map(
      (u: { created_at: string }) => u.created_at,
    );
    expect([...created].sort().reverse()).toEqual(created);
  });

  it('searches email and username case-insensitively and literally, and filters by project', async () => {
    const percent = await user('100%off@example.com');
    const underscore = await user('a_b@example.com');
    const quote = await user("o'brien@example.com");
    const backslash = await user('back\\slash@example.com');
    const plain = await user('aXb@example.com', 'grace.hopper');
    const q = async (s: string) =>
      ids((await get(`/v1/admin/users?q=${encodeURIComponent(s)}`)).body).sort();

    expect(await q('%')).toEqual([percent.id]);
    expect(await q('_')).toEqual([underscore.id]);
    expect(await q("'")).toEqual([quote.id]);
    expect(await q('\\')).toEqual([backslash.id]);
    expect(await q('a_b')).toEqual([underscore.id]);
    expect(await q('GRACE')).toEqual([plain.id]);
    expect(await q('AXB@')).toEqual([plain.id]);
    expect(await q('%%')).toEqual([]);
    expect(await q("' OR 1=1 --")).toEqual([]);
    expect((await get('/v1/admin/users?q=example.com&limit=2')).body.pagination).toEqual({
      page: 1,
      limit: 2,
      total: 5,
    });

    const byConsole = await get(`/v1/admin/users?project_id=${tenant.consoleProjectId}`);
    expect(ids(byConsole.body)).toEqual([tenant.adminUserId]);
    const combined = await get(`/v1/admin/users?project_id=${tenant.project.id}&q=brien`);
    expect(ids(combined.body)).toEqual([quote.id]);
    expect((await get('/v1/admin/users?project_id=not-a-uuid')).body).toEqual({
      users: [],
      pagination: { page: 1, limit: 20, total: 0 },
    });
  });

  it('never lists or finds users of another tenant', async () => {
    const other = await seedTenant(t.app, 'Other');
    const foreign = await createUser(t.app, other.project, 'foreign@example.com');
    const mine = await user('mine@example.com');
    expect(ids((await get('/v1/admin/users?limit=100')).body).sort()).toEqual(
      [tenant.adminUserId, mine.id].sort(),
    );
    expect((await get('/v1/admin/users?q=foreign')).body.users).toEqual([]);
    expect((await get(`/v1/admin/users?project_id=${other.project.id}`)).body.users).toEqual([]);
    expectProblem(
      await get(`/v1/admin/users/${foreign.id}`),
      404,
      'not-found',
      `/v1/admin/users/${foreign.id}`,
    );
  });

  it('refuses bad list parameters', async () => {
    for (const query of [
      'limit=0',
      'limit=101',
      'page=0',
      'page=-1',
      'limit=abc',
      'q=a&q=b',
      `q=${'x'.repeat(300)}`,
      'project_id=a&project_id=b',
    ]) {
      expectProblem(
        await get(`/v1/admin/users?${query}`),
        400,
        'validation-error',
        '/v1/admin/users',
      );
    }
  });

  it('gets a user with their active sessions and organizations', async () => {
    const u = await user('sess@example.com');
    const s1 = await mintAccessToken(t.app, u.id);
    const s2 = await mintAccessToken(t.app, u.id);
    await t.dataSource
      .getRepository(Session)
      .update({ id: s2.sessionId }, { revokedAt: new Date() });
    const org = await t.dataSource.getRepository(Organization).save({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      name: 'Team',
      slug: 'team',
      metadata: {},
    });
    await t.dataSource
      .getRepository(OrganizationMember)
      .save({ organizationId: org.id, userId: u.id, tenantId: tenant.tenantId, role: 'admin' });

    const res = await get(`/v1/admin/users/${u.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({
      id: u.id,
      email: 'sess@example.com',
      status: 'active',
      mfa_factors: [],
      locked_until: null,
    });
    expect(res.body.sessions).toEqual([
      {
        id: s1.sessionId,
        auth_method: 'password',
        ip_address: null,
        user_agent: null,
        created_at: expect.any(String),
        last_active_at: expect.any(String),
        expires_at: expect.any(String),
        impersonator_id: null,
      },
    ]);
    expect(res.body.sessions[0].last_active_at).toBe(res.body.sessions[0].created_at);
    // Refreshed since (the auth runtime rotated its chain): last active at that refresh.
    const refreshedAt = new Date(Date.parse(res.body.sessions[0].created_at) + 3_600_000);
    await t.dataSource.query(
      `INSERT INTO refresh_chains (session_id, generation, token_hash, expires_at, rotated_at) VALUES ($1, 1, 'h', $2::timestamptz + interval '7 days', $2)`,
      [s1.sessionId, refreshedAt],
    );
    expect((await get(`/v1/admin/users/${u.id}`)).body.sessions[0].last_active_at).toBe(
      refreshedAt.toISOString(),
    );
    expect(res.body.organizations).toEqual([
      { id: org.id, name: 'Team', slug: 'team', role: 'admin', joined_at: expect.any(String) },
    ]);
    expectProblem(await get('/v1/admin/users/not-an-id'), 404, 'not-found');
  });

  it("disabling revokes every session at once (database and tokens), audited under the user's project", async () => {
    const u = await user('dis@example.com');
    const s1 = await mintAccessToken(t.app, u.id);
    const s2 = await mintAccessToken(t.app, u.id);
    const tokens = t.app.get(AccessTokensService);
    expect(await tokens.verify(s1.token)).not.toBeNull();

    const res = await t
      .http()
      .patch(`/v1/admin/users/${u.id}`)
      .set(auth())
      .send({ status: 'disabled' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: u.id, status: 'disabled', sessions: [] });
    expect(await tokens.verify(s1.token)).toBeNull();
    expect(await tokens.verify(s2.token)).toBeNull();
    const sessions = await t.dataSource.getRepository(Session).findBy({ userId: u.id });
    expect(sessions.map((s) => [s.revokedAt instanceof Date, s.revokeReason])).toEqual([
      [true, 'user_disabled'],
      [true, 'user_disabled'],
    ]);
    expect((await t.dataSource.getRepository(User).findOneByOrFail({ id: u.id })).status).toBe(
      'disabled',
    );
    const audit = await t.dataSource
      .getRepository(AuditEvent)
      .findOneByOrFail({ action: 'user.updated' });
    expect(audit).toMatchObject({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      actorType: 'admin',
      actorId: tenant.adminUserId,
      resourceType: 'user',
      resourceId: u.id,
      ipAddress: '192.0.2.44',
    });
    expect(audit.metadata).toMatchObject({
      changed: ['status'],
      status: 'disabled',
      previous_status: 'active',
      revoked_sessions: 2,
    });
    expect(
      await t.dataSource
        .getRepository(OutboxEvent)
        .countBy({ type: 'user.updated', projectId: tenant.project.id }),
    ).toBe(1);
    // Each revoked session is announced, as a sign-out is.
    const revocations = await t.dataSource
      .getRepository(AuditEvent)
      .findBy({ action: 'session.revoked' });
    expect(revocations.map((e) => [e.resourceId, e.actorType, e.metadata.reason]).sort()).toEqual(
      sessions.map((s) => [s.id, 'admin', 'user_disabled']).sort(),
    );
    expect(
      await t.dataSource
        .getRepository(OutboxEvent)
        .countBy({ type: 'session.revoked', projectId: tenant.project.id }),
    ).toBe(2);
  });

  it('shows while a lock holds when it ends (password by email or username, or second factor), and re-activating unlocks it', async () => {
    const u = await user('locked@example.com', 'locky');
    const lockout = t.app.get(LockoutService);
    const fail = async () =>
      (await lockout.beginAttempt(tenant.project.id, 'locked@example.com')).failed();
    const lockedUntil = async () =>
      (await get(`/v1/admin/users/${u.id}`)).body.locked_until as string | null;
    expect(await lockedUntil()).toBeNull();
    // Four failures lock nothing yet.
    for (let i = 0; i < 4; i++) await fail();
    expect(await lockedUntil()).toBeNull();
    const firstLock = await fail();
    expect(await lockedUntil()).toBe(firstLock!.toISOString());
    const locked = async (identifier: string) => {
      try {
        await (await lockout.beginAttempt(tenant.project.id, identifier)).release();
        return false;
      } catch (err) {
        if (err instanceof ProblemError && err.slug === 'account-locked') return true;
        throw err;
      }
    };
    expect(await locked('LOCKED@example.com')).toBe(true);
    await t.http().patch(`/v1/admin/users/${u.id}`).set(auth()).send({ status: 'disabled' });

    const res = await t
      .http()
      .patch(`/v1/admin/users/${u.id}`)
      .set(auth())
      .send({ status: 'active' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'active', locked_until: null });
    expect(await locked('locked@example.com')).toBe(false);
    // The level was reset too: the next lock is a first lock again (15 minutes, not 30).
    let until: Date | null = null;
    for (let i = 0; i < 5; i++) until = await fail();
    const lockMs = until!.getTime() - t.clock.nowMs();
    expect(lockMs).toBeGreaterThan(14 * 60_000);
    expect(lockMs).toBeLessThanOrEqual(15 * 60_000);
    // A lock ends by itself: then none is shown (a new admin token: the clock passed the old one's lifetime).
    t.clock.advance(15 * 60_000 + 1000);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
    expect(await lockedUntil()).toBeNull();

    // The username's lock and the second factor's count too; the later end is shown.
    for (let i = 0; i < 5; i++)
      await (await lockout.beginAttempt(tenant.project.id, 'LOCKY')).failed();
    const byUsername = await lockedUntil();
    expect(Date.parse(byUsername!)).toBeGreaterThan(t.clock.nowMs());
    t.clock.advance(15 * 60_000 + 1000);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
    const factorLockout = t.app.get(SecondFactorLockout);
    let factorLock: Date | null = null;
    for (let i = 0; i < 10; i++)
      factorLock = await (await factorLockout.beginAttempt(tenant.project.id, u.id)).failed();
    expect(await lockedUntil()).toBe(factorLock!.toISOString());
  });

  it('replaces metadata and refuses unknown, forbidden and invalid fields without changing anything', async () => {
    const u = await user('meta@example.com');
    const ok = await t
      .http()
      .patch(`/v1/admin/users/${u.id}`)
      .set(auth())
      .send({ metadata: { plan: 'pro', seats: 3 } });
    expect(ok.status).toBe(200);
    expect(ok.body.metadata).toEqual({ plan: 'pro', seats: 3 });
    const replaced = await t
      .http()
      .patch(`/v1/admin/users/${u.id}`)
      .set(auth())
      .send({ metadata: { tier: 1 } });
    expect(replaced.body.metadata).toEqual({ tier: 1 });

    const cases: [object, string][] = [
      [{ id: '00000000-0000-0000-0000-000000000000' }, 'id'],
      [{ tenant_id: tenant.tenantId }, 'tenant_id'],
      [{ is_admin: true }, 'is_admin'],
      [{ password_hash: '$2b$10$abc' }, 'password_hash'],
      [{ email: 'new@example.com' }, 'email'],
      [{ project_id: tenant.consoleProjectId }, 'project_id'],
      [JSON.parse('{"__proto__":{"is_admin":true}}') as object, '__proto__'],
      [{ metadata: { constructor: { prototype: { x: 1 } } } }, 'metadata.constructor'],
      [{ status: 'banned' }, 'status'],
      [{ status: null }, 'status'],
      [{ metadata: [1, 2] }, 'metadata'],
      [{ metadata: 'x' }, 'metadata'],
      [{ metadata: { big: 'x'.repeat(9000) } }, 'metadata'],
    ];
    for (const [body, field] of cases) {
      const problem = expectProblem(
        await t.http().patch(`/v1/admin/users/${u.id}`).set(auth()).send(body),
        400,
        'validation-error',
      );
      expect(Object.keys(problem.errors as object)).toContain(field);
    }
    const row = await t.dataSource.getRepository(User).findOneByOrFail({ id: u.id });
    expect(row).toMatchObject({
      isAdmin: false,
      status: 'active',
      email: 'meta@example.com',
      metadata: { tier: 1 },
    });
    expect(await t.dataSource.getRepository(AuditEvent).countBy({ action: 'user.updated' })).toBe(
      2,
    );
  });

  it('an admin cannot disable or delete their own account', async () => {
    expectProblem(
      await t
        .http()
        .patch(`/v1/admin/users/${tenant.adminUserId}`)
        .set(auth())
        .send({ status: 'disabled' }),
      409,
      'conflict',
    );
    expectProblem(
      await t.http().delete(`/v1/admin/users/${tenant.adminUserId}`).set(auth()),
      409,
      'conflict',
    );
    expect(
      (await t.dataSource.getRepository(User).findOneByOrFail({ id: tenant.adminUserId })).status,
    ).toBe('active');
  });

  it("deleting cascades (credentials, sessions, memberships) and revokes the sessions' tokens at once", async () => {
    const u = await user('gone@example.com');
    const s = await mintAccessToken(t.app, u.id);
    const org = await t.dataSource.getRepository(Organization).save({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      name: 'T',
      slug: 't',
      metadata: {},
    });
    await t.dataSource
      .getRepository(OrganizationMember)
      .save({ organizationId: org.id, userId: u.id, tenantId: tenant.tenantId, role: 'member' });

    const res = await t.http().delete(`/v1/admin/users/${u.id}`).set(auth());
    expect(res.status).toBe(204);
    expect(await t.app.get(AccessTokensService).verify(s.token)).toBeNull();
    expect(await t.dataSource.getRepository(User).countBy({ id: u.id })).toBe(0);
    expect(await t.dataSource.getRepository(Session).countBy({ userId: u.id })).toBe(0);
    expect(await t.dataSource.getRepository(PasswordCredential).countBy({ userId: u.id })).toBe(0);
    expect(await t.dataSource.getRepository(OrganizationMember).countBy({ userId: u.id })).toBe(0);
    const audit = await t.dataSource
      .getRepository(AuditEvent)
      .findOneByOrFail({ action: 'user.deleted' });
    expect(audit).toMatchObject({
      projectId: tenant.project.id,
      actorType: 'admin',
      actorId: tenant.adminUserId,
      resourceId: u.id,
    });
    expectProblem(await t.http().delete(`/v1/admin/users/${u.id}`).set(auth()), 404, 'not-found');
    expectProblem(await get(`/v1/admin/users/${u.id}`), 404, 'not-found');
  });

  it('refuses to delete the last admin of an organization (409, nothing changes); with another admin it deletes', async () => {
    const [lead, second] = [await user('lead@example.com'), await user('second@example.com')];
    const orgs = t.dataSource.getRepository(Organization);
    const solo = await orgs.save({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      name: 'Solo',
      slug: 'solo',
      metadata: {},
    });
    const shared = await orgs.save({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      name: 'Shared',
      slug: 'shared',
      metadata: {},
    });
    const members = t.dataSource.getRepository(OrganizationMember);
    await members.save([
      { organizationId: solo.id, userId: lead.id, tenantId: tenant.tenantId, role: 'admin' },
      { organizationId: solo.id, userId: second.id, tenantId: tenant.tenantId, role: 'member' },
      { organizationId: shared.id, userId: lead.id, tenantId: tenant.tenantId, role: 'admin' },
      { organizationId: shared.id, userId: second.id, tenantId: tenant.tenantId, role: 'admin' },
    ]);
    const s = await mintAccessToken(t.app, lead.id);

    const refused = expectProblem(
      await t.http().delete(`/v1/admin/users/${lead.id}`).set(auth()),
      409,
      'conflict',
    );
    expect(refused.detail).toContain('"Solo"');
    expect(refused.organization_ids).toEqual([solo.id]);
    expect(await t.dataSource.getRepository(User).countBy({ id: lead.id })).toBe(1);
    expect(await members.countBy({ userId: lead.id })).toBe(2);
    expect(await t.app.get(AccessTokensService).verify(s.token)).not.toBeNull();
    expect(await t.dataSource.getRepository(AuditEvent).countBy({ action: 'user.deleted' })).toBe(
      0,
    );

    await t
      .http()
      .patch(`/v1/admin/organizations/${solo.id}/members/${second.id}`)
      .set(auth())
      .send({ role: 'admin' })
      .expect(200);
    expect((await t.http().delete(`/v1/admin/users/${lead.id}`).set(auth())).status).toBe(204);
    expect(await members.findBy({ userId: second.id })).toHaveLength(2);
  });

  it('sees a promotion committed while the delete waited for the organization: the new last admin is not deleted', async () => {
    const [member, admin] = [
      await user('rising@example.com'),
      await user('stepping-down@example.com'),
    ];
    const org = await t.dataSource.getRepository(Organization).save({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      name: 'Race',
      slug: 'race',
      metadata: {},
    });
    await t.dataSource.getRepository(OrganizationMember).save([
      { organizationId: org.id, userId: member.id, tenantId: tenant.tenantId, role: 'member' },
      { organizationId: org.id, userId: admin.id, tenantId: tenant.tenantId, role: 'admin' },
    ]);
    // A member change in progress holds the organization, as the members service does.
    const change = t.dataSource.createQueryRunner();
    await change.connect();
    await change.startTransaction();
    await change.query(`SELECT id FROM organizations WHERE id = $1 FOR UPDATE`, [org.id]);
    const deleting = t
      .http()
      .delete(`/v1/admin/users/${member.id}`)
      .set(auth())
      .then((r) => r);
    await eventually(
      async () =>
        (await t.dataSource.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`))[0]
          .n > 0,
    );
    await change.query(
      `UPDATE organization_members SET role = CASE WHEN user_id = $2 THEN 'admin' ELSE 'member' END WHERE organization_id = $1`,
      [org.id, member.id],
    );
    await change.commitTransaction();
    await change.release();

    expectProblem(await deleting, 409, 'conflict');
    expect(
      await t.dataSource
        .getRepository(OrganizationMember)
        .findBy({ organizationId: org.id, role: 'admin' }),
    ).toEqual([expect.objectContaining({ userId: member.id })]);
  });
});
