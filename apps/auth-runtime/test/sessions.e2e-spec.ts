import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { hmacSha256, randomToken, sha256Hex } from '@gatehouse/crypto';
import { ApiKey, AuditEvent, OutboxEvent, Session, User } from '@gatehouse/entities';
import { ProjectsCache } from '@gatehouse/identity';
import {
  APP_ORIGIN,
  cookiesOf,
  expectProblem,
  nextIp,
  seedTenant,
  signUpUser,
  startTestApp,
  type SeededTenant,
  TEST_REDIS_URL,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';
import { RefreshTokenCodec } from '../src/sessions/refresh-token';

describe('sign-up, sign-in, me, refresh, sessions, sign-out', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  const key = () => tenant.projectKey;

  beforeAll(async () => {
    t = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
  });
  afterAll(() => t.close());

  it('walks the whole journey with a cookie jar', async () => {
    const agent = t.http();
    const signUp = await agent
      .post('/v1/auth/sign-up')
      .set('X-Service-Project-Key', key())
      .send({
        email: 'Ada@Example.com',
        password: 'analytical engine 1843',
        username: 'Ada_L',
        metadata: { plan: 'pro' },
      });
    expect(signUp.status).toBe(201);
    expect(signUp.body).toEqual({
      user: { id: expect.any(String), email: 'Ada@Example.com', status: 'active' },
      session: {
        id: expect.any(String),
        access_token: expect.any(String),
        expires_at: expect.any(String),
      },
    });
    expect(new Date(signUp.body.session.expires_at).getTime()).toBeGreaterThan(
      Date.now() + 29 * 86400_000,
    );

    const cookies = cookiesOf(signUp);
    expect(cookies.service_session.value).toBe(signUp.body.session.access_token);
    expect(cookies.service_session.attributes).toEqual(
      expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']),
    );
    expect(cookies.service_refresh_token.attributes).toEqual(
      expect.arrayContaining(['Path=/v1/auth', 'HttpOnly', 'Secure', 'SameSite=Strict']),
    );
    expect(cookies.service_refresh_token.value).toMatch(/^[A-Za-z0-9_-]{91}$/);

    const signIn = await t
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', key())
      .send({ identifier: 'ada@example.com', password: 'analytical engine 1843' });
    expect(signIn.status).toBe(200);
    expect(signIn.body).toEqual({
      user: { id: signUp.body.user.id, email: 'Ada@Example.com' },
      session: { id: expect.any(String), access_token: expect.any(String) },
    });
    const jar = cookiesOf(signIn);
    const cookieHeader = `service_session=${jar.service_session.value}; service_refresh_token=${jar.service_refresh_token.value}`;

    const byUsername = await t
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', key())
      .send({ identifier: 'ADA_L', password: 'analytical engine 1843' });
    expect(byUsername.status).toBe(200);

    const me = await t
      .http()
      .get('/v1/auth/me')
      .set('X-Service-Project-Key', key())
      .set('Cookie', cookieHeader);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      user: { id: signUp.body.user.id, email: 'Ada@Example.com', is_admin: false, mfa_factors: [] },
      active_sessions: 3,
      organizations: [],
      active_organization: null,
    });

    const refreshed = await t
      .http()
      .post('/v1/auth/refresh')
      .set('X-Service-Project-Key', key())
      .set('Cookie', cookieHeader);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({ access_token: expect.any(String), expires_in: 900 });
    const rotated = cookiesOf(refreshed);
    expect(rotated.service_refresh_token.value).not.toBe(jar.service_refresh_token.value);
    expect(rotated.service_session.value).toBe(refreshed.body.access_token);

    const list = await t
      .http()
      .get('/v1/auth/sessions')
      .set('X-Service-Project-Key', key())
      .set('Authorization', `Bearer ${refreshed.body.access_token}`);
    expect(list.status).toBe(200);
    expect(list.body.sessions).toHaveLength(3);
    const current = list.body.sessions.find((s: { current: boolean }) => s.current);
    expect(current).toEqual({
      id: signIn.body.session.id,
      created_at: expect.any(String),
      last_active_at: expect.any(String),
      expires_at: expect.any(String),
      ip_address: expect.any(String),
      user_agent: null,
      current: true,
      impersonator_id: null,
    });

    const revoke = await t
      .http()
      .delete(`/v1/auth/sessions/${signUp.body.session.id}`)
      .set('X-Service-Project-Key', key())
      .set('Authorization', `Bearer ${refreshed.body.access_token}`);
    expect(revoke.status).toBe(204);
    const revokedMe = await t
      .http()
      .get('/v1/auth/me')
      .set('X-Service-Project-Key', key())
      .set('Authorization', `Bearer ${signUp.body.session.access_token}`);
    expect(revokedMe.body).toEqual({ user: null });

    const signOut = await t
      .http()
      .post('/v1/auth/sign-out')
      .set('X-Service-Project-Key', key())
      .set('Cookie', `service_session=${refreshed.body.access_token}`);
    expect(signOut.status).toBe(204);
    expect(signOut.text).toBe('');
    const cleared = cookiesOf(signOut);
    expect(cleared.service_session.value).toBe('');
    expect(cleared.service_refresh_token.value).toBe('');
    const after = await t
      .http()
      .get('/v1/auth/sessions')
      .set('X-Service-Project-Key', key())
      .set('Authorization', `Bearer ${refreshed.body.access_token}`);
    expectProblem(after, 401, 'unauthenticated', '/v1/auth/sessions');

    const ds = t.app.get(DataSource);
    const actions = (await ds.getRepository(AuditEvent).find({ order: { createdAt: 'ASC' } })).map(
      (e) => e.action,
    );
    expect(actions.filter((a) => a === 'user.created')).toHaveLength(2);
    expect(actions.filter((a) => a === 'session.created')).toHaveLength(3);
    expect(actions.filter((a) => a === 'session.revoked')).toHaveLength(2);
    const outbox = await ds.getRepository(OutboxEvent).find();
    expect(outbox.map((e) => e.type).sort()).toEqual(actions.sort());
  });

  it('answers /me with {user: null} without a session, with a bad token, or without a project key', async () => {
    const u = await signUpUser(t, key(), 'me@example.com');
    expect((await t.http().get('/v1/auth/me').set('X-Service-Project-Key', key())).body).toEqual({
      user: null,
    });
    expect(
      (
        await t
          .http()
          .get('/v1/auth/me')
          .set('X-Service-Project-Key', key())
          .set('Authorization', 'Bearer x.y.z')
      ).body,
    ).toEqual({ user: null });
    const noKey = await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${u.accessToken}`);
    expect(noKey.status).toBe(200);
    expect(noKey.body).toEqual({ user: null });
    const otherProject = await t
      .http()
      .get('/v1/auth/me')
      .set('X-Service-Project-Key', tenant.consoleKey)
      .set('Authorization', `Bearer ${u.accessToken}`);
    expect(otherProject.body).toEqual({ user: null });
  });

  it('answers /me from PostgreSQL alone: a session revoked or a user disabled there is refused even if the cache never heard of it', async () => {
    const revoked = await signUpUser(t, key(), 'revoked-in-db@example.com');
    const disabled = await signUpUser(t, key(), 'disabled-in-db@example.com');
    const kept = await signUpUser(t, key(), 'kept-in-db@example.com');
    const me = (token: string) =>
      t
        .http()
        .get('/v1/auth/me')
        .set('X-Service-Project-Key', key())
        .set('Authorization', `Bearer ${token}`);
    expect((await me(revoked.accessToken)).body).toEqual({
      user: {
        id: revoked.id,
        email: 'revoked-in-db@example.com',
        is_admin: false,
        mfa_factors: [],
      },
      active_sessions: 1,
      organizations: [],
      active_organization: null,
    });
    // Written behind the services' back: no revocation mark in Redis.
    await t.dataSource.query(
      `UPDATE sessions SET revoked_at = now(), revoke_reason = 'test' WHERE id = $1`,
      [revoked.sessionId],
    );
    await t.dataSource.query(`UPDATE users SET status = 'disabled' WHERE id = $1`, [disabled.id]);
    expect((await me(revoked.accessToken)).body).toEqual({ user: null });
    expect((await me(disabled.accessToken)).body).toEqual({ user: null });
    const still = await me(kept.accessToken);
    expect(still.body).toEqual({
      user: { id: kept.id, email: 'kept-in-db@example.com', is_admin: false, mfa_factors: [] },
      active_sessions: 1,
      organizations: [],
      active_organization: null,
    });
  });

  it('gives each of many concurrent /me requests its own answer, whoever, whichever key, whatever state', async () => {
    const users = await Promise.all(
      ['a', 'b', 'c', 'd'].map((n) => signUpUser(t, key(), `concurrent-${n}@example.com`)),
    );
    const [a, , c, d] = users as [
      (typeof users)[0],
      (typeof users)[0],
      (typeof users)[0],
      (typeof users)[0],
    ];
    expect(
      (
        await t
          .http()
          .post('/v1/auth/sign-out')
          .set('X-Service-Project-Key', key())
          .set('Authorization', `Bearer ${c.accessToken}`)
      ).status,
    ).toBe(204);
    await t.dataSource.query(`UPDATE users SET status = 'disabled' WHERE id = $1`, [d.id]);
    const asks = Array.from({ length: 40 }, (_, n) => {
      const who = users[n % 4] ?? a;
      const projectKey = n % 10 === 9 ? tenant.consoleKey : key();
      const expected =
        projectKey !== key() || who === c || who === d
          ? { user: null }
          : {
              user: { id: who.id, email: who.email, is_admin: false, mfa_factors: [] },
              active_sessions: 1,
              organizations: [],
              active_organization: null,
            };
      return { who, projectKey, expected };
    });
    const answers = await Promise.all(
      asks.map((q) =>
        t
          .http()
          .get('/v1/auth/me')
          .set('X-Service-Project-Key', q.projectKey)
          .set('Authorization', `Bearer ${q.who.accessToken}`),
      ),
    );
    answers.forEach((res, n) => {
      expect(res.status).toBe(200);
      expect(res.body).toEqual(asks[n]?.expected);
    });
    expect(answers.filter((r) => r.body.user !== null)).toHaveLength(
      asks.filter((q) => q.expected.user !== null).length,
    );
  });

  it('requires a project key on every other endpoint, with one 401 body', async () => {
    const missing = await t
      .http()
      .post('/v1/auth/sign-in')
      .send({ identifier: 'a@b.co', password: 'x' });
    const unknown = await t
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', 'pk_unknownunknownunknownunknown')
      .send({ identifier: 'a@b.co', password: 'x' });
    const a = expectProblem(missing, 401, 'unauthenticated');
    const b = expectProblem(unknown, 401, 'unauthenticated');
    expect({ ...a, traceId: null }).toEqual({ ...b, traceId: null });
    expectProblem(await t.http().get('/v1/auth/sessions'), 401, 'unauthenticated');
  });

  it('answers refresh with a missing, unknown, revoked or malformed key with the one 401 body of every route, cookie or not, before the body', async () => {
    const u = await signUpUser(t, key(), 'refresh-keys@example.com');
    const revoked = randomToken(32, 'sk_');
    await t.dataSource.getRepository(ApiKey).save({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      name: 'revoked',
      keyPrefix: revoked.slice(0, 11),
      secretHash: sha256Hex(revoked),
      revokedAt: new Date(),
    });
    const strip = (body: Record<string, unknown>) => ({ ...body, traceId: null, instance: null });
    const reference = strip(
      expectProblem(
        await t
          .http()
          .get('/v1/auth/sessions')
          .set('X-Service-Project-Key', 'pk_unknownunknownunknownunknown'),
        401,
        'unauthenticated',
      ),
    );
    const keys: (string | null)[] = [
      null,
      'pk_unknownunknownunknownunknown',
      revoked,
      'not-a-key',
      'pk_short',
      `pk_${'x'.repeat(200)}`,
    ];
    const cookies = [
      null,
      `service_refresh_token=${u.refreshToken}`,
      'service_refresh_token=garbage',
    ];
    for (const projectKey of keys) {
      for (const cookie of cookies) {
        for (const body of [null, '{"broken": ']) {
          let req = t.http().post('/v1/auth/refresh');
          if (projectKey !== null) req = req.set('X-Service-Project-Key', projectKey);
          if (cookie !== null) req = req.set('Cookie', cookie);
          const res =
            body === null
              ? await req
              : await req.set('Content-Type', 'application/json').send(body);
          const label = { projectKey, cookie, body };
          expect({ ...label, status: res.status }).toEqual({ ...label, status: 401 });
          expect({
            ...label,
            body: strip(expectProblem(res, 401, 'unauthenticated', '/v1/auth/refresh')),
          }).toEqual({ ...label, body: reference });
        }
      }
    }
    // Nothing rotated: the refresh token still works with the right key.
    const ok = await t
      .http()
      .post('/v1/auth/refresh')
      .set('X-Service-Project-Key', key())
      .set('Cookie', `service_refresh_token=${u.refreshToken}`);
    expect(ok.status).toBe(200);
    // A valid key without a cookie names what is missing; a refused body with a valid key is the body's problem.
    const noCookie = expectProblem(
      await t.http().post('/v1/auth/refresh').set('X-Service-Project-Key', key()),
      401,
      'unauthenticated',
    );
    expect(noCookie.detail).toBe('The refresh token cookie is missing.');
    expectProblem(
      await t
        .http()
        .post('/v1/auth/refresh')
        .set('X-Service-Project-Key', key())
        .set('Content-Type', 'application/json')
        .send('{"broken": '),
      400,
      'invalid-json',
    );
  });

  it('answers null in an optional field that takes no null 400 on that field, creating and sending nothing', async () => {
    const u = await signUpUser(t, key(), 'nulls@example.com');
    const users = await t.dataSource.getRepository(User).count();
    const events = await t.dataSource.getRepository(OutboxEvent).count();
    const cases: [string, Record<string, unknown>, string, string?][] = [
      [
        '/v1/auth/sign-up',
        { email: 'n1@example.com', password: 'a sturdy passphrase 42', username: null },
        'username',
      ],
      [
        '/v1/auth/sign-up',
        { email: 'n2@example.com', password: 'a sturdy passphrase 42', metadata: null },
        'metadata',
      ],
      [
        '/v1/auth/magic-link/send',
        { email: 'nulls@example.com', redirect_url: null },
        'redirect_url',
      ],
      ['/v1/auth/passkey/register/complete', { credential: {}, name: null }, 'name', u.accessToken],
    ];
    for (const [path, body, field, token] of cases) {
      let req = t
        .http()
        .post(path)
        .set('X-Service-Project-Key', key())
        .set('X-Forwarded-For', nextIp());
      if (token) req = req.set('Authorization', `Bearer ${token}`);
      const problem = expectProblem(await req.send(body), 400, 'validation-error', path);
      expect({ path, errors: Object.keys(problem.errors as object) }).toEqual({
        path,
        errors: [field],
      });
    }
    expect(await t.dataSource.getRepository(User).count()).toBe(users);
    expect(await t.dataSource.getRepository(OutboxEvent).count()).toBe(events);
    expect(await t.dataSource.query(`SELECT count(*)::int AS n FROM one_time_tokens`)).toEqual([
      { n: 0 },
    ]);
  });

  it('refuses a cookie-authenticated unsafe request from a foreign origin, allows the project origin and bearer', async () => {
    const u = await signUpUser(t, key(), 'csrf@example.com');
    const evil = await t
      .http()
      .post('/v1/auth/sign-out')
      .set('X-Service-Project-Key', key())
      .set('Origin', 'https://evil.example')
      .set('Cookie', `service_session=${u.accessToken}`);
    expectProblem(evil, 403, 'forbidden', '/v1/auth/sign-out');
    const evilRefresh = await t
      .http()
      .post('/v1/auth/refresh')
      .set('X-Service-Project-Key', key())
      .set('Origin', 'https://evil.example')
      .set('Cookie', `service_refresh_token=${u.refreshToken}`);
    expectProblem(evilRefresh, 403, 'forbidden');
    const evilDelete = await t
      .http()
      .delete(`/v1/auth/sessions/${u.sessionId}`)
      .set('X-Service-Project-Key', key())
      .set('Origin', 'https://evil.example')
      .set('Cookie', `service_session=${u.accessToken}`);
    expectProblem(evilDelete, 403, 'forbidden');
    const bearerFromEvil = await t
      .http()
      .get('/v1/auth/sessions')
      .set('X-Service-Project-Key', key())
      .set('Origin', 'https://evil.example')
      .set('Authorization', `Bearer ${u.accessToken}`);
    expect(bearerFromEvil.status).toBe(200);
    const good = await t
      .http()
      .post('/v1/auth/sign-out')
      .set('X-Service-Project-Key', key())
      .set('Origin', APP_ORIGIN)
      .set('Cookie', `service_session=${u.accessToken}`);
    expect(good.status).toBe(204);
  });

  it("lists only the caller's sessions and answers 404 for another user's session", async () => {
    const a = await signUpUser(t, key(), 'a@example.com');
    const b = await signUpUser(t, key(), 'b@example.com');
    const list = await t
      .http()
      .get('/v1/auth/sessions')
      .set('X-Service-Project-Key', key())
      .set('Authorization', `Bearer ${a.accessToken}`);
    expect(list.body.sessions.map((s: { id: string }) => s.id)).toEqual([a.sessionId]);
    for (const id of [
      b.sessionId,
      'nope',
      '00000000-0000-0000-0000-000000000000',
      '-'.repeat(36),
      '0123456789abcdef0123456789abcdef0123',
      '%00',
      '%E0%A4%A',
      '%',
    ]) {
      const res = await t
        .http()
        .delete(`/v1/auth/sessions/${id}`)
        .set('X-Service-Project-Key', key())
        .set('Authorization', `Bearer ${a.accessToken}`);
      expectProblem(res, 404, 'not-found');
    }
    const bSession = await t.app
      .get(DataSource)
      .getRepository(Session)
      .findOneByOrFail({ id: b.sessionId });
    expect(bSession.revokedAt).toBeNull();
  });

  it('detects refresh-token reuse and revokes the whole session', async () => {
    const u = await signUpUser(t, key(), 'reuse@example.com');
    const first = await t
      .http()
      .post('/v1/auth/refresh')
      .set('X-Service-Project-Key', key())
      .set('Cookie', `service_refresh_token=${u.refreshToken}`);
    expect(first.status).toBe(200);
    const successor = cookiesOf(first).service_refresh_token.value;
    t.clock.advance(11_000);
    const replay = await t
      .http()
      .post('/v1/auth/refresh')
      .set('X-Service-Project-Key', key())
      .set('Cookie', `service_refresh_token=${u.refreshToken}`);
    expectProblem(replay, 401, 'unauthenticated', '/v1/auth/refresh');
    const next = await t
      .http()
      .post('/v1/auth/refresh')
      .set('X-Service-Project-Key', key())
      .set('Cookie', `service_refresh_token=${successor}`);
    expectProblem(next, 401, 'unauthenticated');
    const access = await t
      .http()
      .get('/v1/auth/sessions')
      .set('X-Service-Project-Key', key())
      .set('Authorization', `Bearer ${first.body.access_token}`);
    expectProblem(access, 401, 'unauthenticated');
    const session = await t.app
      .get(DataSource)
      .getRepository(Session)
      .findOneByOrFail({ id: u.sessionId });
    expect(session.revokeReason).toBe('refresh_token_reuse');
  });

  it('tells caches not to store answers that carry tokens or account data; jwks.json stays cacheable', async () => {
    const signUp = await t
      .http()
      .post('/v1/auth/sign-up')
      .set('X-Service-Project-Key', key())
      .send({ email: 'nostore@example.com', password: 'analytical engine 1843' });
    const signIn = await t
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', key())
      .send({ identifier: 'nostore@example.com', password: 'analytical engine 1843' });
    const token = signIn.body.session.access_token as string;
    const answers = [
      signUp,
      signIn,
      await t
        .http()
        .post('/v1/auth/refresh')
        .set('X-Service-Project-Key', key())
        .set('Cookie', `service_refresh_token=${cookiesOf(signIn).service_refresh_token.value}`),
      await t
        .http()
        .get('/v1/auth/me')
        .set('X-Service-Project-Key', key())
        .set('Authorization', `Bearer ${token}`),
      await t
        .http()
        .get('/v1/auth/sessions')
        .set('X-Service-Project-Key', key())
        .set('Authorization', `Bearer ${token}`),
      await t
        .http()
        .post('/v1/auth/sign-in')
        .set('X-Service-Project-Key', key())
        .send({ identifier: 'nostore@example.com', password: 'wrong password 1' }),
    ];
    expect(answers.map((r) => [r.status, r.headers['cache-control']])).toEqual(
      [201, 200, 200, 200, 200, 401].map((status) => [status, 'no-store']),
    );
    const jwks = await t.http().get('/v1/auth/jwks.json').set('X-Service-Project-Key', key());
    expect(jwks.headers['cache-control']).toBe('public, max-age=60');
  });

  it('shows a session last active at its last refresh', async () => {
    const u = await signUpUser(t, key(), 'active@example.com');
    const list = async (bearer: string) => {
      const res = await t
        .http()
        .get('/v1/auth/sessions')
        .set('X-Service-Project-Key', key())
        .set('Authorization', `Bearer ${bearer}`);
      return res.body.sessions as { created_at: string; last_active_at: string }[];
    };
    const signedUpAt = t.clock.now().getTime();
    const [before] = await list(u.accessToken);
    expect(Date.parse(before.last_active_at)).toBeLessThanOrEqual(signedUpAt);
    t.clock.advance(125_000);
    const refreshStarted = t.clock.now().getTime();
    const refreshed = await t
      .http()
      .post('/v1/auth/refresh')
      .set('X-Service-Project-Key', key())
      .set('Cookie', `service_refresh_token=${u.refreshToken}`);
    const refreshEnded = t.clock.now().getTime();
    expect(refreshed.status).toBe(200);
    const [after] = await list(refreshed.body.access_token as string);
    expect(after.created_at).toBe(before.created_at);
    expect(Date.parse(after.last_active_at)).toBeGreaterThanOrEqual(refreshStarted);
    expect(Date.parse(after.last_active_at)).toBeLessThanOrEqual(refreshEnded);
  });

  it('revokes the session when a token two rotations old comes back, even within the grace', async () => {
    const u = await signUpUser(t, key(), 'old-generation@example.com');
    const refresh = (token: string) =>
      t
        .http()
        .post('/v1/auth/refresh')
        .set('X-Service-Project-Key', key())
        .set('Cookie', `service_refresh_token=${token}`);
    const first = await refresh(u.refreshToken);
    const second = await refresh(cookiesOf(first).service_refresh_token.value);
    expect([first.status, second.status]).toEqual([200, 200]);
    expectProblem(await refresh(u.refreshToken), 401, 'unauthenticated');
    const session = await t.dataSource.getRepository(Session).findOneByOrFail({ id: u.sessionId });
    expect(session.revokeReason).toBe('refresh_token_reuse');
    expectProblem(
      await refresh(cookiesOf(second).service_refresh_token.value),
      401,
      'unauthenticated',
    );
  });

  it('refuses a token that names a session but was not issued by us, and revokes nothing', async () => {
    const u = await signUpUser(t, key(), 'forged-chain@example.com');
    const refresh = (token: string) =>
      t
        .http()
        .post('/v1/auth/refresh')
        .set('X-Service-Project-Key', key())
        .set('Cookie', `service_refresh_token=${token}`);
    const first = await refresh(u.refreshToken);
    expect(first.status).toBe(200);
    t.clock.advance(11_000);
    // The session's id and an old generation under another key (as someone who read the id from a JWT could make).
    const forged = new RefreshTokenCodec(randomBytes(32)).issue(u.sessionId, 0);
    expectProblem(await refresh(forged), 401, 'unauthenticated');
    // The issued token of that generation with one byte of its secret changed.
    const raw = Buffer.from(u.refreshToken, 'base64url');
    raw[30] ^= 0x01;
    expectProblem(await refresh(raw.toString('base64url')), 401, 'unauthenticated');
    const session = await t.dataSource.getRepository(Session).findOneByOrFail({ id: u.sessionId });
    expect(session.revokedAt).toBeNull();
    expect((await refresh(cookiesOf(first).service_refresh_token.value)).status).toBe(200);
  });

  describe('rotated tokens', () => {
    const refresh = (token: string, opts: { key?: string; origin?: string } = {}) => {
      const req = t
        .http()
        .post('/v1/auth/refresh')
        .set('X-Service-Project-Key', opts.key ?? key())
        .set('Cookie', `service_refresh_token=${token}`);
      return opts.origin ? req.set('Origin', opts.origin) : req;
    };
    const revokedAt = async (sessionId: string) =>
      (await t.dataSource.getRepository(Session).findOneByOrFail({ id: sessionId })).revokedAt;
    /** Tokens tagged under the app's own key, as the service would issue them. */
    const ownCodec = () =>
      new RefreshTokenCodec(
        hmacSha256(
          t.app.get<AppConfig>(APP_CONFIG).auth.encryptionKey,
          'gatehouse:refresh-token-mac',
        ),
      );

    it("never revoke a session for an old token presented with another project's key or from a refused origin", async () => {
      const u = await signUpUser(t, key(), 'outsider@example.com');
      const first = await refresh(u.refreshToken);
      expect(first.status).toBe(200);
      t.clock.advance(11_000);
      const other = await seedTenant(t.app, 'other-tenant');
      const foreignSecret = randomToken(32, 'sk_');
      await t.dataSource.getRepository(ApiKey).save({
        tenantId: other.tenantId,
        projectId: other.project.id,
        name: 'other',
        keyPrefix: foreignSecret.slice(0, 11),
        secretHash: sha256Hex(foreignSecret),
      });
      expectProblem(
        await refresh(u.refreshToken, { key: tenant.consoleKey }),
        401,
        'unauthenticated',
      );
      expectProblem(
        await refresh(u.refreshToken, { key: other.projectKey }),
        401,
        'unauthenticated',
      );
      expectProblem(await refresh(u.refreshToken, { key: foreignSecret }), 401, 'unauthenticated');
      expectProblem(
        await refresh(u.refreshToken, { origin: 'https://evil.example' }),
        403,
        'forbidden',
      );
      expect(await revokedAt(u.sessionId)).toBeNull();
      expect((await refresh(cookiesOf(first).service_refresh_token.value)).status).toBe(200);
    });

    it('give a retried refresh the same successor for 10 s, and revoke after', async () => {
      const a = await signUpUser(t, key(), 'retry@example.com');
      const first = await refresh(a.refreshToken);
      t.clock.advance(9_900);
      const retried = await refresh(a.refreshToken);
      expect(retried.status).toBe(200);
      expect(cookiesOf(retried).service_refresh_token.value).toBe(
        cookiesOf(first).service_refresh_token.value,
      );
      const b = await signUpUser(t, key(), 'late@example.com');
      await refresh(b.refreshToken);
      t.clock.advance(10_100);
      expectProblem(await refresh(b.refreshToken), 401, 'unauthenticated');
      expect(await revokedAt(b.sessionId)).not.toBeNull();
      expect(await revokedAt(a.sessionId)).toBeNull();
    });

    it('are refused within the grace once the session is signed out, without handing out the successor', async () => {
      const u = await signUpUser(t, key(), 'grace-out@example.com');
      const first = await refresh(u.refreshToken);
      expect(
        (
          await t
            .http()
            .post('/v1/auth/sign-out')
            .set('X-Service-Project-Key', key())
            .set('Authorization', `Bearer ${first.body.access_token}`)
        ).status,
      ).toBe(204);
      const late = await refresh(u.refreshToken);
      expectProblem(late, 401, 'unauthenticated');
      expect(late.headers['set-cookie']).toBeUndefined();
    });

    it('treat a signed token the chain never stored by its generation: current refused, older revokes', async () => {
      const codec = ownCodec();
      const a = await signUpUser(t, key(), 'lost-successor@example.com');
      // Generation 0 is current: a second token of that generation (as a successor lost with an uncommitted rotation would be).
      expectProblem(await refresh(codec.issue(a.sessionId, 0)), 401, 'unauthenticated');
      expectProblem(await refresh(codec.issue(a.sessionId, 5)), 401, 'unauthenticated');
      expect(await revokedAt(a.sessionId)).toBeNull();
      expect((await refresh(a.refreshToken)).status).toBe(200);
      // Generation 0 is now the previous one: a token of it that is not the one rotated is a replay.
      expectProblem(await refresh(codec.issue(a.sessionId, 0)), 401, 'unauthenticated');
      expect(await revokedAt(a.sessionId)).not.toBeNull();
    });

    it('end with the session: the last refresh token lives only until the 30 days are up', async () => {
      const u = await signUpUser(t, key(), 'thirty-days@example.com');
      let token = u.refreshToken;
      let last: Awaited<ReturnType<typeof refresh>> | null = null;
      for (const days of [6, 6, 6, 6, 5]) {
        t.clock.advance(days * 86_400_000);
        last = await refresh(token);
        expect(last.status).toBe(200);
        token = cookiesOf(last).service_refresh_token.value;
      }
      // 29 days in: 7 days of idle lifetime would reach past the session's end, so it is capped at 1 day.
      const refreshCookie = last ? cookiesOf(last).service_refresh_token : null;
      const maxAge = Number(
        refreshCookie?.attributes.find((a) => a.startsWith('Max-Age='))?.slice('Max-Age='.length),
      );
      expect(maxAge).toBeGreaterThan(86_400 - 60);
      expect(maxAge).toBeLessThanOrEqual(86_400);
      t.clock.advance(86_400_000 + 1000);
      expectProblem(await refresh(token), 401, 'unauthenticated');
    });
  });

  it('gives 20 concurrent refreshes of one token the same successor and no second session', async () => {
    const u = await signUpUser(t, key(), 'race@example.com');
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        t
          .http()
          .post('/v1/auth/refresh')
          .set('X-Service-Project-Key', key())
          .set('Cookie', `service_refresh_token=${u.refreshToken}`),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const successors = new Set(results.map((r) => cookiesOf(r).service_refresh_token.value));
    expect(successors.size).toBe(1);
    const ds = t.app.get(DataSource);
    expect(await ds.getRepository(Session).count()).toBe(1);
    // Rotated once: the nineteen others were handed the same successor, not a rotation of their own.
    expect(
      await ds.query(`SELECT generation FROM refresh_chains WHERE session_id = $1`, [u.sessionId]),
    ).toEqual([{ generation: 1 }]);
    const next = await t
      .http()
      .post('/v1/auth/refresh')
      .set('X-Service-Project-Key', key())
      .set('Cookie', `service_refresh_token=${[...successors][0]}`);
    expect(next.status).toBe(200);
  });

  it('commits rotations asynchronously without leaving any pooled connection non-durable', async () => {
    const users = await Promise.all(
      Array.from({ length: 10 }, (_, i) => signUpUser(t, key(), `durable${i}@example.com`)),
    );
    const refreshed = await Promise.all(
      users.map((u) =>
        t
          .http()
          .post('/v1/auth/refresh')
          .set('X-Service-Project-Key', key())
          .set('Cookie', `service_refresh_token=${u.refreshToken}`),
      ),
    );
    expect(refreshed.map((r) => r.status)).toEqual(Array(10).fill(200));
    const ds = t.app.get(DataSource);
    const [{ count }] = await ds.query(
      `SELECT count(*)::int AS count FROM refresh_chains WHERE generation = 1 AND rotated_at IS NOT NULL`,
    );
    expect(count).toBe(10);
    // As many concurrent queries as the pool holds connections: each of them answers for itself.
    const settings = await Promise.all(
      Array.from({ length: 10 }, () =>
        ds.query<{ synchronous_commit: string }[]>(`SHOW synchronous_commit`),
      ),
    );
    expect(settings.map((rows) => rows[0].synchronous_commit)).toEqual(Array(10).fill('on'));
  });

  it("refuses a refresh token presented with another project's key, without rotating it", async () => {
    const u = await signUpUser(t, key(), 'crossproject@example.com');
    expectProblem(
      await t
        .http()
        .post('/v1/auth/refresh')
        .set('X-Service-Project-Key', tenant.consoleKey)
        .set('Cookie', `service_refresh_token=${u.refreshToken}`),
      401,
      'unauthenticated',
    );
    // Past the reuse grace: had the foreign attempt rotated the token, this would now be a replay.
    t.clock.advance(11_000);
    const own = await t
      .http()
      .post('/v1/auth/refresh')
      .set('X-Service-Project-Key', key())
      .set('Cookie', `service_refresh_token=${u.refreshToken}`);
    expect(own.status).toBe(200);
    const session = await t.app
      .get(DataSource)
      .getRepository(Session)
      .findOneByOrFail({ id: u.sessionId });
    expect(session.revokedAt).toBeNull();
  });

  it('judges the origin of a cookie refresh before the token: refused ones rotate nothing, allowed ones rotate', async () => {
    const u = await signUpUser(t, key(), 'refresh-origin@example.com');
    const refresh = (origin: string | null, token: string) => {
      const req = t
        .http()
        .post('/v1/auth/refresh')
        .set('X-Service-Project-Key', key())
        .set('Cookie', `service_refresh_token=${token}`);
      return origin ? req.set('Origin', origin) : req;
    };
    expectProblem(await refresh('https://evil.example', 'garbage'), 403, 'forbidden');
    expectProblem(await refresh('https://evil.example', u.refreshToken), 403, 'forbidden');
    expect(
      await t.dataSource.query(
        `SELECT generation, rotated_at FROM refresh_chains WHERE session_id = $1`,
        [u.sessionId],
      ),
    ).toEqual([{ generation: 0, rotated_at: null }]);
    // Past the reuse grace: had the refused attempt rotated the token, this would now be a replay.
    t.clock.advance(11_000);
    const allowed = await refresh(APP_ORIGIN, u.refreshToken);
    expect(allowed.status).toBe(200);
    expect(allowed.body).toEqual({ access_token: expect.any(String), expires_in: 900 });
    const session = await t.dataSource.getRepository(Session).findOneByOrFail({ id: u.sessionId });
    expect(session.revokedAt).toBeNull();
    expect(cookiesOf(allowed).service_refresh_token).not.toBe(u.refreshToken);
  });

  it("issues access tokens with the project's access_token_ttl_seconds at sign-in and on refresh", async () => {
    await t.dataSource.query(
      `UPDATE projects SET settings = settings || '{"access_token_ttl_seconds": 600}'::jsonb WHERE id = $1`,
      [tenant.project.id],
    );
    await t.app.get(ProjectsCache).invalidateProject(tenant.project);
    const lifetime = (token: string) => {
      const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
        iat: number;
        exp: number;
      };
      return claims.exp - claims.iat;
    };
    const u = await signUpUser(t, key(), 'ttl@example.com');
    expect(lifetime(u.accessToken)).toBe(600);
    const refreshed = await t
      .http()
      .post('/v1/auth/refresh')
      .set('X-Service-Project-Key', key())
      .set('Cookie', `service_refresh_token=${u.refreshToken}`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.expires_in).toBe(600);
    expect(lifetime(refreshed.body.access_token as string)).toBe(600);
  });

  it('refuses a refresh without a cookie, with garbage, or after the idle lifetime', async () => {
    expectProblem(
      await t.http().post('/v1/auth/refresh').set('X-Service-Project-Key', key()),
      401,
      'unauthenticated',
    );
    expectProblem(
      await t
        .http()
        .post('/v1/auth/refresh')
        .set('X-Service-Project-Key', key())
        .set('Cookie', 'service_refresh_token=garbage'),
      401,
      'unauthenticated',
    );
    const u = await signUpUser(t, key(), 'idle@example.com');
    t.clock.advance(7 * 86400_000 + 1000);
    expectProblem(
      await t
        .http()
        .post('/v1/auth/refresh')
        .set('X-Service-Project-Key', key())
        .set('Cookie', `service_refresh_token=${u.refreshToken}`),
      401,
      'unauthenticated',
    );
  });

  it('keeps a revoked session refused after the cache loses its data (a Redis restart without persistence)', async () => {
    const u = await signUpUser(t, key(), 'flushed@example.com');
    const other = await signUpUser(t, key(), 'kept@example.com');
    expect(
      (
        await t
          .http()
          .post('/v1/auth/sign-out')
          .set('X-Service-Project-Key', key())
          .set('Authorization', `Bearer ${u.accessToken}`)
      ).status,
    ).toBe(204);
    const redis = new Redis(TEST_REDIS_URL);
    await redis.flushdb();
    redis.disconnect();
    expectProblem(
      await t
        .http()
        .get('/v1/auth/sessions')
        .set('X-Service-Project-Key', key())
        .set('Authorization', `Bearer ${u.accessToken}`),
      401,
      'unauthenticated',
    );
    expect(
      (
        await t
          .http()
          .get('/v1/auth/sessions')
          .set('X-Service-Project-Key', key())
          .set('Authorization', `Bearer ${other.accessToken}`)
      ).status,
    ).toBe(200);
  });

  it('issues access tokens with exactly the claims of docs/api-contract.md §2, plus auth_time', async () => {
    const u = await signUpUser(t, key(), 'claims@example.com');
    const [header, payload] = u.accessToken
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>);
    expect(header).toEqual({ alg: 'ES256', typ: 'JWT', kid: expect.any(String) });
    expect(payload).toEqual({
      iss: `http://auth.test/v1/projects/${tenant.project.id}`,
      aud: tenant.project.id,
      sub: u.id,
      sid: u.sessionId,
      tid: tenant.tenantId,
      adm: false,
      auth_time: payload.iat,
      iat: expect.any(Number),
      exp: expect.any(Number),
    });
    expect((payload.exp as number) - (payload.iat as number)).toBe(900);
  });

  it('serves the project public keys at jwks.json', async () => {
    const res = await t.http().get('/v1/auth/jwks.json').set('X-Service-Project-Key', key());
    expect(res.status).toBe(200);
    expect(res.body.keys).toEqual([
      {
        kty: 'EC',
        crv: 'P-256',
        x: expect.any(String),
        y: expect.any(String),
        kid: expect.any(String),
        alg: 'ES256',
        use: 'sig',
      },
    ]);
    const byQuery = await t.http().get(`/v1/auth/jwks.json?project_key=${key()}`);
    expect(byQuery.body).toEqual(res.body);
    expect(nextIp()).toMatch(/^198\.51\.100\./);
  });
});
