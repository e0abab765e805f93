import type { Response } from 'supertest';
import { AuditEvent, OneTimeToken, OutboxEvent, Session, User } from '@gatehouse/entities';
import {
  APP_REDIRECT,
  cookiesOf,
  createUser,
  expectProblem,
  mintAccessToken,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the link is opened on the real auth runtime
import { buildAuthRuntime } from '../../auth-runtime/src/app-factory';
import { buildControlPlane } from '../src/app-factory';

/** 32 s past the console project's default `reauthentication_max_age_seconds` (600 s); the access token (900 s) is still valid. */
const AGED_MS = 632_000;
const PASSWORD = 'a sturdy passphrase 42';
const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as Record<string, unknown>;

/**
 * docs/api-contract.md §13, sign in as the user (★): the control plane hands out a one-time link (60 s);
 * opened on the auth runtime it starts a session of the user whose access tokens carry
 * `act: {sub: <admin>}` (RFC 8693 §4.1), at most 15 minutes each, refreshable until 60 minutes
 * after opening. Such a session cannot change credentials. Both apps run in process; their test
 * clocks move together.
 */
describe('admin impersonation: a one-time link, the act claim and its limits', () => {
  let cp: TestApp;
  let runtime: TestApp;
  let tenant: SeededTenant;
  let other: SeededTenant;
  let token: string;
  let otherToken: string;
  let user: User;

  const as = (bearer: string) => ({
    Authorization: `Bearer ${bearer}`,
    'X-Forwarded-For': '192.0.2.77',
    'User-Agent': 'support-console',
  });
  const impersonate = (id: string, body: object, bearer = token) =>
    cp.http().post(`/v1/admin/users/${id}/impersonate`).set(as(bearer)).send(body);
  const age = (ms: number) => {
    cp.clock.advance(ms);
    runtime.clock.advance(ms);
  };
  /** Opens the link as a browser would: a GET of its path and query on the runtime. */
  const open = (url: string) => {
    const u = new URL(url);
    return runtime.http().get(`${u.pathname}${u.search}`);
  };
  const rt = (method: 'get' | 'post' | 'delete', path: string, bearer: string) =>
    runtime
      .http()
      [method](path)
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('Authorization', `Bearer ${bearer}`);
  const audits = (action: string) =>
    cp.dataSource.getRepository(AuditEvent).findBy({ action, actorType: 'admin' });
  const expectInvalidLink = (res: Response) => {
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`${APP_REDIRECT}?error=invalid_token`);
    expect(res.headers['set-cookie']).toBeUndefined();
  };

  beforeAll(async () => {
    cp = await startTestApp(buildControlPlane, { TRUST_PROXY: 'loopback' });
    runtime = await startTestApp(buildAuthRuntime, {
      TRUST_PROXY: 'loopback',
      RATE_LIMITS_ENABLED: 'false',
    });
  });
  beforeEach(async () => {
    await cp.reset();
    runtime.clock.reset();
    tenant = await seedTenant(cp.app);
    other = await seedTenant(cp.app, 'Other');
    token = (await mintAccessToken(cp.app, tenant.adminUserId)).token;
    otherToken = (await mintAccessToken(cp.app, other.adminUserId)).token;
    user = await createUser(cp.app, tenant.project, 'customer@example.com', PASSWORD);
  });
  afterAll(async () => {
    await runtime.close();
    await cp.close();
  });

  it('answers 201 {url, expires_at} (60 s), audited with the reason; the link starts a session of the user with act, shown by /me and both session lists', async () => {
    const res = await impersonate(user.id, { reason: 'Ticket #4411: checkout fails' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      url: expect.stringMatching(
        /^http:\/\/auth\.test\/v1\/auth\/impersonation\/verify\?token=[A-Za-z0-9_-]{43}&project_key=pk_/,
      ),
      expires_at: expect.any(String),
    });
    expect(new URL(res.body.url).searchParams.get('project_key')).toBe(tenant.projectKey);
    expect(Date.parse(res.body.expires_at) - cp.clock.nowMs()).toBeGreaterThan(55_000);
    expect(Date.parse(res.body.expires_at) - cp.clock.nowMs()).toBeLessThanOrEqual(60_000);
    const [event] = await audits('user.impersonated');
    expect(event).toMatchObject({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      actorId: tenant.adminUserId,
      resourceType: 'user',
      resourceId: user.id,
      ipAddress: '192.0.2.77',
      userAgent: 'support-console',
    });
    expect(event.metadata).toEqual({
      user: { id: user.id, email: 'customer@example.com', project_id: tenant.project.id },
      reason: 'Ticket #4411: checkout fails',
      redirect_url: APP_REDIRECT,
      expires_at: res.body.expires_at,
    });

    const opened = await open(res.body.url);
    expect(opened.status).toBe(302);
    expect(opened.headers.location).toBe(APP_REDIRECT);
    const cookies = cookiesOf(opened);
    const access = cookies.service_session.value;
    expect(cookies.service_refresh_token.value).toEqual(expect.any(String));
    const claims = claimsOf(access);
    expect(claims).toMatchObject({
      sub: user.id,
      aud: tenant.project.id,
      tid: tenant.tenantId,
      adm: false,
      act: { sub: tenant.adminUserId },
    });
    expect((claims.exp as number) - (claims.iat as number)).toBe(900);

    const session = await cp.dataSource
      .getRepository(Session)
      .findOneByOrFail({ id: claims.sid as string });
    expect(session).toMatchObject({
      userId: user.id,
      impersonatorId: tenant.adminUserId,
      authMethod: 'impersonation',
    });
    expect(session.expiresAt.getTime() - session.createdAt.getTime()).toBeLessThanOrEqual(
      3600_000 + 5_000,
    );
    const created = await cp.dataSource
      .getRepository(OutboxEvent)
      .findOneByOrFail({ type: 'session.created', projectId: tenant.project.id });
    expect(created.payload).toEqual({
      session: {
        id: session.id,
        user_id: user.id,
        method: 'impersonation',
        impersonator_id: tenant.adminUserId,
      },
    });

    const me = await rt('get', '/v1/auth/me', access);
    expect(me.body).toEqual({
      user: { id: user.id, email: 'customer@example.com', is_admin: false, mfa_factors: [] },
      active_sessions: 1,
      organizations: [],
      active_organization: null,
      impersonator: { id: tenant.adminUserId, email: tenant.adminEmail },
    });
    const own = await rt('get', '/v1/auth/sessions', access);
    expect(own.body.sessions).toEqual([
      expect.objectContaining({
        id: session.id,
        current: true,
        impersonator_id: tenant.adminUserId,
      }),
    ]);
    const detail = await cp.http().get(`/v1/admin/users/${user.id}`).set(as(token));
    expect(detail.body.sessions).toEqual([
      expect.objectContaining({
        id: session.id,
        auth_method: 'impersonation',
        impersonator_id: tenant.adminUserId,
      }),
    ]);
    // The user's own sign-in is not impersonated.
    const signIn = await runtime
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', tenant.projectKey)
      .send({ identifier: 'customer@example.com', password: PASSWORD });
    expect(claimsOf(signIn.body.session.access_token as string).act).toBeUndefined();
    expect(
      (await rt('get', '/v1/auth/me', signIn.body.session.access_token as string)).body
        .impersonator,
    ).toBeUndefined();
  });

  it('honours a registered redirect_url (equal after parsing) and refuses another (400), a blank or long reason (400 errors), writing nothing', async () => {
    const res = await impersonate(user.id, {
      reason: 'check',
      redirect_url: 'HTTPS://app.example.com/callback',
    });
    expect(res.status).toBe(201);
    expect((await open(res.body.url)).headers.location).toBe(APP_REDIRECT);
    const bad: [object, string][] = [
      [{ reason: 'x', redirect_url: 'https://evil.example.com/callback' }, 'redirect_url'],
      [{ reason: 'x', redirect_url: 'https://app.example.com/callback/' }, 'redirect_url'],
      [{ reason: 'x', redirect_url: 42 }, 'redirect_url'],
      [{}, 'reason'],
      [{ reason: '' }, 'reason'],
      [{ reason: '   ' }, 'reason'],
      [{ reason: 'x'.repeat(501) }, 'reason'],
      [{ reason: ['x'] }, 'reason'],
      [{ reason: 'x', act: { sub: 'me' } }, 'act'],
    ];
    for (const [body, field] of bad) {
      const problem = expectProblem(
        await impersonate(user.id, body),
        400,
        'validation-error',
        `/v1/admin/users/${user.id}/impersonate`,
      );
      expect({ body, fields: Object.keys(problem.errors as object) }).toEqual({
        body,
        fields: [field],
      });
    }
    for (const raw of ['null', '[]', '"x"'])
      expectProblem(
        await cp
          .http()
          .post(`/v1/admin/users/${user.id}/impersonate`)
          .set(as(token))
          .set('Content-Type', 'application/json')
          .send(raw),
        400,
        'validation-error',
      );
    expect(
      await cp.dataSource.getRepository(OneTimeToken).countBy({ purpose: 'impersonation' }),
    ).toBe(1);
    expect(await audits('user.impersonated')).toHaveLength(1);
    expect((await impersonate(user.id, { reason: 'x'.repeat(500) })).status).toBe(201);
  });

  it('a link works once: replayed, or opened after 60 s, it redirects with ?error=invalid_token and starts no session', async () => {
    const first = await impersonate(user.id, { reason: 'replay' });
    expect((await open(first.body.url)).status).toBe(302);
    expectInvalidLink(await open(first.body.url));
    const late = await impersonate(user.id, { reason: 'late' });
    age(61_000);
    expectInvalidLink(await open(late.body.url));
    // Two at once: one session.
    const raced = await impersonate(user.id, { reason: 'race' });
    const both = await Promise.all([open(raced.body.url), open(raced.body.url)]);
    expect(both.filter((r) => r.headers['set-cookie'] !== undefined)).toHaveLength(1);
    expect(await cp.dataSource.getRepository(Session).countBy({ userId: user.id })).toBe(2);
  });

  it("a link stops working when its admin is no longer an admin, and a disabled user's link starts no session", async () => {
    const link = await impersonate(user.id, { reason: 'demoted' });
    await cp.dataSource.getRepository(User).update({ id: tenant.adminUserId }, { isAdmin: false });
    expectInvalidLink(await open(link.body.url));
    await cp.dataSource.getRepository(User).update({ id: tenant.adminUserId }, { isAdmin: true });
    const disabled = await impersonate(user.id, { reason: 'disabled later' });
    await cp.dataSource.getRepository(User).update({ id: user.id }, { status: 'disabled' });
    expectInvalidLink(await open(disabled.body.url));
    expect(await cp.dataSource.getRepository(Session).countBy({ userId: user.id })).toBe(0);
    expectProblem(await impersonate(user.id, { reason: 'now' }), 409, 'conflict');
  });

  it('an impersonated session cannot change the password, email, second factors or passkeys, nor renew the proof (403 forbidden); nothing changes', async () => {
    const link = await impersonate(user.id, { reason: 'limits' });
    const access = cookiesOf(await open(link.body.url)).service_session.value;
    const refused: ['post' | 'delete', string, object][] = [
      [
        'post',
        '/v1/auth/password/change',
        { current_password: PASSWORD, new_password: 'a different passphrase 8' },
      ],
      ['post', '/v1/auth/email/change', { email: 'new@example.com' }],
      ['post', '/v1/auth/passkey/register/begin', {}],
      ['post', '/v1/auth/mfa/totp/setup', {}],
      ['post', '/v1/auth/mfa/totp/verify', { code: '123456' }],
      ['post', '/v1/auth/mfa/sms/setup', { phone_number: '+14155550123' }],
      ['post', '/v1/auth/mfa/backup-codes/regenerate', {}],
      ['delete', '/v1/auth/mfa/totp', {}],
      ['delete', '/v1/auth/passkeys/00000000-0000-0000-0000-000000000000', {}],
      ['post', '/v1/auth/reauthenticate', { password: PASSWORD }],
    ];
    for (const [method, path, body] of refused) {
      const res = await rt(method, path, access).send(body);
      const problem = expectProblem(res, 403, 'forbidden', path);
      expect({ path, detail: problem.detail }).toEqual({
        path,
        detail:
          'An impersonated session cannot change the password, email, second factors or passkeys of the account.',
      });
    }
    expect(
      await cp.dataSource
        .getRepository(OneTimeToken)
        .countBy({ userId: user.id, purpose: 'email-change' }),
    ).toBe(0);
    expect(
      await cp.dataSource.query(`SELECT count(*)::int AS n FROM mfa_factors WHERE user_id = $1`, [
        user.id,
      ]),
    ).toEqual([{ n: 0 }]);
    const signIn = await runtime
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', tenant.projectKey)
      .send({ identifier: 'customer@example.com', password: PASSWORD });
    expect(signIn.status).toBe(200);
    // Nor can it sign the user in to another application through the OpenID Connect provider, whose
    // tokens would not carry act: refused before the interaction is even looked up.
    for (const step of ['complete', 'consent']) {
      const path = `/v1/auth/oidc/interactions/some-interaction/${step}`;
      const problem = expectProblem(
        await rt('post', path, access).send(step === 'consent' ? { scopes: ['openid'] } : {}),
        403,
        'forbidden',
        path,
      );
      expect(problem.detail).toBe(
        'An impersonated session cannot sign the user in to other applications.',
      );
    }
    // The rest of the API serves the session.
    expect((await rt('get', '/v1/auth/sessions', access)).status).toBe(200);
  });

  it('refreshes keep act and at most 15 minutes, and stop 60 minutes after the link was opened', async () => {
    await cp
      .http()
      .patch(`/v1/admin/projects/${tenant.project.id}`)
      .set(as(token))
      .send({ settings: { access_token_ttl_seconds: 3600 } });
    const link = await impersonate(user.id, { reason: 'refresh' });
    let refresh = cookiesOf(await open(link.body.url)).service_refresh_token.value;
    const refreshOnce = () =>
      runtime
        .http()
        .post('/v1/auth/refresh')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('Cookie', `service_refresh_token=${refresh}`);
    for (const minutes of [14, 14, 14, 14]) {
      age(minutes * 60_000);
      const res = await refreshOnce();
      expect(res.status).toBe(200);
      const claims = claimsOf(res.body.access_token as string);
      expect(claims.act).toEqual({ sub: tenant.adminUserId });
      expect(res.body.expires_in).toBe(900);
      expect((claims.exp as number) - (claims.iat as number)).toBe(900);
      refresh = cookiesOf(res).service_refresh_token.value;
    }
    age(5 * 60_000);
    expectProblem(await refreshOnce(), 401, 'unauthenticated', '/v1/auth/refresh');
  });

  it('needs a recent proof: a stale admin token is refused (403 reauthentication-required), no link or audit is written', async () => {
    age(AGED_MS);
    const res = await impersonate(user.id, { reason: 'stale' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      type: 'https://gatehouse.dev/problems/reauthentication-required',
      title: 'Reauthentication Required',
      status: 403,
      detail:
        'This action needs a recent proof of identity; re-authenticate with POST /v1/auth/reauthenticate and try again.',
      instance: `/v1/admin/users/${user.id}/impersonate`,
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      max_age_seconds: 600,
    });
    expect(
      await cp.dataSource.getRepository(OneTimeToken).countBy({ purpose: 'impersonation' }),
    ).toBe(0);
    expect(await audits('user.impersonated')).toHaveLength(0);
    const fresh = (await mintAccessToken(cp.app, tenant.adminUserId)).token;
    expect((await impersonate(user.id, { reason: 'fresh' }, fresh)).status).toBe(201);
  });

  it("refuses another admin of the tenant (403 forbidden) and another tenant's user (404), writing nothing", async () => {
    const consoleProject = { ...tenant.project, id: tenant.consoleProjectId };
    const colleague = await createUser(cp.app, consoleProject, 'colleague@acme.test');
    await cp.dataSource.getRepository(User).update({ id: colleague.id }, { isAdmin: true });
    expectProblem(
      await impersonate(colleague.id, { reason: 'peek' }),
      403,
      'forbidden',
      `/v1/admin/users/${colleague.id}/impersonate`,
    );
    expectProblem(await impersonate(tenant.adminUserId, { reason: 'self' }), 403, 'forbidden');
    expectProblem(
      await impersonate(user.id, { reason: 'cross' }, otherToken),
      404,
      'not-found',
      `/v1/admin/users/${user.id}/impersonate`,
    );
    expectProblem(await impersonate('not-an-id', { reason: 'x' }), 404, 'not-found');
    expect(
      await cp.dataSource.getRepository(OneTimeToken).countBy({ purpose: 'impersonation' }),
    ).toBe(0);
    expect(
      await cp.dataSource.getRepository(AuditEvent).countBy({ action: 'user.impersonated' }),
    ).toBe(0);
  });
});
