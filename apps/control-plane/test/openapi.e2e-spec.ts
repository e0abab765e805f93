import {
  expectEveryRouteToRefuseBadBodies,
  operationsWithoutSuccessSchema,
  mintAccessToken,
  seedTenant,
  startTestApp,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

describe('OpenAPI document and Swagger UI of the control plane', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(buildControlPlane);
  });
  afterAll(() => t.close());

  it('serves the document generated from the code at /docs/openapi.json and the UI at /docs', async () => {
    const doc = await t.http().get('/docs/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    for (const path of [
      '/v1/admin/projects',
      '/v1/admin/users/{id}',
      '/v1/admin/webhooks/{id}/deliveries',
      '/v1/admin/audit',
      '/v1/admin/stats',
      '/v1/admin/projects/{id}/oauth-clients/{client_id}',
      '/health/ready',
    ]) {
      expect(Object.keys(doc.body.paths as object)).toContain(path);
    }
    const ui = await t.http().get('/docs');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger');
  });

  it('says what every operation answers on success: a JSON schema for each 200/201/202, else 204 or a redirect', async () => {
    const doc = await t.http().get('/docs/openapi.json');
    expect(operationsWithoutSuccessSchema(doc.body as object)).toEqual([]);
  });

  it('judges a refused body on every documented route, right after the admin token', async () => {
    await t.reset();
    const tenant = await seedTenant(t.app);
    const token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
    const tried = await expectEveryRouteToRefuseBadBodies(t, { Authorization: `Bearer ${token}` });
    expect(tried).toEqual(
      expect.arrayContaining([
        'POST /v1/admin/projects',
        'PATCH /v1/admin/users/{id}',
        'POST /v1/admin/webhooks/{id}/test',
        'POST /v1/admin/projects/{id}/oauth-clients',
        'PATCH /v1/admin/projects/{id}/oauth-clients/{client_id}',
        'POST /v1/admin/projects/{id}/oauth-clients/{client_id}/secret/rotate',
      ]),
    );
    expect(tried.length).toBeGreaterThan(30);
  });
});
