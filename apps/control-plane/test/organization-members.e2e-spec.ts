import { AuditEvent, OrganizationMember, Project } from '@gatehouse/entities';
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

describe('admin organization members: list, add, change role, remove; the last admin stays', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let token: string;
  let orgId: string;
  const auth = () => ({ Authorization: `Bearer ${token}` });
  const members = () => `/v1/admin/organizations/${orgId}/members`;
  const add = (userId: string, role?: string) =>
    t
      .http()
      .post(members())
      .set(auth())
      .send(role ? { user_id: userId, role } : { user_id: userId });
  const roles = async () =>
    (await t.dataSource.getRepository(OrganizationMember).findBy({ organizationId: orgId }))
      .map((m) => [m.userId, m.role])
      .sort();

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane);
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
    orgId = (
      await t
        .http()
        .post('/v1/admin/organizations')
        .set(auth())
        .send({ project_id: tenant.project.id, name: 'Team' })
    ).body.id;
  });
  afterAll(() => t.close());

  it('adds users of the project, lists them with email and role, audited', async () => {
    const ada = await createUser(t.app, tenant.project, 'ada@example.com');
    const bob = await createUser(t.app, tenant.project, 'bob@example.com');
    const res = await add(ada.id, 'admin');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      organization_id: orgId,
      user_id: ada.id,
      email: 'ada@example.com',
      username: null,
      role: 'admin',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await add(bob.id)).body.role).toBe('member');
    expectProblem(await add(bob.id, 'admin'), 409, 'conflict', members());

    const list = await t.http().get(members()).set(auth());
    expect(list.status).toBe(200);
    expect(list.body.pagination).toEqual({ page: 1, limit: 20, total: 2 });
    expect(
      list.body.members.map((m: { email: string; role: string }) => [m.email, m.role]),
    ).toEqual([
      ['ada@example.com', 'admin'],
      ['bob@example.com', 'member'],
    ]);
    const audit = await t.dataSource
      .getRepository(AuditEvent)
      .find({ where: { action: 'organization.member.added' } });
    expect(
      audit.map((a) => [a.resourceType, a.resourceId, a.projectId, a.actorType, a.actorId]).sort(),
    ).toEqual(
      [
        ['organization_member', ada.id, tenant.project.id, 'admin', tenant.adminUserId],
        ['organization_member', bob.id, tenant.project.id, 'admin', tenant.adminUserId],
      ].sort(),
    );
  });

  it('refuses users of another project or tenant (404) and bad bodies (400)', async () => {
    const consoleProject = await t.dataSource
      .getRepository(Project)
      .findOneByOrFail({ id: tenant.consoleProjectId });
    const consoleUser = await createUser(t.app, consoleProject, 'console@example.com');
    const other = await seedTenant(t.app, 'Other');
    const foreign = await createUser(t.app, other.project, 'foreign@example.com');
    for (const id of [
      consoleUser.id,
      foreign.id,
      tenant.adminUserId,
      'nope',
      '00000000-0000-0000-0000-000000000000',
    ]) {
      expectProblem(await add(id), 404, 'not-found', members());
    }
    const u = await createUser(t.app, tenant.project, 'u@example.com');
    for (const body of [
      {},
      { user_id: u.id, role: 'owner' },
      { user_id: 7 },
      { user_id: u.id, tenant_id: tenant.tenantId },
    ]) {
      expectProblem(await t.http().post(members()).set(auth()).send(body), 400, 'validation-error');
    }
    expect(await roles()).toEqual([]);
  });

  it('changes roles; the last admin can be neither demoted nor removed (409)', async () => {
    const ada = await createUser(t.app, tenant.project, 'ada@example.com');
    const bob = await createUser(t.app, tenant.project, 'bob@example.com');
    await add(ada.id, 'admin');
    await add(bob.id, 'member');

    expectProblem(
      await t.http().patch(`${members()}/${ada.id}`).set(auth()).send({ role: 'member' }),
      409,
      'conflict',
    );
    expectProblem(await t.http().delete(`${members()}/${ada.id}`).set(auth()), 409, 'conflict');
    expect(await roles()).toEqual(
      [
        [ada.id, 'admin'],
        [bob.id, 'member'],
      ].sort(),
    );

    const promoted = await t
      .http()
      .patch(`${members()}/${bob.id}`)
      .set(auth())
      .send({ role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ user_id: bob.id, role: 'admin' });
    const demoted = await t
      .http()
      .patch(`${members()}/${ada.id}`)
      .set(auth())
      .send({ role: 'member' });
    expect(demoted.status).toBe(200);
    expect((await t.http().delete(`${members()}/${ada.id}`).set(auth())).status).toBe(204);
    expect(await roles()).toEqual([[bob.id, 'admin']]);
    expectProblem(await t.http().delete(`${members()}/${bob.id}`).set(auth()), 409, 'conflict');
    expectProblem(await t.http().delete(`${members()}/${ada.id}`).set(auth()), 404, 'not-found');
    expectProblem(
      await t.http().patch(`${members()}/${bob.id}`).set(auth()).send({ role: 'owner' }),
      400,
      'validation-error',
    );
    expectProblem(
      await t.http().patch(`${members()}/${bob.id}`).set(auth()).send({}),
      400,
      'validation-error',
    );

    const actions = (
      await t.dataSource.getRepository(AuditEvent).find({ order: { createdAt: 'ASC' } })
    )
      .map((a) => a.action)
      .filter((a) => a.startsWith('organization.member'));
    expect(actions).toEqual([
      'organization.member.added',
      'organization.member.added',
      'organization.member.updated',
      'organization.member.updated',
      'organization.member.removed',
    ]);
  });

  it('keeps one admin when two admins are demoted or removed concurrently', async () => {
    const ada = await createUser(t.app, tenant.project, 'ada@example.com');
    const bob = await createUser(t.app, tenant.project, 'bob@example.com');
    await add(ada.id, 'admin');
    await add(bob.id, 'admin');
    const results = await Promise.all([
      t.http().patch(`${members()}/${ada.id}`).set(auth()).send({ role: 'member' }),
      t.http().delete(`${members()}/${bob.id}`).set(auth()),
    ]);
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 409)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200 || s === 204)).toHaveLength(1);
    const admins = (await roles()).filter(([, role]) => role === 'admin');
    expect(admins).toHaveLength(1);
  });

  it("answers 404 for the members of another tenant's organization, changing nothing", async () => {
    const other = await seedTenant(t.app, 'Other');
    const otherToken = (await mintAccessToken(t.app, other.adminUserId)).token;
    const foreignOrg = (
      await t
        .http()
        .post('/v1/admin/organizations')
        .set('Authorization', `Bearer ${otherToken}`)
        .send({ project_id: other.project.id, name: 'B' })
    ).body.id;
    const foreignUser = await createUser(t.app, other.project, 'b@example.com');
    await t
      .http()
      .post(`/v1/admin/organizations/${foreignOrg}/members`)
      .set('Authorization', `Bearer ${otherToken}`)
      .send({ user_id: foreignUser.id, role: 'admin' });
    const path = `/v1/admin/organizations/${foreignOrg}/members`;
    expectProblem(await t.http().get(path).set(auth()), 404, 'not-found');
    expectProblem(
      await t.http().post(path).set(auth()).send({ user_id: foreignUser.id }),
      404,
      'not-found',
    );
    expectProblem(
      await t.http().patch(`${path}/${foreignUser.id}`).set(auth()).send({ role: 'member' }),
      404,
      'not-found',
    );
    expectProblem(await t.http().delete(`${path}/${foreignUser.id}`).set(auth()), 404, 'not-found');
    expect(
      await t.dataSource.getRepository(OrganizationMember).findBy({ organizationId: foreignOrg }),
    ).toEqual([expect.objectContaining({ userId: foreignUser.id, role: 'admin' })]);
  });
});
