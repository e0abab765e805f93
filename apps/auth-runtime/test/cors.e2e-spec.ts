import { ProjectsCache } from '@gatehouse/identity';
import {
  APP_ORIGIN,
  expectProblem,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';

const OTHER_ORIGIN = 'https://other-app.example.org';
const EVIL_ORIGIN = 'https://evil.example.net';

describe('CORS on the auth runtime', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let other: SeededTenant;

  const preflight = (origin: string, path = '/v1/auth/sign-in', method = 'POST') =>
    t
      .http()
      .options(path)
      .set('Origin', origin)
      .set('Access-Control-Request-Method', method)
      .set('Access-Control-Request-Headers', 'content-type,x-service-project-key');

  function expectCorsGranted(res: { headers: Record<string, string> }, origin: string) {
    expect(res.headers['access-control-allow-origin']).toBe(origin);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers.vary).toMatch(/\bOrigin\b/);
  }

  function expectNoCors(res: { headers: Record<string, string> }) {
    for (const h of [
      'access-control-allow-origin',
      'access-control-allow-credentials',
      'access-control-allow-methods',
      'access-control-allow-headers',
    ]) {
      expect(res.headers[h]).toBeUndefined();
    }
  }

  beforeAll(async () => {
    t = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    other = await seedTenant(t.app, 'Other');
    await t.dataSource.query(`UPDATE projects SET allowed_origins = $2::jsonb WHERE id = $1`, [
      other.project.id,
      JSON.stringify([OTHER_ORIGIN]),
    ]);
  });
  afterAll(() => t.close());

  it('answers a preflight from an allowed origin of any project with 204 and the CORS headers', async () => {
    for (const origin of [APP_ORIGIN, OTHER_ORIGIN]) {
      const res = await preflight(origin);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expectCorsGranted(res, origin);
      expect(res.headers['access-control-allow-methods']).toBe('GET, POST, PATCH, DELETE');
      expect(res.headers['access-control-allow-headers']).toBe(
        'Content-Type, Authorization, X-Service-Project-Key, traceparent',
      );
      expect(res.headers['access-control-max-age']).toBe('600');
    }
    // Preflights for passkeys, sessions (DELETE) and /me (GET) as well: never 405.
    expectCorsGranted(
      await preflight(APP_ORIGIN, '/v1/auth/passkey/authenticate/complete'),
      APP_ORIGIN,
    );
    const del = await preflight(APP_ORIGIN, '/v1/auth/sessions/123', 'DELETE');
    expect(del.status).toBe(204);
    expectCorsGranted(del, APP_ORIGIN);
  });

  it('answers a preflight from any other origin with 204 and no CORS headers', async () => {
    for (const origin of [
      EVIL_ORIGIN,
      'null',
      'https://app.example.com.evil.net',
      'http://app.example.com',
      'not a url',
    ]) {
      const res = await preflight(origin);
      expect(res.status).toBe(204);
      expectNoCors(res);
    }
  });

  it('grants the real request only for an origin of the project named by its key, even on errors', async () => {
    const ok = await t
      .http()
      .post('/v1/auth/sign-in')
      .set('Origin', APP_ORIGIN)
      .set('X-Service-Project-Key', tenant.projectKey)
      .send({ identifier: 'nobody@example.com', password: 'wrong password' });
    expectProblem(ok, 401, 'invalid-credentials');
    expectCorsGranted(ok, APP_ORIGIN);
    expect(ok.headers['access-control-expose-headers']).toBe(
      'traceresponse, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset',
    );

    // An origin of another project, with this project's key: the page may not read the answer.
    const foreign = await t
      .http()
      .post('/v1/auth/sign-in')
      .set('Origin', OTHER_ORIGIN)
      .set('X-Service-Project-Key', tenant.projectKey)
      .send({ identifier: 'nobody@example.com', password: 'wrong password' });
    expect(foreign.status).toBe(401);
    expectNoCors(foreign);
    expect(foreign.headers.vary).toMatch(/\bOrigin\b/);
    expectCorsGranted(
      await t
        .http()
        .get('/v1/auth/me')
        .set('Origin', OTHER_ORIGIN)
        .set('X-Service-Project-Key', other.projectKey),
      OTHER_ORIGIN,
    );

    // Without a key, or with an unknown one: no grant.
    expectNoCors(await t.http().get('/v1/auth/me').set('Origin', APP_ORIGIN));
    expectNoCors(
      await t
        .http()
        .get('/v1/auth/me')
        .set('Origin', APP_ORIGIN)
        .set('X-Service-Project-Key', 'pk_unknownunknownunknownunknown'),
    );
    // The key as `project_key` (browser navigations) names the project too.
    expectCorsGranted(
      await t
        .http()
        .get(`/v1/auth/jwks.json?project_key=${tenant.projectKey}`)
        .set('Origin', APP_ORIGIN),
      APP_ORIGIN,
    );

    // Errors raised before body parsing (415, 400 invalid-json) stay readable by an allowed page.
    const unsupported = await t
      .http()
      .post('/v1/auth/sign-in')
      .set('Origin', APP_ORIGIN)
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('Content-Type', 'text/plain')
      .send('hello');
    expectProblem(unsupported, 415, 'unsupported-media-type');
    expectCorsGranted(unsupported, APP_ORIGIN);
    const badJson = await t
      .http()
      .post('/v1/auth/sign-in')
      .set('Origin', APP_ORIGIN)
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('Content-Type', 'application/json')
      .send('{"identifier":');
    expectProblem(badJson, 400, 'invalid-json');
    expectCorsGranted(badJson, APP_ORIGIN);
  });

  it('answers a plain OPTIONS on a known path 204 with Allow, and 404 on an unknown path', async () => {
    const known = await t.http().options('/v1/auth/sessions');
    expect(known.status).toBe(204);
    expect(known.headers.allow).toBe('GET, HEAD, OPTIONS');
    expectNoCors(known);
    expectProblem(
      await t.http().options('/v1/auth/no-such-thing'),
      404,
      'not-found',
      '/v1/auth/no-such-thing',
    );
  });

  it('sees a changed origin list on the next preflight once the project is invalidated', async () => {
    const added = 'https://new-app.example.com';
    expectNoCors(await preflight(added));
    await t.dataSource.query(`UPDATE projects SET allowed_origins = $2::jsonb WHERE id = $1`, [
      tenant.project.id,
      JSON.stringify([APP_ORIGIN, added]),
    ]);
    await t.app
      .get(ProjectsCache)
      .invalidateProject({ id: tenant.project.id, publishableKey: tenant.projectKey });
    expectCorsGranted(await preflight(added), added);
    expectCorsGranted(
      await t
        .http()
        .get('/v1/auth/me')
        .set('Origin', added)
        .set('X-Service-Project-Key', tenant.projectKey),
      added,
    );
  });
});
