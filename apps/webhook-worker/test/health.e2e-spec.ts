import {
  expectRawProblem,
  listenOnLoopback,
  rawHttp,
  startTestApp,
  type TestApp,
} from '@gatehouse/testing';
import { buildWebhookWorker } from '../src/app-factory';

describe('webhook-worker health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(buildWebhookWorker);
  });
  afterAll(() => t.close());

  it('serves live, ready and full health with database and cache up', async () => {
    expect((await t.http().get('/health/live')).body).toEqual({ status: 'ok' });
    for (const path of ['/health/ready', '/health']) {
      const res = await t.http().get(path);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body.details).toEqual({ database: { status: 'up' }, cache: { status: 'up' } });
    }
  });

  it('serves nothing but health', async () => {
    for (const path of ['/v1/admin/projects', '/v1/auth/me', '/docs']) {
      const res = await t.http().get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    }
  });

  it('answers what the HTTP parser refuses as problems on its health server too', async () => {
    const port = await listenOnLoopback(t);
    const bad = await rawHttp(port, 'GET /health/\u00ff HTTP/1.1\r\nHost: worker.test\r\n\r\n');
    expectRawProblem(bad.response, 400, 'bad-request', '/health/%FF');
    const big = await rawHttp(
      port,
      `GET /health/live HTTP/1.1\r\nHost: worker.test\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectRawProblem(big.response, 431, 'headers-too-large', '/health/live');
  });
});
