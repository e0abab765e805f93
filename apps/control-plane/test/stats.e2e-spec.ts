import request from 'supertest';
import { AuditEvent, Session } from '@gatehouse/entities';
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

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const utcMidnight = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());

/**
 * `GET /v1/admin/stats` (docs/admin-api.md#stats): sign-ins, sign-ups, failures and lockouts made
 * on the auth runtime (a real process: apps never import apps), counted per UTC day and project of
 * the admin's tenant only; the window follows the control plane's clock.
 */
describe('admin stats: the Overview aggregate', () => {
  let t: TestApp;
  let runtime: AppProcess;
  let tenant: SeededTenant;
  let other: SeededTenant;
  let token: string;
  const auth = () => ({ Authorization: `Bearer ${token}` });
  const stats = (qs = '') => t.http().get(`/v1/admin/stats${qs}`).set(auth());
  const rt = () => request(`http://127.0.0.1:${runtime.port}`);
  const signUp = async (key: string, email: string) => {
    const res = await rt()
      .post('/v1/auth/sign-up')
      .set('X-Service-Project-Key', key)
      .send({ email, password: 'a sturdy passphrase 42' });
    expect(res.status).toBe(201);
    return res.body as { user: { id: string }; session: { id: string; access_token: string } };
  };
  const signIn = (key: string, identifier: string, password: string) =>
    rt().post('/v1/auth/sign-in').set('X-Service-Project-Key', key).send({ identifier, password });
  const zeroDeliveries = { succeeded: 0, failed: 0, pending: 0, success_rate: null };

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane);
    runtime = await spawnApp('auth-runtime', { RATE_LIMITS_ENABLED: 'false' });
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    other = await seedTenant(t.app, 'Other');
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
  });
  afterAll(async () => {
    await runtime.stop();
    await t.close();
  });

  it('counts real sign-ups, sign-ins, failed sign-ins and a lockout per day and project, and the live sessions', async () => {
    const second = await t.http().post('/v1/admin/projects').set(auth()).send({ name: 'Second' });
    expect(second.status).toBe(201);
    // Application project: two sign-ups (each opens a session), one sign-in, five wrong passwords (the
    // fifth locks), then the right one refused while locked: six failed sign-ins (reason locked, docs/api-contract.md §13).
    const ada = await signUp(tenant.projectKey, 'ada@example.com');
    await signUp(tenant.projectKey, 'bob@example.com');
    expect(
      (await signIn(tenant.projectKey, 'ada@example.com', 'a sturdy passphrase 42')).status,
    ).toBe(200);
    for (let i = 0; i < 5; i++)
      expect((await signIn(tenant.projectKey, 'bob@example.com', 'wrong password')).status).toBe(
        401,
      );
    expect(
      (await signIn(tenant.projectKey, 'bob@example.com', 'a sturdy passphrase 42')).status,
    ).toBe(429);
    // A sign-out ends a session; an expired session is not live either.
    expect(
      (
        await rt()
          .post('/v1/auth/sign-out')
          .set('X-Service-Project-Key', tenant.projectKey)
          .set('Authorization', `Bearer ${ada.session.access_token}`)
      ).status,
    ).toBe(204);
    // Second project: one sign-up, whose session has expired. Console: the admin signs in.
    const cy = await signUp(second.body.publishable_key as string, 'cy@example.com');
    await t.dataSource
      .getRepository(Session)
      .update({ id: cy.session.id }, { expiresAt: new Date(Date.now() - 1000) });
    expect((await signIn(tenant.consoleKey, tenant.adminEmail, tenant.adminPassword)).status).toBe(
      200,
    );
    // A user the system provisions is no sign-up (seedTenant's admins were provisioned too).
    await createUser(t.app, tenant.project, 'provisioned@example.com');
    // The other tenant's activity is never counted.
    await signUp(other.projectKey, 'eve@example.com');
    for (let i = 0; i < 5; i++) await signIn(other.projectKey, 'eve@example.com', 'wrong password');
    await signIn(other.consoleKey, other.adminEmail, other.adminPassword);

    const res = await stats();
    expect(res.status).toBe(200);
    const today = res.body.to as string;
    expect([day(Date.now() - 60_000), day(Date.now())]).toContain(today);
    const app = {
      date: today,
      project_id: tenant.project.id,
      sign_ins: 3,
      sign_ups: 2,
      failed_sign_ins: 6,
      lockouts: 1,
    };
    const consoleRow = {
      date: today,
      project_id: tenant.consoleProjectId,
      sign_ins: 1,
      sign_ups: 0,
      failed_sign_ins: 0,
      lockouts: 0,
    };
    const secondRow = {
      date: today,
      project_id: second.body.id,
      sign_ins: 1,
      sign_ups: 1,
      failed_sign_ins: 0,
      lockouts: 0,
    };
    const byProject = (a: { project_id: string }, b: { project_id: string }) =>
      a.project_id < b.project_id ? -1 : 1;
    // Live: the application's bob (sign-up) and ada's sign-in session (ada's sign-up session was signed out), the
    // console's minted token and the admin's sign-in; the second project's only session has expired.
    const live = [
      { project_id: tenant.project.id, count: 2 },
      { project_id: tenant.consoleProjectId, count: 2 },
    ].sort(byProject);
    expect(res.body).toEqual({
      from: day(Date.parse(today) - 29 * DAY_MS),
      to: today,
      projects: [
        { id: tenant.consoleProjectId, name: 'Console' },
        { id: tenant.project.id, name: 'Acme App' },
        { id: second.body.id, name: 'Second' },
      ],
      daily: [app, consoleRow, secondRow].sort(byProject),
      totals: { sign_ins: 5, sign_ups: 3, failed_sign_ins: 6, lockouts: 1 },
      active_sessions: 4,
      active_sessions_by_project: live,
      webhook_deliveries: zeroDeliveries,
    });
    expect(JSON.stringify(res.body)).not.toContain(other.project.id);
    expect(JSON.stringify(res.body)).not.toContain(other.consoleProjectId);
  });

  describe('the window', () => {
    async function at(ms: number, action: string, s: Partial<AuditEvent> = {}): Promise<void> {
      await t.dataSource.getRepository(AuditEvent).save({
        tenantId: tenant.tenantId,
        projectId: tenant.project.id,
        actorType: 'user',
        actorId: null,
        action,
        resourceType: 'user',
        resourceId: null,
        metadata: {},
        createdAt: new Date(ms),
        ...s,
      });
    }

    beforeEach(async () => {
      // Start from a known log (seeding wrote `user.created` events of the system).
      await t.dataSource.getRepository(AuditEvent).clear();
    });

    it('covers `days` whole UTC days up to today by the clock: an instant before the first midnight or from the next one is left out', async () => {
      const today = utcMidnight(t.clock.now());
      const first = today - 6 * DAY_MS;
      await at(first - 1, 'session.created');
      await at(first, 'session.created');
      await at(first, 'user.created');
      await at(first + 3 * DAY_MS + 5, 'user.sign_in_failed');
      await at(first + 3 * DAY_MS + 6, 'user.sign_in_failed');
      await at(first + 3 * DAY_MS + 7, 'user.locked', { projectId: tenant.consoleProjectId });
      await at(today + DAY_MS - 1, 'session.created');
      await at(today + DAY_MS, 'session.created');
      // Other actions, a system-made user and another tenant's sign-in are not counted.
      await at(today, 'session.revoked');
      await at(today, 'user.updated');
      await at(today, 'user.created', { actorType: 'system' });
      await at(first + 2 * DAY_MS, 'user.created', { actorType: 'system' });
      await at(today, 'session.created', { tenantId: other.tenantId, projectId: other.project.id });

      const res = await stats('?days=7');
      expect(res.status).toBe(200);
      const row = (ms: number, projectId: string, counts: object) => ({
        date: day(ms),
        project_id: projectId,
        sign_ins: 0,
        sign_ups: 0,
        failed_sign_ins: 0,
        lockouts: 0,
        ...counts,
      });
      const fourth = [
        row(first + 3 * DAY_MS, tenant.project.id, { failed_sign_ins: 2 }),
        row(first + 3 * DAY_MS, tenant.consoleProjectId, { lockouts: 1 }),
      ].sort((a, b) => (a.project_id < b.project_id ? -1 : 1));
      expect(res.body).toMatchObject({
        from: day(first),
        to: day(today),
        daily: [
          row(first, tenant.project.id, { sign_ins: 1, sign_ups: 1 }),
          ...fourth,
          row(today, tenant.project.id, { sign_ins: 1 }),
        ],
        totals: { sign_ins: 2, sign_ups: 1, failed_sign_ins: 2, lockouts: 1 },
      });

      const one = await stats('?days=1');
      expect(one.body).toMatchObject({
        from: day(today),
        to: day(today),
        daily: [row(today, tenant.project.id, { sign_ins: 1 })],
        totals: { sign_ins: 1, sign_ups: 0, failed_sign_ins: 0, lockouts: 0 },
      });
      const ninety = await stats('?days=90');
      expect(ninety.body).toMatchObject({
        from: day(today - 89 * DAY_MS),
        to: day(today),
        totals: { sign_ins: 3, sign_ups: 1, failed_sign_ins: 2, lockouts: 1 },
      });
    });

    it('defaults to 30 days and moves with the clock: a day becomes old as the clock passes it', async () => {
      const today = utcMidnight(t.clock.now());
      await at(today + 1000, 'user.sign_in_failed');
      const now = await stats();
      expect(now.body).toMatchObject({
        from: day(today - 29 * DAY_MS),
        to: day(today),
        totals: { failed_sign_ins: 1 },
      });
      // Tokens are judged by the same clock: one minted after each move.
      t.clock.advance(29 * DAY_MS);
      token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
      expect((await stats()).body).toMatchObject({
        from: day(today),
        to: day(today + 29 * DAY_MS),
        daily: [{ date: day(today), failed_sign_ins: 1 }],
      });
      t.clock.advance(DAY_MS);
      token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
      expect((await stats()).body).toMatchObject({
        from: day(today + DAY_MS),
        to: day(today + 30 * DAY_MS),
        daily: [],
        totals: { failed_sign_ins: 0 },
      });
      expect((await stats('?days=31')).body.totals).toMatchObject({ failed_sign_ins: 1 });
    });
  });

  it('counts the delivery records of the window by status; success_rate is succeeded / (succeeded + failed)', async () => {
    const webhookOf = async (s: SeededTenant) => {
      const admin = (await mintAccessToken(t.app, s.adminUserId)).token;
      const hook = await t
        .http()
        .post('/v1/admin/webhooks')
        .set('Authorization', `Bearer ${admin}`)
        .send({ url: 'http://127.0.0.1:9/hook', events: ['*'] });
      const sent = await t
        .http()
        .post(`/v1/admin/webhooks/${hook.body.id}/test`)
        .set('Authorization', `Bearer ${admin}`);
      expect([hook.status, sent.status]).toEqual([201, 202]);
      return { webhookId: hook.body.id as string, eventId: sent.body.event_id as string };
    };
    const mine = await webhookOf(tenant);
    const theirs = await webhookOf(other);
    expect((await stats()).body.webhook_deliveries).toEqual(zeroDeliveries);

    const today = utcMidnight(t.clock.now());
    let attempt = 0;
    const delivery = async (
      s: SeededTenant,
      hook: { webhookId: string; eventId: string },
      status: string,
      createdMs: number,
    ) => {
      attempt += 1;
      await t.dataSource.query(
        `INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, status, attempt, created_at) VALUES ($1, $2, $3, 'webhook.test', $4, $5, $6)`,
        [s.tenantId, hook.webhookId, hook.eventId, status, attempt, new Date(createdMs)],
      );
    };
    for (const status of ['succeeded', 'succeeded', 'succeeded', 'failed', 'pending'])
      await delivery(tenant, mine, status, today + 1000);
    await delivery(tenant, mine, 'failed', today - 30 * DAY_MS);
    for (const status of ['failed', 'failed', 'succeeded'])
      await delivery(other, theirs, status, today + 1000);

    expect((await stats()).body.webhook_deliveries).toEqual({
      succeeded: 3,
      failed: 1,
      pending: 1,
      success_rate: 0.75,
    });
    expect((await stats('?days=31')).body.webhook_deliveries).toEqual({
      succeeded: 3,
      failed: 2,
      pending: 1,
      success_rate: 0.6,
    });
    // Pending attempts alone: none made, no rate.
    await t.dataSource.query(`DELETE FROM webhook_deliveries WHERE status <> 'pending'`);
    expect((await stats()).body.webhook_deliveries).toEqual({
      succeeded: 0,
      failed: 0,
      pending: 1,
      success_rate: null,
    });
  });

  it('answers 401 without a valid token and 403 to a non-admin', async () => {
    expectProblem(await t.http().get('/v1/admin/stats'), 401, 'unauthenticated', '/v1/admin/stats');
    expectProblem(
      await t.http().get('/v1/admin/stats').set('Authorization', 'Bearer nope.nope.nope'),
      401,
      'unauthenticated',
    );
    const user = await createUser(t.app, tenant.project, 'plain@example.com');
    const plain = (await mintAccessToken(t.app, user.id)).token;
    expectProblem(
      await t.http().get('/v1/admin/stats?days=7').set('Authorization', `Bearer ${plain}`),
      403,
      'forbidden',
      '/v1/admin/stats',
    );
  });

  it.each(['0', '91', '-1', '1.5', '1e1', 'thirty', '', ' 7', '0x10', '10000000000'])(
    'refuses days=%j with a validation problem on `days`',
    async (value) => {
      const body = expectProblem(
        await stats(`?days=${encodeURIComponent(value)}`),
        400,
        'validation-error',
        '/v1/admin/stats',
      );
      expect(body.errors).toEqual({ days: ['must be an integer from 1 to 90'] });
    },
  );

  it('refuses a repeated days and ignores unknown parameters', async () => {
    const body = expectProblem(
      await stats('?days=7&days=8'),
      400,
      'validation-error',
      '/v1/admin/stats',
    );
    expect(body.errors).toEqual({ days: ['must be an integer from 1 to 90'] });
    const res = await stats('?days=07&project_id=x');
    expect(res.status).toBe(200);
    expect(res.body.from).toBe(day(utcMidnight(t.clock.now()) - 6 * DAY_MS));
  });
});
