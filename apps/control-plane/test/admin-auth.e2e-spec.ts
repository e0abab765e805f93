import {
  createUser,
  expectProblem,
  mintAccessToken,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';
import { AccessTokensService } from '@gatehouse/identity';

describe('admin authentication on the control plane', () => {
  let t: TestApp;
  let tenant: SeededTenant;

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane);
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
  });
  afterAll(() => t.close());

  it('accepts a bearer access token of the console admin and scopes to its tenant', async () => {
    const other = await seedTenant(t.app, 'Other');
    const { token } = await mintAccessToken(t.app, tenant.adminUserId);
    const res = await t.http().get('/v1/admin/projects').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    const ids = (res.body.projects as { id: string }[]).map((p) => p.id).sort();
    expect(ids).toEqual([tenant.consoleProjectId, tenant.project.id].sort());
    expect(ids).not.toContain(other.project.id);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 2 });
  });

  it('accepts the service_session cookie', async () => {
    const { token } = await mintAccessToken(t.app, tenant.adminUserId);
    const res = await t
      .http()
      .get(`/v1/admin/projects/${tenant.project.id}`)
      .set('Cookie', `service_session=${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: tenant.project.id,
      publishable_key: tenant.projectKey,
      allowed_origins: ['https://app.example.com'],
    });
  });

  it('answers 401 without a token or with a bad one', async () => {
    expectProblem(
      await t.http().get('/v1/admin/projects'),
      401,
      'unauthenticated',
      '/v1/admin/projects',
    );
    expectProblem(
      await t.http().get('/v1/admin/projects').set('Authorization', 'Bearer nope.nope.nope'),
      401,
      'unauthenticated',
    );
  });

  it('answers 403 to a valid token of a non-admin user', async () => {
    const user = await createUser(t.app, tenant.project, 'plain@example.com');
    const { token } = await mintAccessToken(t.app, user.id);
    expectProblem(
      await t.http().get('/v1/admin/projects').set('Authorization', `Bearer ${token}`),
      403,
      'forbidden',
      '/v1/admin/projects',
    );
  });

  it('refuses a token whose session was revoked', async () => {
    const { token, sessionId } = await mintAccessToken(t.app, tenant.adminUserId);
    await t.app.get(AccessTokensService).markRevoked([sessionId]);
    expectProblem(
      await t.http().get('/v1/admin/projects').set('Authorization', `Bearer ${token}`),
      401,
      'unauthenticated',
    );
  });

  it("answers 404 for another tenant's project and for malformed ids", async () => {
    const other = await seedTenant(t.app, 'Other');
    const { token } = await mintAccessToken(t.app, tenant.adminUserId);
    for (const id of [other.project.id, 'not-a-uuid', '00000000-0000-0000-0000-000000000000']) {
      expectProblem(
        await t.http().get(`/v1/admin/projects/${id}`).set('Authorization', `Bearer ${token}`),
        404,
        'not-found',
      );
    }
  });

  it('answers 400 for page or limit out of range', async () => {
    const { token } = await mintAccessToken(t.app, tenant.adminUserId);
    for (const q of ['limit=0', 'limit=101', 'page=0', 'page=abc', 'limit=1.5']) {
      const res = await t
        .http()
        .get(`/v1/admin/projects?${q}`)
        .set('Authorization', `Bearer ${token}`);
      expectProblem(res, 400, 'validation-error');
    }
  });
});
