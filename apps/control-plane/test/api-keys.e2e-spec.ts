import { sha256Hex } from '@gatehouse/crypto';
import { ApiKey, AuditEvent, OutboxEvent } from '@gatehouse/entities';
import { ProjectsCache } from '@gatehouse/identity';
import {
  expectProblem,
  mintAccessToken,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

describe('admin API keys: create (secret once), list, revoke', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let token: string;
  const auth = () => ({ Authorization: `Bearer ${token}` });
  const base = () => `/v1/admin/projects/${tenant.project.id}/api-keys`;

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane);
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
  });
  afterAll(() => t.close());

  it('creates an sk_ key whose secret is shown once and stored only as its SHA-256', async () => {
    const res = await t.http().post(base()).set(auth()).send({ name: 'Backend' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      project_id: tenant.project.id,
      name: 'Backend',
      key_prefix: res.body.secret.slice(0, 11),
      created_at: expect.any(String),
      last_used_at: null,
      secret: expect.stringMatching(/^sk_[A-Za-z0-9_-]{43}$/),
    });
    const row = await t.dataSource.getRepository(ApiKey).findOneByOrFail({ id: res.body.id });
    expect(row.secretHash).toBe(sha256Hex(res.body.secret));
    expect(JSON.stringify(row)).not.toContain(res.body.secret);

    const list = await t.http().get(base()).set(auth());
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      api_keys: [
        {
          id: res.body.id,
          project_id: tenant.project.id,
          name: 'Backend',
          key_prefix: res.body.key_prefix,
          created_at: res.body.created_at,
          last_used_at: null,
        },
      ],
      pagination: { page: 1, limit: 20, total: 1 },
    });
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret);
    expect(JSON.stringify(await t.dataSource.getRepository(AuditEvent).find())).not.toContain(
      res.body.secret,
    );
    expect(
      await t.dataSource.getRepository(AuditEvent).findOneByOrFail({ action: 'api_key.created' }),
    ).toMatchObject({
      actorType: 'admin',
      actorId: tenant.adminUserId,
      projectId: tenant.project.id,
      resourceType: 'api_key',
      resourceId: res.body.id,
    });
  });

  it('revocation takes effect on the very next project-key lookup (what the runtime guard calls)', async () => {
    const created = await t.http().post(base()).set(auth()).send({ name: 'Server' });
    const cache = t.app.get(ProjectsCache);
    const before = await cache.byKey(created.body.secret);
    expect(before).toMatchObject({
      id: tenant.project.id,
      tenantId: tenant.tenantId,
      apiKeyId: created.body.id,
    });
    expect(await cache.byKey(created.body.secret)).toMatchObject({ id: tenant.project.id });

    const del = await t.http().delete(`${base()}/${created.body.id}`).set(auth());
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect(await cache.byKey(created.body.secret)).toBeNull();
    expect(
      (await t.dataSource.getRepository(ApiKey).findOneByOrFail({ id: created.body.id })).revokedAt,
    ).toBeInstanceOf(Date);
    expect(
      await t.dataSource
        .getRepository(AuditEvent)
        .countBy({ action: 'api_key.revoked', resourceId: created.body.id }),
    ).toBe(1);
    expect(await t.dataSource.getRepository(OutboxEvent).countBy({ type: 'api_key.revoked' })).toBe(
      1,
    );

    expect((await t.http().get(base()).set(auth())).body).toEqual({
      api_keys: [],
      pagination: { page: 1, limit: 20, total: 0 },
    });
    expectProblem(
      await t.http().delete(`${base()}/${created.body.id}`).set(auth()),
      404,
      'not-found',
    );
    expect(
      await t.dataSource.getRepository(AuditEvent).countBy({ action: 'api_key.revoked' }),
    ).toBe(1);
  });

  it('a project change drops the cached entries of its live API keys too', async () => {
    const created = await t.http().post(base()).set(auth()).send({ name: 'Server' });
    const cache = t.app.get(ProjectsCache);
    expect((await cache.byKey(created.body.secret))!.allowedOrigins).toEqual([
      'https://app.example.com',
    ]);
    const patched = await t
      .http()
      .patch(`/v1/admin/projects/${tenant.project.id}`)
      .set(auth())
      .send({ allowed_origins: ['https://new.example.com'] });
    expect(patched.status).toBe(200);
    expect((await cache.byKey(created.body.secret))!.allowedOrigins).toEqual([
      'https://new.example.com',
    ]);
  });

  it('validates the body and scopes keys to the project and tenant', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: 5 },
      { name: 'x', secret: 'sk_mine' },
      { name: 'x', project_id: tenant.consoleProjectId },
    ]) {
      expectProblem(
        await t.http().post(base()).set(auth()).send(body),
        400,
        'validation-error',
        base(),
      );
    }
    const other = await seedTenant(t.app, 'Other');
    const otherToken = (await mintAccessToken(t.app, other.adminUserId)).token;
    const foreign = await t
      .http()
      .post(`/v1/admin/projects/${other.project.id}/api-keys`)
      .set('Authorization', `Bearer ${otherToken}`)
      .send({ name: 'B' });
    expect(foreign.status).toBe(201);

    expectProblem(
      await t
        .http()
        .post(`/v1/admin/projects/${other.project.id}/api-keys`)
        .set(auth())
        .send({ name: 'x' }),
      404,
      'not-found',
    );
    expectProblem(
      await t.http().get(`/v1/admin/projects/${other.project.id}/api-keys`).set(auth()),
      404,
      'not-found',
    );
    expectProblem(
      await t
        .http()
        .delete(`/v1/admin/projects/${other.project.id}/api-keys/${foreign.body.id}`)
        .set(auth()),
      404,
      'not-found',
    );
    expectProblem(
      await t.http().delete(`${base()}/${foreign.body.id}`).set(auth()),
      404,
      'not-found',
    );
    expectProblem(await t.http().delete(`${base()}/not-an-id`).set(auth()), 404, 'not-found');
    expect(
      (await t.dataSource.getRepository(ApiKey).findOneByOrFail({ id: foreign.body.id })).revokedAt,
    ).toBeNull();
    expect(await t.app.get(ProjectsCache).byKey(foreign.body.secret)).toMatchObject({
      id: other.project.id,
    });
    expectProblem(await t.http().get(`${base()}?limit=0`).set(auth()), 400, 'validation-error');
  });
});
