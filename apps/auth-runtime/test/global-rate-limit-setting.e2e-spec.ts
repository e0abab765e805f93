import { expectProblem, nextIp, seedTenant, startTestApp, type TestApp } from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';

/** RATE_LIMIT_GLOBAL_PER_MINUTE sets the global limit (1000 a minute per address by default). */
describe('the global limit, set by RATE_LIMIT_GLOBAL_PER_MINUTE', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(buildAuthRuntime, {
      RATE_LIMIT_GLOBAL_PER_MINUTE: '5',
      TRUST_PROXY: 'loopback',
    });
  });
  afterAll(() => t.close());

  it('lets an address send that many requests a minute, refuses the next with 429, and counts another address apart', async () => {
    const { projectKey } = await seedTenant(t.app);
    const ip = nextIp();
    const get = (from: string) =>
      t
        .http()
        .get('/v1/auth/jwks.json')
        .set('X-Service-Project-Key', projectKey)
        .set('X-Forwarded-For', from);
    for (let i = 1; i <= 5; i++) {
      const res = await get(ip);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('5');
      expect(res.headers['ratelimit-remaining']).toBe(String(5 - i));
    }
    const over = await get(ip);
    expectProblem(over, 429, 'rate-limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await get(nextIp())).status).toBe(200);
  });
});
