import {
  APP_ORIGIN,
  expectProblem,
  mintAccessToken,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

const CONSOLE_ORIGIN = 'https://console.example.com';

describe('CORS on the control plane', () => {
  let t: TestApp;
  let tenant: SeededTenant;

  const preflight = (origin: string, path = '/v1/admin/projects', method = 'PATCH') =>
    t
      .http()
      .options(path)
      .set('Origin', origin)
      .set('Access-Control-Request-Method', method)
      .set('Access-Control-Request-Headers', 'authorization,content-type');

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane);
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    await t.dataSource.query(`UPDATE projects SET allowed_origins = $2::jsonb WHERE id = $1`, [
      tenant.consoleProjectId,
      JSON.stringify([CONSOLE_ORIGIN]),
    ]);
  });
  afterAll(() => t.close());

  it("answers preflights for the console projects' origins only", async () => {
    const ok = await preflight(CONSOLE_ORIGIN, `/v1/admin/projects/${tenant.project.id}`);
    expect(ok.status).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(CONSOLE_ORIGIN);
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    expect(ok.headers['access-control-allow-methods']).toBe('GET, POST, PATCH, DELETE');
    expect(ok.headers['access-control-allow-headers']).toBe(
      'Content-Type, Authorization, X-Service-Project-Key, traceparent',
    );
    expect(ok.headers.vary).toMatch(/\bOrigin\b/);

    // An application project's origin is not an origin of the console.
    const app = await preflight(APP_ORIGIN);
    expect(app.status).toBe(204);
    expect(app.headers['access-control-allow-origin']).toBeUndefined();
    expect(app.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('grants real requests from a console origin, on success and on errors, and nothing to other origins', async () => {
    const { token } = await mintAccessToken(t.app, tenant.adminUserId);
    const ok = await t
      .http()
      .get('/v1/admin/projects')
      .set('Origin', CONSOLE_ORIGIN)
      .set('Authorization', `Bearer ${token}`);
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(CONSOLE_ORIGIN);
    expect(ok.headers['access-control-allow-credentials']).toBe('true');

    const refused = await t
      .http()
      .get('/v1/admin/projects/00000000-0000-4000-8000-000000000000')
      .set('Origin', CONSOLE_ORIGIN)
      .set('Authorization', `Bearer ${token}`);
    expectProblem(refused, 404, 'not-found');
    expect(refused.headers['access-control-allow-origin']).toBe(CONSOLE_ORIGIN);

    // A request that authenticates as no tenant is readable by no origin.
    for (const auth of [undefined, 'Bearer not-a-token']) {
      const req = t.http().get('/v1/admin/projects').set('Origin', CONSOLE_ORIGIN);
      const unauthenticated = await (auth ? req.set('Authorization', auth) : req);
      expectProblem(unauthenticated, 401, 'unauthenticated');
      expect(unauthenticated.headers['access-control-allow-origin']).toBeUndefined();
    }

    const foreign = await t
      .http()
      .get('/v1/admin/projects')
      .set('Origin', APP_ORIGIN)
      .set('Authorization', `Bearer ${token}`);
    expect(foreign.status).toBe(200);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    expect(foreign.headers.vary).toMatch(/\bOrigin\b/);
  });

  it("never lets another tenant's console origin read an admin's answers", async () => {
    const other = await seedTenant(t.app, 'Globex');
    const OTHER_CONSOLE = 'https://console.globex.example';
    await t.dataSource.query(`UPDATE projects SET allowed_origins = $2::jsonb WHERE id = $1`, [
      other.consoleProjectId,
      JSON.stringify([OTHER_CONSOLE]),
    ]);
    const { token } = await mintAccessToken(t.app, tenant.adminUserId);
    // Both are console origins: a preflight (no credentials) is answered for either.
    expect((await preflight(OTHER_CONSOLE)).headers['access-control-allow-origin']).toBe(
      OTHER_CONSOLE,
    );
    for (const [origin, granted] of [
      [OTHER_CONSOLE, false],
      [CONSOLE_ORIGIN, true],
    ] as const) {
      const res = await t
        .http()
        .get('/v1/admin/projects')
        .set('Origin', origin)
        .set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(200);
      expect([origin, res.headers['access-control-allow-origin']]).toEqual([
        origin,
        granted ? origin : undefined,
      ]);
      const cookie = await t
        .http()
        .get('/v1/admin/projects')
        .set('Origin', origin)
        .set('Cookie', `service_session=${token}`);
      expect([origin, cookie.headers['access-control-allow-origin']]).toEqual([
        origin,
        granted ? origin : undefined,
      ]);
    }
    // And the other tenant's admin is readable from theirs only.
    const theirs = (await mintAccessToken(t.app, other.adminUserId)).token;
    const res = await t
      .http()
      .get('/v1/admin/projects')
      .set('Origin', CONSOLE_ORIGIN)
      .set('Authorization', `Bearer ${theirs}`);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a plain OPTIONS on a known path 204 with Allow', async () => {
    const res = await t.http().options('/v1/admin/projects');
    expect(res.status).toBe(204);
    expect(res.headers.allow).toMatch(/\bGET\b.*\bOPTIONS\b/);
  });
});
