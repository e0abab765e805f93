import request from 'supertest';
import {
  nextIp,
  seedTenant,
  signUpUser,
  SmtpSink,
  spawnApp,
  startTestApp,
  TcpProxy,
  TEST_DATABASE_URL,
  withPort,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';

/** docs/operations.md: graceful shutdown, one JSON log line per request, Prometheus metrics. */
describe('operations: SIGTERM, request logs and metrics', () => {
  let t: TestApp;
  let tenant: SeededTenant;

  beforeAll(async () => {
    t = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
  });
  afterAll(() => t.close());

  it('finishes a request in flight on SIGTERM, refuses new connections, and exits 0', async () => {
    const u = await signUpUser(t, tenant.projectKey, 'slow@example.com');
    const pg = new TcpProxy(Number(new URL(TEST_DATABASE_URL).port || 5432));
    await pg.start();
    const app = await spawnApp('auth-runtime', {
      DATABASE_URL: withPort(TEST_DATABASE_URL, pg.port),
      SHUTDOWN_GRACE_MS: '10000',
    });
    try {
      const base = `http://127.0.0.1:${app.port}`;
      pg.delayMs = 1500;
      const inFlight = request(base)
        .get('/v1/auth/me')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('Authorization', `Bearer ${u.accessToken}`)
        .then((r) => r);
      await new Promise((r) => setTimeout(r, 400));
      const exit = app.stop();
      await new Promise((r) => setTimeout(r, 200));
      await expect(request(base).get('/health/live').timeout(2000)).rejects.toThrow();
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(res.body.user.email).toBe('slow@example.com');
      expect(await exit).toBe(0);
      expect(app.output()).toContain('gatehouse: SIGTERM received, shutting down');
      expect(app.output()).toContain('gatehouse: stopped');
    } finally {
      await app.kill();
      await pg.stop();
    }
  }, 30_000);

  it('lets the worker finish the job it is sending on SIGTERM, then exit 0', async () => {
    const smtp = new SmtpSink();
    await smtp.start();
    smtp.delayMs = 1500;
    const worker = await spawnApp('webhook-worker', { SMTP_URL: smtp.url });
    try {
      await signUpUser(t, tenant.projectKey, 'job@example.com');
      const res = await t
        .http()
        .post('/v1/auth/password/forgot')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('X-Forwarded-For', nextIp())
        .send({ email: 'job@example.com' });
      expect(res.status).toBe(202);
      await new Promise((r) => setTimeout(r, 700));
      const exit = worker.stop();
      expect(await exit).toBe(0);
      expect(smtp.mails.map((m) => JSON.stringify(m.to))).toEqual([
        expect.stringContaining('job@example.com'),
      ]);
    } finally {
      await worker.kill();
      await smtp.stop();
    }
  }, 30_000);

  it('logs one JSON line per request with its trace id, and serves metrics only on the metrics listener', async () => {
    const app = await spawnApp('auth-runtime', { LOG_JSON: 'true', LOG_LEVEL: 'info' });
    try {
      const base = request(`http://127.0.0.1:${app.port}`);
      const traceId = 'abcdef0123456789abcdef0123456789';
      await base.get('/health/ready').set('traceparent', `00-${traceId}-0123456789abcdef-01`);
      await base.get('/v1/auth/nowhere');
      await base
        .post('/v1/auth/sign-in')
        .set('X-Service-Project-Key', tenant.projectKey)
        .send({ identifier: 'x@example.com', password: 'wrong password' });
      await new Promise((r) => setTimeout(r, 200));
      const lines = app
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map(
          (l) =>
            JSON.parse(l) as {
              message?: {
                msg?: string;
                route?: string;
                status?: number;
                traceId?: string;
                ms?: number;
              };
            },
        );
      const requests = lines.map((l) => l.message).filter((m) => m?.msg === 'request');
      expect(requests).toHaveLength(3);
      expect(requests[0]).toEqual(
        expect.objectContaining({ route: '/health/ready', status: 200, traceId }),
      );
      expect(requests[2]).toEqual(
        expect.objectContaining({
          route: '/v1/auth/sign-in',
          status: 401,
          traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
        }),
      );
      expect(app.output()).not.toContain('wrong password');

      expect((await base.get('/metrics')).status).toBe(404);
      expect(app.metricsPort).toBeGreaterThan(0);
      const metrics = await request(`http://127.0.0.1:${app.metricsPort}`).get('/metrics');
      expect(metrics.status).toBe(200);
      expect(metrics.text).toContain(
        'gatehouse_http_requests_total{app="auth-runtime",method="GET",route="/health/ready",status="200"} 1',
      );
      expect(metrics.text).toContain(
        'gatehouse_http_requests_total{app="auth-runtime",method="POST",route="/v1/auth/sign-in",status="401"} 1',
      );
      expect(metrics.text).toMatch(
        /gatehouse_http_request_duration_seconds_bucket\{le="0.1",app="auth-runtime",method="GET",route="\/health\/ready"\}/,
      );
    } finally {
      await app.stop();
    }
  }, 30_000);

  it("reports the depth of every queue on the worker's metrics listener", async () => {
    const worker = await spawnApp('webhook-worker', { SMTP_URL: 'smtp://127.0.0.1:9' });
    try {
      await signUpUser(t, tenant.projectKey, 'depth@example.com');
      await t
        .http()
        .post('/v1/auth/password/forgot')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('X-Forwarded-For', nextIp())
        .send({ email: 'depth@example.com' });
      const metrics = async () =>
        (await request(`http://127.0.0.1:${worker.metricsPort}`).get('/metrics')).text;
      let text = await metrics();
      for (
        let i = 0;
        i < 50 && !/gatehouse_queue_jobs\{queue="mail",state="delayed"\} 1/.test(text);
        i++
      ) {
        await new Promise((r) => setTimeout(r, 200));
        text = await metrics();
      }
      // The SMTP address refuses connections, so the mail waits for its next attempt.
      expect(text).toMatch(/gatehouse_queue_jobs\{queue="mail",state="delayed"\} 1/);
      for (const queue of ['mail', 'sms', 'webhook-deliveries']) {
        for (const state of ['waiting', 'active', 'delayed', 'failed'])
          expect(text).toMatch(
            new RegExp(`gatehouse_queue_jobs\\{queue="${queue}",state="${state}"\\} \\d+`),
          );
      }
    } finally {
      await worker.stop();
    }
  }, 30_000);
});
