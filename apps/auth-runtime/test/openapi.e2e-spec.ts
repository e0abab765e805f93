import {
  expectEveryRouteToRefuseBadBodies,
  operationsWithoutSuccessSchema,
  mintAccessToken,
  seedTenant,
  signUpUser,
  startTestApp,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';

describe('OpenAPI document and Swagger UI of the auth runtime', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(buildAuthRuntime);
  });
  afterAll(() => t.close());

  it('serves the document generated from the code at /docs/openapi.json and the UI at /docs', async () => {
    const doc = await t.http().get('/docs/openapi.json');
    expect(doc.status).toBe(200);
    for (const path of [
      '/v1/auth/sign-up',
      '/v1/auth/sign-in',
      '/v1/auth/refresh',
      '/v1/auth/me',
      '/v1/auth/mfa/verify',
      '/v1/auth/passkey/authenticate/complete',
      '/v1/auth/oauth/callback',
      '/v1/auth/magic-link/verify',
      '/v1/auth/jwks.json',
    ]) {
      expect(Object.keys(doc.body.paths as object)).toContain(path);
    }
    expect((await t.http().get('/docs')).status).toBe(200);
  });

  it('says what every operation answers on success: a JSON schema for each 200/201/202, else 204 or a redirect', async () => {
    const doc = await t.http().get('/docs/openapi.json');
    expect(operationsWithoutSuccessSchema(doc.body as object)).toEqual([]);
  });

  it('judges a refused body on every documented route, right after the project key and session', async () => {
    await t.reset();
    const tenant = await seedTenant(t.app);
    const user = await signUpUser(t, tenant.projectKey, 'bodies@example.com');
    const token = (await mintAccessToken(t.app, user.id)).token;
    const tried = await expectEveryRouteToRefuseBadBodies(t, {
      'X-Service-Project-Key': tenant.projectKey,
      Authorization: `Bearer ${token}`,
    });
    expect(tried).toEqual(
      expect.arrayContaining([
        'GET /v1/auth/me',
        'POST /v1/auth/refresh',
        'POST /v1/auth/sign-in',
        'POST /v1/auth/mfa/totp/setup',
        'POST /v1/auth/oauth/callback',
      ]),
    );
    expect(tried.length).toBeGreaterThan(30);
  });
});
