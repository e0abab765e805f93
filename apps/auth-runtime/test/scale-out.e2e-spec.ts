import request from 'supertest';
import {
  cookiesOf,
  expectProblem,
  nextIp,
  seedTenant,
  spawnApp,
  startTestApp,
  type AppProcess,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { GLOBAL_RATE_LIMIT, GLOBAL_RATE_LIMIT_SYNC } from '@gatehouse/http';
import { buildAuthRuntime } from '../src/app-factory';

/**
 * Two auth-runtime instances as real processes on different ports, sharing only PostgreSQL and
 * Redis (docs/operations.md, "Running several instances").
 */
describe('two auth-runtime instances share every limit, lock, revocation and rotation', () => {
  let seedApp: TestApp;
  let a: AppProcess;
  let b: AppProcess;
  let tenant: SeededTenant;
  const at = (p: AppProcess) => request(`http://127.0.0.1:${p.port}`);
  const signUp = (p: AppProcess, email: string, ip = nextIp()) =>
    at(p)
      .post('/v1/auth/sign-up')
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('X-Forwarded-For', ip)
      .send({ email, password: 'a sturdy passphrase 42' });
  const signIn = (p: AppProcess, email: string, password: string, ip = nextIp()) =>
    at(p)
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('X-Forwarded-For', ip)
      .send({ identifier: email, password });

  beforeAll(async () => {
    seedApp = await startTestApp(buildAuthRuntime);
    [a, b] = await Promise.all([
      spawnApp('auth-runtime', { TRUST_PROXY: 'loopback' }),
      spawnApp('auth-runtime', { TRUST_PROXY: 'loopback' }),
    ]);
    expect(a.port).not.toBe(b.port);
  });
  beforeEach(async () => {
    await seedApp.reset();
    tenant = await seedTenant(seedApp.app);
  });
  afterAll(async () => {
    await Promise.all([a.stop(), b.stop()]);
    await seedApp.close();
  });

  it('counts a rate limit once across both instances', async () => {
    const ip = nextIp();
    expect((await signUp(a, 'r1@example.com', ip)).status).toBe(201);
    expect((await signUp(b, 'r2@example.com', ip)).status).toBe(201);
    expect((await signUp(a, 'r3@example.com', ip)).headers['ratelimit-remaining']).toBe('0');
    expectProblem(await signUp(b, 'r4@example.com', ip), 429, 'rate-limited');
  });

  it('counts the global limit once across both instances, within its stated overshoot', async () => {
    const ip = nextIp();
    const get = (p: AppProcess) =>
      at(p)
        .get('/v1/auth/jwks.json')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('X-Forwarded-For', ip);
    const { limit } = GLOBAL_RATE_LIMIT;
    let accepted = 0;
    for (let sent = 0; sent < limit * 1.2; sent += 40) {
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => get(i % 2 ? a : b)));
      for (const r of answers) {
        if (r.status === 200) accepted += 1;
        else expectProblem(r, 429, 'rate-limited');
      }
    }
    // Counted per instance, 2 × 1000 would pass; counted once, 1000 plus at most what each
    // instance had not yet synced.
    expect(accepted).toBeGreaterThanOrEqual(limit);
    expect(accepted).toBeLessThanOrEqual(limit + 2 * GLOBAL_RATE_LIMIT_SYNC.maxUnsynced);
    await new Promise((r) => setTimeout(r, 3 * GLOBAL_RATE_LIMIT_SYNC.syncMs));
    expectProblem(await get(a), 429, 'rate-limited');
    expectProblem(await get(b), 429, 'rate-limited');
  });

  it('holds a lockout started on one instance on the other', async () => {
    await signUp(a, 'lock@example.com');
    for (let i = 0; i < 5; i++)
      expectProblem(
        await signIn(i % 2 ? a : b, 'lock@example.com', 'wrong password'),
        401,
        'invalid-credentials',
      );
    expectProblem(
      await signIn(b, 'lock@example.com', 'a sturdy passphrase 42'),
      429,
      'account-locked',
    );
    expectProblem(
      await signIn(a, 'lock@example.com', 'a sturdy passphrase 42'),
      429,
      'account-locked',
    );
  });

  it('refuses on one instance a session revoked through the other, on the very next request', async () => {
    const up = await signUp(a, 'revoke@example.com');
    const token = up.body.session.access_token as string;
    expect(
      (
        await at(b)
          .get('/v1/auth/sessions')
          .set('X-Service-Project-Key', tenant.projectKey)
          .set('Authorization', `Bearer ${token}`)
      ).status,
    ).toBe(200);
    expect(
      (
        await at(a)
          .post('/v1/auth/sign-out')
          .set('X-Service-Project-Key', tenant.projectKey)
          .set('Authorization', `Bearer ${token}`)
      ).status,
    ).toBe(204);
    expectProblem(
      await at(b)
        .get('/v1/auth/sessions')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('Authorization', `Bearer ${token}`),
      401,
      'unauthenticated',
    );
    expect(
      (
        await at(b)
          .get('/v1/auth/me')
          .set('X-Service-Project-Key', tenant.projectKey)
          .set('Authorization', `Bearer ${token}`)
      ).body,
    ).toEqual({ user: null });
  });

  it('detects on one instance the reuse of a refresh token rotated on the other', async () => {
    const up = await signUp(a, 'rotate@example.com');
    const first = cookiesOf(up).service_refresh_token.value;
    const rotated = await at(a)
      .post('/v1/auth/refresh')
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('Cookie', `service_refresh_token=${first}`);
    expect(rotated.status).toBe(200);
    // Past the 10-second grace for concurrent refreshes (real processes keep real time).
    await new Promise((r) => setTimeout(r, 10_500));
    const replay = await at(b)
      .post('/v1/auth/refresh')
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('Cookie', `service_refresh_token=${first}`);
    expectProblem(replay, 401, 'unauthenticated');
    const successor = cookiesOf(rotated).service_refresh_token.value;
    expectProblem(
      await at(a)
        .post('/v1/auth/refresh')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('Cookie', `service_refresh_token=${successor}`),
      401,
      'unauthenticated',
    );
    expectProblem(
      await at(a)
        .get('/v1/auth/sessions')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('Authorization', `Bearer ${rotated.body.access_token}`),
      401,
      'unauthenticated',
    );
  }, 30_000);
});
