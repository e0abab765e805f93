import { AuditEvent, OrganizationMember, OutboxEvent, ProjectRole } from '@gatehouse/entities';
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

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SYSTEM = ['org:members:read', 'org:members:manage', 'org:settings:manage', 'org:delete'];

describe('admin roles and permissions of a project (docs/api-contract.md §14)', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let token: string;

  const auth = () => ({ Authorization: `Bearer ${token}` });
  const roles = (projectId = tenant.project.id) => `/v1/admin/projects/${projectId}/roles`;
  const perms = (projectId = tenant.project.id) => `/v1/admin/projects/${projectId}/permissions`;
  const post = (path: string, body?: unknown, h = auth()) =>
    t
      .http()
      .post(path)
      .set(h)
      .send(body as object);
  const get = (path: string, h = auth()) => t.http().get(path).set(h);
  const patch = (path: string, body: unknown, h = auth()) =>
    t
      .http()
      .patch(path)
      .set(h)
      .send(body as object);
  const del = (path: string, h = auth()) => t.http().delete(path).set(h);
  const permission = async (key: string, description?: string) => {
    const res = await post(perms(), description === undefined ? { key } : { key, description });
    expect(res.status).toBe(201);
    return res.body as Record<string, unknown>;
  };
  const role = async (key: string, permissions: string[], name = key) => {
    const res = await post(roles(), { key, name, permissions });
    expect(res.status).toBe(201);
    return res.body as Record<string, unknown>;
  };
  const eventsOf = async (action: string) => ({
    audit: await t.dataSource
      .getRepository(AuditEvent)
      .find({ where: { action }, order: { createdAt: 'ASC' } }),
    outbox: await t.dataSource
      .getRepository(OutboxEvent)
      .find({ where: { type: action }, order: { createdAt: 'ASC' } }),
  });
  const organization = async () => {
    const res = await post('/v1/admin/organizations', {
      project_id: tenant.project.id,
      name: 'Acme',
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane);
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
  });
  afterAll(() => t.close());

  it('a new project has the built-in admin (every system permission) and member (none), and the system permissions in its catalog', async () => {
    const list = await get(roles());
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      roles: [
        {
          key: 'admin',
          name: 'Admin',
          description: expect.any(String),
          permissions: SYSTEM,
          built_in: true,
          created_at: expect.stringMatching(TIME),
          updated_at: expect.stringMatching(TIME),
        },
        {
          key: 'member',
          name: 'Member',
          description: expect.any(String),
          permissions: [],
          built_in: true,
          created_at: expect.stringMatching(TIME),
          updated_at: expect.stringMatching(TIME),
        },
      ],
      pagination: { page: 1, limit: 20, total: 2 },
    });
    expect((await get(`${roles()}/member`)).body.key).toBe('member');
    const catalog = await get(perms());
    expect(catalog.status).toBe(200);
    expect(catalog.body.pagination).toEqual({ page: 1, limit: 20, total: 4 });
    expect(catalog.body.permissions).toEqual(
      SYSTEM.map((key) => ({
        key,
        description: expect.any(String),
        system: true,
        created_at: null,
      })),
    );
  });

  it('creates permissions (201), refuses a duplicate (409) and malformed or reserved keys (400), lists them after the system ones, audited', async () => {
    const made = await permission('invoices:read', 'Read invoices');
    expect(made).toEqual({
      key: 'invoices:read',
      description: 'Read invoices',
      system: false,
      created_at: expect.stringMatching(TIME),
    });
    await permission('billing:export.csv');
    const dup = expectProblem(await post(perms(), { key: 'invoices:read' }), 409, 'conflict');
    expect(dup.errors).toEqual({ key: ['is already a permission of this project'] });
    for (const key of [
      'Invoices:read',
      'invoices',
      'invoices:read:all',
      'org:billing',
      ':read',
      `a:${'b'.repeat(63)}`,
      42,
      null,
    ]) {
      const p = expectProblem(await post(perms(), { key }), 400, 'validation-error');
      expect(p.errors).toHaveProperty('key');
    }
    expectProblem(
      await post(perms(), { key: 'a:b', description: 'x'.repeat(301) }),
      400,
      'validation-error',
    );
    expectProblem(await post(perms(), { key: 'a:b', extra: 1 }), 400, 'validation-error');

    const list = await get(`${perms()}?limit=5`);
    expect(list.body.pagination).toEqual({ page: 1, limit: 5, total: 6 });
    expect(list.body.permissions.map((p: { key: string }) => p.key)).toEqual([
      ...SYSTEM,
      'billing:export.csv',
    ]);
    const second = await get(`${perms()}?limit=5&page=2`);
    expect(second.body.permissions.map((p: { key: string }) => p.key)).toEqual(['invoices:read']);

    const { audit, outbox } = await eventsOf('permission.created');
    expect(audit).toHaveLength(2);
    expect(outbox).toHaveLength(2);
    expect(audit[0]).toMatchObject({
      actorType: 'admin',
      actorId: tenant.adminUserId,
      projectId: tenant.project.id,
      resourceType: 'permission',
      metadata: {
        permission: {
          key: 'invoices:read',
          description: 'Read invoices',
          project_id: tenant.project.id,
        },
      },
    });
  });

  it('creates a custom role with catalog and system permissions (sorted, system first); admin then holds the new permission too', async () => {
    await permission('invoices:read');
    await permission('invoices:write');
    const made = await role('billing', ['invoices:write', 'org:members:read', 'invoices:read']);
    expect(made).toEqual({
      key: 'billing',
      name: 'billing',
      description: '',
      permissions: ['org:members:read', 'invoices:read', 'invoices:write'],
      built_in: false,
      created_at: expect.stringMatching(TIME),
      updated_at: expect.stringMatching(TIME),
    });
    expect((await get(`${roles()}/billing`)).body).toEqual(made);
    expect((await get(`${roles()}/admin`)).body.permissions).toEqual([
      ...SYSTEM,
      'invoices:read',
      'invoices:write',
    ]);
    const list = await get(roles());
    expect(list.body.roles.map((r: { key: string }) => r.key)).toEqual([
      'admin',
      'member',
      'billing',
    ]);
    expect(list.body.pagination.total).toBe(3);

    const { audit, outbox } = await eventsOf('role.created');
    expect(outbox).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      resourceType: 'role',
      metadata: {
        role: {
          key: 'billing',
          permissions: ['org:members:read', 'invoices:read', 'invoices:write'],
          project_id: tenant.project.id,
        },
      },
    });
  });

  it('refuses a built-in or taken key (409), an unknown permission (400 naming it), and malformed bodies (400), writing nothing', async () => {
    await permission('invoices:read');
    await role('billing', ['invoices:read']);
    const before = await t.dataSource.getRepository(ProjectRole).count();
    for (const key of ['admin', 'member', 'billing']) {
      const p = expectProblem(
        await post(roles(), { key, name: 'X', permissions: [] }),
        409,
        'conflict',
      );
      expect(p.errors).toEqual({ key: ['is already a role of this project'] });
    }
    const unknown = expectProblem(
      await post(roles(), {
        key: 'ops',
        name: 'Ops',
        permissions: ['invoices:read', 'ops:deploy'],
      }),
      400,
      'validation-error',
    );
    expect(unknown.errors).toEqual({
      permissions: ['ops:deploy is not a permission of this project'],
    });
    for (const body of [
      { key: 'Ops', name: 'Ops', permissions: [] },
      { key: 'x'.repeat(41), name: 'Ops', permissions: [] },
      { key: 'ops', name: ' ', permissions: [] },
      { key: 'ops', name: 'Ops' },
      { key: 'ops', name: 'Ops', permissions: 'invoices:read' },
      { key: 'ops', name: 'Ops', permissions: ['invoices:read', 'invoices:read'] },
      { key: 'ops', name: 'Ops', permissions: ['not a key'] },
      { key: 'ops', name: 'Ops', permissions: Array.from({ length: 101 }, (_, i) => `p:${i}`) },
    ]) {
      expectProblem(await post(roles(), body), 400, 'validation-error');
    }
    expect(await t.dataSource.getRepository(ProjectRole).count()).toBe(before);
    expectProblem(await get(`${roles()}/nobody`), 404, 'not-found');
    expectProblem(await patch(`${roles()}/nobody`, { name: 'N' }), 404, 'not-found');
    expectProblem(await del(`${roles()}/nobody`), 404, 'not-found');
    expectProblem(await del(`${perms()}/nothing:here`), 404, 'not-found');
  });

  it("updates a role's members with data.changes, writes nothing for a no-op, edits the built-in member, and never narrows admin (409)", async () => {
    await permission('invoices:read');
    await permission('invoices:write');
    await role('billing', ['invoices:read'], 'Billing');
    const res = await patch(`${roles()}/billing`, {
      name: 'Billing manager',
      permissions: ['invoices:write', 'invoices:read'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      key: 'billing',
      name: 'Billing manager',
      permissions: ['invoices:read', 'invoices:write'],
    });
    let updated = await eventsOf('role.updated');
    expect(updated.audit).toHaveLength(1);
    expect(updated.audit[0].metadata).toMatchObject({
      changes: {
        name: { from: 'Billing', to: 'Billing manager' },
        permissions: { from: ['invoices:read'], to: ['invoices:read', 'invoices:write'] },
      },
    });
    expect(
      (await patch(`${roles()}/billing`, { permissions: ['invoices:read', 'invoices:write'] }))
        .status,
    ).toBe(200);
    expect((await eventsOf('role.updated')).audit).toHaveLength(1);
    expectProblem(await patch(`${roles()}/billing`, { key: 'other' }), 400, 'validation-error');

    const member = await patch(`${roles()}/member`, { permissions: ['invoices:read'] });
    expect(member.status).toBe(200);
    expect(member.body).toMatchObject({ key: 'member', built_in: true, name: 'Member' });
    expect((await get(`${roles()}/member`)).body.permissions).toEqual(['invoices:read']);

    const narrowed = expectProblem(
      await patch(`${roles()}/admin`, { permissions: SYSTEM }),
      409,
      'conflict',
    );
    expect(String(narrowed.detail)).toMatch(/cannot be narrowed/);
    const renamed = await patch(`${roles()}/admin`, {
      name: 'Owner',
      permissions: [...SYSTEM, 'invoices:write', 'invoices:read'],
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      key: 'admin',
      name: 'Owner',
      permissions: [...SYSTEM, 'invoices:read', 'invoices:write'],
    });
    updated = await eventsOf('role.updated');
    expect(updated.outbox).toHaveLength(3);
  });

  it('a permission a role grants is not deleted (409) until no role grants it; a system permission never is', async () => {
    await permission('invoices:read');
    await role('billing', ['invoices:read']);
    await patch(`${roles()}/member`, { permissions: ['invoices:read'] });
    const held = expectProblem(await del(`${perms()}/invoices:read`), 409, 'conflict');
    expect(String(held.detail)).toContain('billing, member');
    expectProblem(await del(`${perms()}/org:delete`), 409, 'conflict');

    await patch(`${roles()}/billing`, { permissions: [] });
    await patch(`${roles()}/member`, { permissions: [] });
    expect((await del(`${perms()}/invoices:read`)).status).toBe(204);
    expect((await get(perms())).body.pagination.total).toBe(4);
    const { audit, outbox } = await eventsOf('permission.deleted');
    expect(audit).toHaveLength(1);
    expect(outbox).toHaveLength(1);
  });

  it('members and invitations take any role of the project, not an unknown one; a held role is not deleted (409), built-ins never are', async () => {
    await permission('invoices:read');
    await role('billing', ['invoices:read']);
    const orgId = await organization();
    const ada = await createUser(t.app, tenant.project, 'ada@example.com');
    const bob = await createUser(t.app, tenant.project, 'bob@example.com');
    const members = `/v1/admin/organizations/${orgId}/members`;

    const unknownRole = expectProblem(
      await post(members, { user_id: ada.id, role: 'ghost' }),
      400,
      'validation-error',
    );
    expect(unknownRole.errors).toEqual({ role: ['is not a role of this project'] });
    expectProblem(
      await post(members, { user_id: ada.id, role: 'Bad Role' }),
      400,
      'validation-error',
    );
    expect(await t.dataSource.getRepository(OrganizationMember).count()).toBe(0);

    expect((await post(members, { user_id: ada.id, role: 'admin' })).status).toBe(201);
    const added = await post(members, { user_id: bob.id, role: 'billing' });
    expect(added.status).toBe(201);
    expect(added.body.role).toBe('billing');
    expectProblem(await patch(`${members}/${bob.id}`, { role: 'ghost' }), 400, 'validation-error');

    const held = expectProblem(await del(`${roles()}/billing`), 409, 'conflict');
    expect(String(held.detail)).toMatch(/1 member/);
    expect((await patch(`${members}/${bob.id}`, { role: 'member' })).body.role).toBe('member');

    const invitation = await post(`/v1/admin/organizations/${orgId}/invitations`, {
      email: 'cy@example.com',
      role: 'billing',
    });
    expect(invitation.status).toBe(201);
    expect(invitation.body.role).toBe('billing');
    expectProblem(
      await post(`/v1/admin/organizations/${orgId}/invitations`, {
        email: 'dee@example.com',
        role: 'ghost',
      }),
      400,
      'validation-error',
    );
    const invited = expectProblem(await del(`${roles()}/billing`), 409, 'conflict');
    expect(String(invited.detail)).toMatch(/1 pending invitation/);
    expect(
      (await del(`/v1/admin/organizations/${orgId}/invitations/${invitation.body.id}`)).status,
    ).toBe(204);

    expect((await del(`${roles()}/billing`)).status).toBe(204);
    expectProblem(await get(`${roles()}/billing`), 404, 'not-found');
    for (const key of ['admin', 'member'])
      expectProblem(await del(`${roles()}/${key}`), 409, 'conflict');
    const { audit, outbox } = await eventsOf('role.deleted');
    expect(audit).toHaveLength(1);
    expect(outbox).toHaveLength(1);
    expect(audit[0].metadata).toMatchObject({ role: { key: 'billing' } });
    expect(outbox[0].payload).toEqual(audit[0].metadata);
  });

  it('a role deleted while a member is given it concurrently is either deleted or held, never both', async () => {
    const orgId = await organization();
    const users = await Promise.all(
      [0, 1, 2, 3, 4].map((i) => createUser(t.app, tenant.project, `u${i}@example.com`)),
    );
    for (const [i, user] of users.entries()) {
      await role(`r${i}`, []);
      const [given, deleted] = await Promise.all([
        post(`/v1/admin/organizations/${orgId}/members`, { user_id: user.id, role: `r${i}` }),
        del(`${roles()}/r${i}`),
      ]);
      const member = await t.dataSource
        .getRepository(OrganizationMember)
        .findOneBy({ organizationId: orgId, userId: user.id });
      const stored = await t.dataSource
        .getRepository(ProjectRole)
        .findOneBy({ projectId: tenant.project.id, key: `r${i}` });
      if (given.status === 201) {
        expect(deleted.status).toBe(409);
        expect(member?.role).toBe(`r${i}`);
        expect(stored).not.toBeNull();
      } else {
        expect([given.status, deleted.status]).toEqual([400, 204]);
        expect(member).toBeNull();
        expect(stored).toBeNull();
      }
    }
  });

  it('a permission deleted while a role is given it concurrently is either deleted or granted, never both', async () => {
    for (let i = 0; i < 5; i += 1) {
      await permission(`p${i}:use`);
      const [created, deleted] = await Promise.all([
        post(roles(), { key: `r${i}`, name: 'R', permissions: [`p${i}:use`] }),
        del(`${perms()}/p${i}:use`),
      ]);
      if (created.status === 201) expect(deleted.status).toBe(409);
      else expect([created.status, deleted.status]).toEqual([400, 204]);
    }
  });

  it("another tenant's admin gets 404 on every route and changes nothing; no token is 401, a non-admin 403", async () => {
    await permission('invoices:read');
    await role('billing', ['invoices:read']);
    const other = await seedTenant(t.app, 'Intruder');
    const intruder = {
      Authorization: `Bearer ${(await mintAccessToken(t.app, other.adminUserId)).token}`,
    };
    const attempts = [
      () => get(roles(), intruder),
      () => get(`${roles()}/billing`, intruder),
      () => get(`${roles()}/admin`, intruder),
      () => post(roles(), { key: 'spy', name: 'Spy', permissions: [] }, intruder),
      () => patch(`${roles()}/billing`, { name: 'Owned' }, intruder),
      () => patch(`${roles()}/member`, { permissions: ['org:delete'] }, intruder),
      () => del(`${roles()}/billing`, intruder),
      () => get(perms(), intruder),
      () => post(perms(), { key: 'spy:read' }, intruder),
      () => del(`${perms()}/invoices:read`, intruder),
    ];
    for (const attempt of attempts) expectProblem(await attempt(), 404, 'not-found');
    expect((await get(`${roles()}/billing`)).body.name).toBe('billing');
    expect((await get(`${roles()}/member`)).body.permissions).toEqual([]);
    expect((await get(perms())).body.pagination.total).toBe(5);
    expectProblem(await get(roles('not-a-uuid')), 404, 'not-found');

    expectProblem(await t.http().get(roles()), 401, 'unauthenticated');
    const user = await createUser(t.app, tenant.project, 'plain@example.com');
    const plain = { Authorization: `Bearer ${(await mintAccessToken(t.app, user.id)).token}` };
    expectProblem(await get(roles(), plain), 403, 'forbidden');
    expectProblem(await post(perms(), { key: 'x:y' }, plain), 403, 'forbidden');
  });
});
