import {
  eventually,
  startTestApp,
  TcpProxy,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  withPort,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';

const HEALTH_UP = {
  status: 'ok',
  info: { database: { status: 'up' }, cache: { status: 'up' } },
  error: {},
  details: { database: { status: 'up' }, cache: { status: 'up' } },
};

describe('health endpoints (auth-runtime) with real dependencies behind a cuttable proxy', () => {
  const pg = new TcpProxy(Number(new URL(TEST_DATABASE_URL).port || 5432));
  const redis = new TcpProxy(Number(new URL(TEST_REDIS_URL).port || 6379));
  let t: TestApp;

  beforeAll(async () => {
    await pg.start();
    await redis.start();
    t = await startTestApp(buildAuthRuntime, {
      DATABASE_URL: withPort(TEST_DATABASE_URL, pg.port),
      REDIS_URL: withPort(TEST_REDIS_URL, redis.port),
      DEPENDENCY_TIMEOUT_MS: '500',
    });
  });
  afterAll(async () => {
    pg.restore();
    redis.restore();
    await t.close();
    await pg.stop();
    await redis.stop();
  });

  it('reports database and cache up on /health, /health/ready; /health/live is 200', async () => {
    for (const path of ['/health', '/health/ready']) {
      const res = await t.http().get(path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(HEALTH_UP);
    }
    const live = await t.http().get('/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
  });

  it('turns ready to 503 naming the cache while Redis is cut, keeps live at 200, and recovers', async () => {
    redis.cut();
    const down = await t.http().get('/health/ready');
    expect(down.status).toBe(503);
    expect(down.headers['cache-control']).toBe('no-store');
    expect(down.body).toEqual({
      status: 'error',
      info: { database: { status: 'up' } },
      error: { cache: { status: 'down', message: 'unreachable' } },
      details: { database: { status: 'up' }, cache: { status: 'down', message: 'unreachable' } },
    });
    expect((await t.http().get('/health')).status).toBe(503);
    expect((await t.http().get('/health/live')).status).toBe(200);

    redis.restore();
    await eventually(async () => (await t.http().get('/health/ready')).status === 200);
    expect((await t.http().get('/health/ready')).body).toEqual(HEALTH_UP);
  });

  it('turns ready to 503 naming the database while Postgres is cut, and recovers', async () => {
    pg.cut();
    const down = await t.http().get('/health/ready');
    expect(down.status).toBe(503);
    expect(down.body.error).toEqual({ database: { status: 'down', message: 'unreachable' } });
    expect(JSON.stringify(down.body)).not.toMatch(/127\.0\.0\.1|postgres|version/i);
    expect((await t.http().get('/health/live')).status).toBe(200);

    pg.restore();
    await eventually(async () => (await t.http().get('/health/ready')).status === 200);
  });
});
