import {
  AuditEvent,
  Invitation,
  Organization,
  OrganizationMember,
  OutboxEvent,
} from '@gatehouse/entities';
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

describe('admin organizations: create, list, get, patch, delete', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let token: string;
  const auth = () => ({ Authorization: `Bearer ${token}` });
  const create = (body: object) => t.http().post('/v1/admin/organizations').set(auth()).send(body);

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane);
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
  });
  afterAll(() => t.close());

  it('creates an organization in a project (slug derived from the name), gets and lists it', async () => {
    const res = await create({
      project_id: tenant.project.id,
      name: 'Crème Brûlée Club',
      metadata: { tier: 'gold' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      project_id: tenant.project.id,
      name: 'Crème Brûlée Club',
      slug: 'creme-brulee-club',
      metadata: { tier: 'gold' },
      settings: { require_mfa: false },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(
      await t.dataSource
        .getRepository(AuditEvent)
        .findOneByOrFail({ action: 'organization.created' }),
    ).toMatchObject({
      actorType: 'admin',
      actorId: tenant.adminUserId,
      projectId: tenant.project.id,
      resourceType: 'organization',
      resourceId: res.body.id,
    });
    expect(
      await t.dataSource.getRepository(OutboxEvent).countBy({ type: 'organization.created' }),
    ).toBe(1);

    const got = await t.http().get(`/v1/admin/organizations/${res.body.id}`).set(auth());
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);

    const second = await create({ project_id: tenant.project.id, name: 'Crème brûlée club' });
    expect(second.status).toBe(201);
    expect(second.body.slug).toMatch(/^creme-brulee-club-[a-z0-9]{6}$/);
    const inConsole = await create({
      project_id: tenant.consoleProjectId,
      name: 'Ops',
      slug: 'creme-brulee-club',
    });
    expect(inConsole.status).toBe(201);

    const list = await t.http().get('/v1/admin/organizations').set(auth());
    expect(list.body.pagination).toEqual({ page: 1, limit: 20, total: 3 });
    expect(list.body.organizations.map((o: { id: string }) => o.id)).toEqual([
      inConsole.body.id,
      second.body.id,
      res.body.id,
    ]);
    const filtered = await t
      .http()
      .get(`/v1/admin/organizations?project_id=${tenant.consoleProjectId}`)
      .set(auth());
    expect(filtered.body.organizations.map((o: { id: string }) => o.id)).toEqual([
      inConsole.body.id,
    ]);
    const searched = await t.http().get('/v1/admin/organizations?q=BRÛLÉE&limit=1').set(auth());
    expect(searched.body.pagination).toEqual({ page: 1, limit: 1, total: 2 });
    expect(
      (await t.http().get('/v1/admin/organizations?q=%25').set(auth())).body.organizations,
    ).toEqual([]);
  });

  it('refuses a taken slug (409), bad bodies (400) and projects of another tenant (404)', async () => {
    expect((await create({ project_id: tenant.project.id, name: 'A', slug: 'team' })).status).toBe(
      201,
    );
    const taken = expectProblem(
      await create({ project_id: tenant.project.id, name: 'B', slug: 'team' }),
      409,
      'conflict',
      '/v1/admin/organizations',
    );
    expect(taken.errors).toEqual({ slug: [expect.any(String)] });

    const cases: [object, string][] = [
      [{ name: 'x' }, 'project_id'],
      [{ project_id: tenant.project.id }, 'name'],
      [{ project_id: tenant.project.id, name: '  ' }, 'name'],
      [{ project_id: tenant.project.id, name: 'x', slug: 'Not A Slug' }, 'slug'],
      [{ project_id: tenant.project.id, name: 'x', slug: '-x' }, 'slug'],
      [{ project_id: tenant.project.id, name: 'x', metadata: [] }, 'metadata'],
      [
        { project_id: tenant.project.id, name: 'x', id: '00000000-0000-0000-0000-000000000000' },
        'id',
      ],
      [{ project_id: tenant.project.id, name: 'x', tenant_id: tenant.tenantId }, 'tenant_id'],
      [{ project_id: 42, name: 'x' }, 'project_id'],
    ];
    for (const [body, field] of cases) {
      const problem = expectProblem(await create(body), 400, 'validation-error');
      expect(Object.keys(problem.errors as object)).toContain(field);
    }
    const other = await seedTenant(t.app, 'Other');
    expectProblem(await create({ project_id: other.project.id, name: 'Sneaky' }), 404, 'not-found');
    expectProblem(await create({ project_id: 'nope', name: 'Sneaky' }), 404, 'not-found');
    expect(await t.dataSource.getRepository(Organization).count()).toBe(1);
  });

  it('patches name, slug and metadata, with 409 on a taken slug', async () => {
    const a = await create({ project_id: tenant.project.id, name: 'A', slug: 'a' });
    await create({ project_id: tenant.project.id, name: 'B', slug: 'b' });
    const res = await t
      .http()
      .patch(`/v1/admin/organizations/${a.body.id}`)
      .set(auth())
      .send({ name: 'A2', metadata: { x: 1 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.body.id, name: 'A2', slug: 'a', metadata: { x: 1 } });
    const policy = await t
      .http()
      .patch(`/v1/admin/organizations/${a.body.id}`)
      .set(auth())
      .send({ settings: { require_mfa: true } });
    expect(policy.status).toBe(200);
    expect(policy.body).toMatchObject({ metadata: { x: 1 }, settings: { require_mfa: true } });
    // A settings PATCH that leaves require_mfa out keeps it.
    expect(
      (
        await t
          .http()
          .patch(`/v1/admin/organizations/${a.body.id}`)
          .set(auth())
          .send({ settings: {} })
      ).body.settings,
    ).toEqual({ require_mfa: true });
    for (const settings of [{ require_mfa: 'yes' }, { unknown: true }, 'x'])
      expectProblem(
        await t.http().patch(`/v1/admin/organizations/${a.body.id}`).set(auth()).send({ settings }),
        400,
        'validation-error',
      );
    expectProblem(
      await t.http().patch(`/v1/admin/organizations/${a.body.id}`).set(auth()).send({ slug: 'b' }),
      409,
      'conflict',
    );
    expectProblem(
      await t
        .http()
        .patch(`/v1/admin/organizations/${a.body.id}`)
        .set(auth())
        .send({ project_id: tenant.consoleProjectId }),
      400,
      'validation-error',
    );
    expectProblem(
      await t.http().patch(`/v1/admin/organizations/${a.body.id}`).set(auth()).send({ name: null }),
      400,
      'validation-error',
    );
    expect(
      await t.dataSource.getRepository(Organization).findOneByOrFail({ id: a.body.id }),
    ).toMatchObject({ name: 'A2', slug: 'a', projectId: tenant.project.id });
    const events = await t.dataSource
      .getRepository(AuditEvent)
      .findBy({ action: 'organization.updated' });
    expect(events.map((e) => e.metadata.changed)).toEqual([['name', 'metadata'], ['settings']]);
  });

  it('deletes with its members and invitations; then 404', async () => {
    const org = await create({ project_id: tenant.project.id, name: 'Doomed' });
    const u = await createUser(t.app, tenant.project, 'm@example.com');
    await t.dataSource.getRepository(OrganizationMember).save({
      organizationId: org.body.id,
      userId: u.id,
      tenantId: tenant.tenantId,
      role: 'admin',
    });
    await t.dataSource.getRepository(Invitation).save({
      tenantId: tenant.tenantId,
      organizationId: org.body.id,
      email: 'x@example.com',
      role: 'member',
      tokenHash: 'h'.repeat(64),
      expiresAt: new Date(Date.now() + 1000_000),
    });
    const res = await t.http().delete(`/v1/admin/organizations/${org.body.id}`).set(auth());
    expect(res.status).toBe(204);
    expect(await t.dataSource.getRepository(Organization).countBy({ id: org.body.id })).toBe(0);
    expect(
      await t.dataSource.getRepository(OrganizationMember).countBy({ organizationId: org.body.id }),
    ).toBe(0);
    expect(
      await t.dataSource.getRepository(Invitation).countBy({ organizationId: org.body.id }),
    ).toBe(0);
    expect(
      await t.dataSource
        .getRepository(AuditEvent)
        .countBy({ action: 'organization.deleted', resourceId: org.body.id }),
    ).toBe(1);
    expectProblem(
      await t.http().get(`/v1/admin/organizations/${org.body.id}`).set(auth()),
      404,
      'not-found',
    );
    expectProblem(
      await t.http().delete(`/v1/admin/organizations/${org.body.id}`).set(auth()),
      404,
      'not-found',
    );
  });
});
