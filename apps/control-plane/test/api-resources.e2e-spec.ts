import { ApiResource, AuditEvent, OutboxEvent } from '@gatehouse/entities';
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

const MCP = 'https://mcp.example.com/mcp';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Resource = Record<string, unknown> & { id: string };

describe("admin API resources of a project (tokens for the project's APIs)", () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let token: string;

  const auth = () => ({ Authorization: `Bearer ${token}` });
  const base = (projectId = tenant.project.id) => `/v1/admin/projects/${projectId}/api-resources`;
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
  const create = async (
    body: Record<string, unknown> = {},
    projectId?: string,
  ): Promise<Resource> => {
    const res = await post(base(projectId), {
      identifier: MCP,
      name: 'MCP server',
      scopes: [{ name: 'mcp:tools', description: 'Use the tools' }],
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body as Resource;
  };
  const rows = () => t.dataSource.getRepository(ApiResource).find({ order: { createdAt: 'ASC' } });
  const eventsOf = async (action: string) => ({
    audit: await t.dataSource
      .getRepository(AuditEvent)
      .find({ where: { action }, order: { createdAt: 'ASC' } }),
    outbox: await t.dataSource
      .getRepository(OutboxEvent)
      .find({ where: { type: action }, order: { createdAt: 'ASC' } }),
  });

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane);
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
  });
  afterAll(() => t.close());

  it('creates a resource with the defaults (201), lists and gets it, and writes api_resource.created to the audit log and the outbox', async () => {
    const res = await post(base(), {
      identifier: 'https://MCP.example.com/mcp',
      name: 'MCP server',
      scopes: [{ name: 'mcp:tools', description: 'Use the tools' }, { name: 'mcp:read' }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      identifier: MCP,
      name: 'MCP server',
      scopes: [
        { name: 'mcp:tools', description: 'Use the tools' },
        { name: 'mcp:read', description: '' },
      ],
      access_token_ttl_seconds: null,
      allow_dynamic_clients: false,
      created_at: expect.stringMatching(TIME),
      updated_at: expect.stringMatching(TIME),
    });
    const resource = res.body as Resource;
    expect(await rows()).toEqual([
      expect.objectContaining({
        id: resource.id,
        tenantId: tenant.tenantId,
        projectId: tenant.project.id,
        identifier: MCP,
        accessTokenTtlSeconds: null,
        allowDynamicClients: false,
      }),
    ]);

    const list = await get(base());
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      api_resources: [resource],
      pagination: { page: 1, limit: 20, total: 1 },
    });
    const one = await get(`${base()}/${resource.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(resource);

    const { audit, outbox } = await eventsOf('api_resource.created');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      actorType: 'admin',
      actorId: tenant.adminUserId,
      resourceType: 'api_resource',
      resourceId: resource.id,
    });
    const { created_at: _c, updated_at: _u, ...members } = resource;
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      payload: { api_resource: { ...members, project_id: tenant.project.id } },
    });
    expect(audit[0].metadata).toEqual(outbox[0].payload);
  });

  it('takes every member: an http loopback identifier, a token lifetime and dynamic clients', async () => {
    const res = await post(base(), {
      identifier: 'http://127.0.0.1:8931/mcp',
      name: 'Local MCP',
      scopes: [],
      access_token_ttl_seconds: 300,
      allow_dynamic_clients: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      identifier: 'http://127.0.0.1:8931/mcp',
      scopes: [],
      access_token_ttl_seconds: 300,
      allow_dynamic_clients: true,
    });
    const local = await post(base(), {
      identifier: 'http://localhost:3000',
      name: 'Local API',
      scopes: [],
    });
    expect(local.status).toBe(201);
    expect(local.body).toMatchObject({ identifier: 'http://localhost:3000/' });
  });

  it('refuses bad members with validation-error naming each, and stores nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ identifier: 'http://api.example.com/' }, 'identifier'],
      [{ identifier: 'ftp://api.example.com/' }, 'identifier'],
      [{ identifier: '/relative' }, 'identifier'],
      [{ identifier: 'urn:example:api' }, 'identifier'],
      [{ identifier: 'https://api.example.com/#x' }, 'identifier'],
      [{ identifier: 'https://api.example.com/?tenant=1' }, 'identifier'],
      [{ identifier: 'https://user:pw@api.example.com/' }, 'identifier'],
      [{ identifier: 42 }, 'identifier'],
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ scopes: 'mcp:tools' }, 'scopes'],
      [{ scopes: [{ name: 'openid' }] }, 'scopes'],
      [{ scopes: [{ name: 'a b' }] }, 'scopes'],
      [{ scopes: [{ name: 'x' }, { name: 'x' }] }, 'scopes'],
      [{ scopes: [{ name: 'x', admin: true }] }, 'scopes'],
      [{ scopes: [{ name: 'x', description: 'd'.repeat(301) }] }, 'scopes'],
      [{ scopes: Array.from({ length: 51 }, (_, i) => ({ name: `s${i}` })) }, 'scopes'],
      [{ access_token_ttl_seconds: 59 }, 'access_token_ttl_seconds'],
      [{ access_token_ttl_seconds: '300' }, 'access_token_ttl_seconds'],
      [{ allow_dynamic_clients: 'yes' }, 'allow_dynamic_clients'],
      [{ audience: 'x' }, 'audience'],
    ];
    for (const [override, field] of cases) {
      const res = await post(base(), { identifier: MCP, name: 'MCP', scopes: [], ...override });
      const body = expectProblem(res, 400, 'validation-error', base());
      expect(Object.keys(body.errors as object)).toEqual([field]);
    }
    const missing = await post(base(), {});
    expect(
      Object.keys(expectProblem(missing, 400, 'validation-error', base()).errors as object).sort(),
    ).toEqual(['identifier', 'name', 'scopes']);
    expect(await rows()).toEqual([]);
    expect(
      await t.dataSource.getRepository(AuditEvent).countBy({ resourceType: 'api_resource' }),
    ).toBe(0);
  });

  it('an identifier is unique per project (409 conflict on identifier, in either spelling), not across projects', async () => {
    await create();
    const again = await post(base(), {
      identifier: 'https://mcp.EXAMPLE.com/mcp',
      name: 'Again',
      scopes: [],
    });
    expect(expectProblem(again, 409, 'conflict', base()).errors).toEqual({
      identifier: ['is already registered in this project'],
    });
    const other = await t.http().post('/v1/admin/projects').set(auth()).send({ name: 'Other' });
    expect(other.status).toBe(201);
    await create({}, other.body.id as string);
    expect((await rows()).map((r) => r.projectId)).toEqual([tenant.project.id, other.body.id]);
    expect(
      await t.dataSource.getRepository(AuditEvent).countBy({ action: 'api_resource.created' }),
    ).toBe(2);
  });

  it('PATCH replaces the given members (api_resource.updated gives each one from → to), a no-op writes nothing, and a clash is 409', async () => {
    const r = await create();
    const b = await create({ identifier: 'https://b.example.com/' });
    const res = await patch(`${base()}/${r.id}`, {
      scopes: [
        { name: 'mcp:tools', description: 'Run tools' },
        { name: 'mcp:admin', description: 'Administer' },
      ],
      access_token_ttl_seconds: 120,
      allow_dynamic_clients: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...r,
      scopes: [
        { name: 'mcp:tools', description: 'Run tools' },
        { name: 'mcp:admin', description: 'Administer' },
      ],
      access_token_ttl_seconds: 120,
      allow_dynamic_clients: true,
      updated_at: expect.stringMatching(TIME),
    });
    const { audit, outbox } = await eventsOf('api_resource.updated');
    expect(audit).toHaveLength(1);
    // `changes` is each changed member's from → to (docs/api-contract.md §13 data.changes), in the audit event and the webhook payload alike.
    const changes = {
      scopes: {
        from: [{ name: 'mcp:tools', description: 'Use the tools' }],
        to: [
          { name: 'mcp:tools', description: 'Run tools' },
          { name: 'mcp:admin', description: 'Administer' },
        ],
      },
      access_token_ttl_seconds: { from: null, to: 120 },
      allow_dynamic_clients: { from: false, to: true },
    };
    expect(outbox[0].payload).toEqual({
      api_resource: expect.objectContaining({ id: r.id, access_token_ttl_seconds: 120 }),
      changes,
    });
    expect(audit[0].metadata.changes).toEqual(changes);

    const same = await patch(`${base()}/${r.id}`, {
      name: 'MCP server',
      access_token_ttl_seconds: 120,
    });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(res.body);
    expect(
      await t.dataSource.getRepository(AuditEvent).countBy({ action: 'api_resource.updated' }),
    ).toBe(1);

    const back = await patch(`${base()}/${r.id}`, { access_token_ttl_seconds: null });
    expect(back.body).toMatchObject({ access_token_ttl_seconds: null });

    const clash = await patch(`${base()}/${b.id}`, { identifier: MCP });
    expectProblem(clash, 409, 'conflict', `${base()}/${b.id}`);
    expect((await get(`${base()}/${b.id}`)).body).toEqual(b);

    const bad = await patch(`${base()}/${r.id}`, {
      identifier: 'http://mcp.example.com/',
      scopes: [{ name: 'email' }],
    });
    expect(
      Object.keys(expectProblem(bad, 400, 'validation-error').errors as object).sort(),
    ).toEqual(['identifier', 'scopes']);
  });

  it('DELETE removes it (204, api_resource.deleted); then it is 404 everywhere', async () => {
    const r = await create();
    const res = await del(`${base()}/${r.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await rows()).toEqual([]);
    const { audit, outbox } = await eventsOf('api_resource.deleted');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ resourceType: 'api_resource', resourceId: r.id });
    expect(outbox[0].payload).toMatchObject({ api_resource: { id: r.id, identifier: MCP } });
    for (const res2 of [
      await get(`${base()}/${r.id}`),
      await patch(`${base()}/${r.id}`, { name: 'x' }),
      await del(`${base()}/${r.id}`),
    ])
      expectProblem(res2, 404, 'not-found', `${base()}/${r.id}`);
    expectProblem(await get(`${base()}/not-a-uuid`), 404, 'not-found');
  });

  it('pages the list newest first; page and limit out of range are 400', async () => {
    for (let i = 0; i < 3; i++) await create({ identifier: `https://api${i}.example.com/` });
    const page = await get(`${base()}?page=2&limit=2`);
    expect(page.status).toBe(200);
    expect(page.body).toEqual({
      api_resources: [expect.objectContaining({ identifier: 'https://api0.example.com/' })],
      pagination: { page: 2, limit: 2, total: 3 },
    });
    const first = await get(`${base()}?limit=2`);
    expect((first.body.api_resources as Resource[]).map((r) => r.identifier)).toEqual([
      'https://api2.example.com/',
      'https://api1.example.com/',
    ]);
    expect(
      Object.keys(
        expectProblem(await get(`${base()}?limit=101`), 400, 'validation-error').errors as object,
      ),
    ).toEqual(['limit']);
    expect(
      Object.keys(
        expectProblem(await get(`${base()}?page=0`), 400, 'validation-error').errors as object,
      ),
    ).toEqual(['page']);
  });

  it("another tenant's admin gets 404 not-found on every route and changes nothing; no token is 401, a non-admin 403", async () => {
    const r = await create();
    const other = await seedTenant(t.app, 'Intruder');
    const intruder = {
      Authorization: `Bearer ${(await mintAccessToken(t.app, other.adminUserId)).token}`,
    };
    const ownResource = (
      await post(
        base(other.project.id),
        { identifier: 'https://intruder.example.com/', name: 'Own', scopes: [] },
        intruder,
      )
    ).body as Resource;
    const before = JSON.stringify(await rows());
    const eventsBefore = await t.dataSource.getRepository(AuditEvent).count();
    const routes: [string, string, unknown?][] = [
      ['post', base(), { identifier: 'https://stolen.example.com/', name: 'Stolen', scopes: [] }],
      ['get', base()],
      ['get', `${base()}/${r.id}`],
      ['patch', `${base()}/${r.id}`, { allow_dynamic_clients: true }],
      ['delete', `${base()}/${r.id}`],
      // The victim's resource id under the intruder's own project.
      ['get', `${base(other.project.id)}/${r.id}`],
      ['patch', `${base(other.project.id)}/${r.id}`, { allow_dynamic_clients: true }],
      ['delete', `${base(other.project.id)}/${r.id}`],
    ];
    const call = (method: string, path: string, body: unknown, h: Record<string, string>) => {
      const req = (t.http() as unknown as Record<string, (p: string) => import('supertest').Test>)
        [method](path)
        .set(h);
      return body === undefined ? req : req.send(body as object);
    };
    for (const [method, path, body] of routes)
      expectProblem(await call(method, path, body, intruder), 404, 'not-found', path);
    expect(JSON.stringify(await rows())).toBe(before);
    expect(await t.dataSource.getRepository(AuditEvent).count()).toBe(eventsBefore);
    expect(ownResource.identifier).toBe('https://intruder.example.com/');

    const user = await createUser(
      t.app,
      tenant.project,
      'member@example.com',
      'a sturdy passphrase 42',
    );
    const member = { Authorization: `Bearer ${(await mintAccessToken(t.app, user.id)).token}` };
    for (const [method, path, body] of routes.slice(0, 5)) {
      expectProblem(await call(method, path, body, {}), 401, 'unauthenticated', path);
      expectProblem(await call(method, path, body, member), 403, 'forbidden', path);
    }
    expect(JSON.stringify(await rows())).toBe(before);
  });
});
