import {
  eventually,
  expectProblem,
  nextIp,
  seedTenant,
  signUpUser,
  startTestApp,
  TcpProxy,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  withPort,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';

const TIMEOUT_MS = 800;

/** docs/operations.md, "When Redis or PostgreSQL is down": fail closed with 503, recover without a restart. */
describe('dependency outages: 503 service-unavailable, bounded waits, recovery without restart', () => {
  const pg = new TcpProxy(Number(new URL(TEST_DATABASE_URL).port || 5432));
  const redis = new TcpProxy(Number(new URL(TEST_REDIS_URL).port || 6379));
  let t: TestApp;
  let tenant: SeededTenant;
  const signIn = (email: string, password = 'a sturdy passphrase 42') =>
    t
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('X-Forwarded-For', nextIp())
      .send({ identifier: email, password });
  const sessions = (token: string) =>
    t
      .http()
      .get('/v1/auth/sessions')
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('Authorization', `Bearer ${token}`);

  beforeAll(async () => {
    await pg.start();
    await redis.start();
    t = await startTestApp(buildAuthRuntime, {
      DATABASE_URL: withPort(TEST_DATABASE_URL, pg.port),
      REDIS_URL: withPort(TEST_REDIS_URL, redis.port),
      DEPENDENCY_TIMEOUT_MS: String(TIMEOUT_MS),
      TRUST_PROXY: 'loopback',
    });
  });
  beforeEach(async () => {
    pg.restore();
    redis.restore();
    await eventually(async () => (await t.http().get('/health/ready')).status === 200);
    await t.reset();
    tenant = await seedTenant(t.app);
  });
  afterAll(async () => {
    pg.restore();
    redis.restore();
    await t.close();
    await pg.stop();
    await redis.stop();
  });

  it('fails sign-in and token checks closed while Redis is down, and recovers when it returns', async () => {
    const u = await signUpUser(t, tenant.projectKey, 'redis@example.com');
    redis.cut();
    const res = await signIn(u.email);
    const body = expectProblem(res, 503, 'service-unavailable', '/v1/auth/sign-in');
    expect(JSON.stringify(body)).not.toMatch(/redis|6379|ECONN/i);
    expectProblem(await sessions(u.accessToken), 503, 'service-unavailable');
    expect((await t.http().get('/health/ready')).status).toBe(503);
    expect((await t.http().get('/health/live')).status).toBe(200);
    // The global rate limit counts in memory but fails a request at once while its Redis connection
    // is lost (and after any failed sync), so /me and refresh fail closed too.
    expectProblem(
      await t
        .http()
        .get('/v1/auth/me')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('Authorization', `Bearer ${u.accessToken}`),
      503,
      'service-unavailable',
    );
    expectProblem(
      await t
        .http()
        .post('/v1/auth/refresh')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('Cookie', `service_refresh_token=${u.refreshToken}`),
      503,
      'service-unavailable',
    );

    redis.restore();
    await eventually(async () => (await signIn(u.email)).status === 200);
    expect((await sessions(u.accessToken)).status).toBe(200);
    expect((await t.http().get('/health/ready')).status).toBe(200);
  });

  it('fails closed while PostgreSQL is down, and recovers when it returns', async () => {
    const u = await signUpUser(t, tenant.projectKey, 'pg@example.com');
    pg.cut();
    expectProblem(await signIn(u.email), 503, 'service-unavailable', '/v1/auth/sign-in');
    expectProblem(await sessions(u.accessToken), 503, 'service-unavailable');
    expectProblem(
      await t
        .http()
        .get('/v1/auth/me')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('Authorization', `Bearer ${u.accessToken}`),
      503,
      'service-unavailable',
    );
    expectProblem(
      await t
        .http()
        .post('/v1/auth/refresh')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('Cookie', `service_refresh_token=${u.refreshToken}`),
      503,
      'service-unavailable',
    );
    expect((await t.http().get('/health/ready')).status).toBe(503);
    pg.restore();
    await eventually(async () => (await signIn(u.email)).status === 200);
    expect((await t.http().get('/health/ready')).status).toBe(200);
  });

  it('never keeps a request waiting much longer than DEPENDENCY_TIMEOUT_MS when a dependency hangs', async () => {
    const u = await signUpUser(t, tenant.projectKey, 'hang@example.com');
    for (const proxy of [redis, pg]) {
      proxy.blackhole();
      const started = Date.now();
      const res = await signIn(u.email);
      const took = Date.now() - started;
      expectProblem(res, 503, 'service-unavailable');
      expect(took).toBeLessThan(TIMEOUT_MS * 3 + 500);
      proxy.restore();
      await eventually(async () => (await signIn(u.email)).status === 200);
    }
  }, 45_000);
});
