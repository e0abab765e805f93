import { sha256Hex } from '@gatehouse/crypto';
import { AuditEvent, OAuthClient, OutboxEvent, Project } from '@gatehouse/entities';
import { ProjectsCache } from '@gatehouse/identity';
import {
  APP_REDIRECT,
  createUser,
  expectProblem,
  mintAccessToken,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

const CB = 'https://rp.example.com/callback';
const RESOURCE_KEYS = [
  'client_id',
  'created_at',
  'first_party',
  'grant_types',
  'id_token_signed_response_alg',
  'name',
  'post_logout_redirect_uris',
  'public',
  'redirect_uris',
  'require_pkce',
  'require_pushed_authorization_requests',
  'scopes',
  'token_endpoint_auth_method',
  'updated_at',
];
const CLIENT_ID = /^oc_[A-Za-z0-9_-]{22}$/;
const SECRET = /^ocs_[A-Za-z0-9_-]{43}$/;

type Client = Record<string, unknown> & { client_id: string; client_secret?: string };

describe('admin OAuth clients of a project (OpenID Connect provider)', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let token: string;

  const auth = () => ({ Authorization: `Bearer ${token}` });
  const base = (projectId = tenant.project.id) => `/v1/admin/projects/${projectId}/oauth-clients`;
  const post = (path: string, body?: unknown) =>
    t
      .http()
      .post(path)
      .set(auth())
      .send(body as object);
  const get = (path: string) => t.http().get(path).set(auth());
  const patch = (path: string, body: unknown) =>
    t
      .http()
      .patch(path)
      .set(auth())
      .send(body as object);
  const del = (path: string) => t.http().delete(path).set(auth());
  const create = async (
    body: Record<string, unknown> = {},
    projectId?: string,
  ): Promise<Client> => {
    const res = await post(base(projectId), {
      name: 'Relying party',
      redirect_uris: [CB],
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body as Client;
  };
  const row = (clientId: string) => t.dataSource.getRepository(OAuthClient).findOneBy({ clientId });
  const count = (
    entity: typeof AuditEvent | typeof OutboxEvent | typeof OAuthClient,
    where: Record<string, unknown> = {},
  ) => t.dataSource.getRepository(entity).countBy(where);
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

  it('creates a confidential client with the defaults; its secret is shown once and stored only as its SHA-256', async () => {
    const res = await post(base(), { name: 'Grafana', redirect_uris: [CB] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      client_id: expect.stringMatching(CLIENT_ID),
      name: 'Grafana',
      redirect_uris: [CB],
      post_logout_redirect_uris: [],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'client_secret_basic',
      scopes: ['openid', 'profile', 'email', 'offline_access'],
      first_party: false,
      // OpenID Connect Dynamic Client Registration §2's default; PKCE required; PAR optional.
      id_token_signed_response_alg: 'RS256',
      require_pkce: true,
      require_pushed_authorization_requests: false,
      public: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      client_secret: expect.stringMatching(SECRET),
    });
    const { client_id: clientId, client_secret: secret } = res.body as Required<Client>;

    const stored = await row(clientId);
    expect(stored).toMatchObject({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      secretHash: sha256Hex(secret),
      registrationTokenHash: null,
    });
    expect(JSON.stringify(stored)).not.toContain(secret);
    const [raw] = await t.dataSource.query<Record<string, unknown>[]>(
      `SELECT * FROM oauth_clients WHERE client_id = $1`,
      [clientId],
    );
    expect(JSON.stringify(raw)).not.toContain(secret);

    const list = await get(base());
    expect(list.status).toBe(200);
    const { client_secret: _shownOnce, ...resource } = res.body as Client;
    expect(list.body).toEqual({
      oauth_clients: [resource],
      pagination: { page: 1, limit: 20, total: 1 },
    });
    const one = await get(`${base()}/${clientId}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(resource);
    for (const body of [list.body, one.body]) {
      expect(JSON.stringify(body)).not.toContain(secret);
      expect(JSON.stringify(body)).not.toContain(stored!.secretHash!);
      expect(JSON.stringify(body)).not.toContain('"client_secret"');
    }

    const { audit, outbox } = await eventsOf('oauth_client.created');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      actorType: 'admin',
      actorId: tenant.adminUserId,
      resourceType: 'oauth_client',
      resourceId: clientId,
    });
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ tenantId: tenant.tenantId, projectId: tenant.project.id });
    const { created_at: _c, updated_at: _u, ...members } = resource;
    expect(outbox[0].payload).toEqual({
      oauth_client: { ...members, project_id: tenant.project.id },
    });
    expect(audit[0].metadata).toEqual(outbox[0].payload);
    const everything = JSON.stringify(
      await t.dataSource.query(`SELECT a.metadata, o.payload FROM audit_events a, outbox_events o`),
    );
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(stored!.secretHash!);
  });

  it('creates a public client with no secret; rotating its secret is 409 and changes nothing', async () => {
    const res = await post(base(), {
      name: 'SPA',
      redirect_uris: ['http://localhost:5173/cb'],
      token_endpoint_auth_method: 'none',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(RESOURCE_KEYS);
    expect(res.body).toMatchObject({
      token_endpoint_auth_method: 'none',
      public: true,
      grant_types: ['authorization_code', 'refresh_token'],
    });
    expect((await row(res.body.client_id))!.secretHash).toBeNull();

    const before = await row(res.body.client_id);
    const rotate = await post(`${base()}/${res.body.client_id}/secret/rotate`);
    expectProblem(rotate, 409, 'conflict', `${base()}/${res.body.client_id}/secret/rotate`);
    expect(await row(res.body.client_id)).toEqual(before);
    expect(await count(AuditEvent, { action: 'oauth_client.secret_rotated' })).toBe(0);
  });

  it('takes every member explicitly, de-duplicating the lists in the order given', async () => {
    const res = await post(base(), {
      name: 'Internal tool',
      redirect_uris: [CB, 'http://127.0.0.1:8080/cb', CB],
      post_logout_redirect_uris: ['https://rp.example.com/bye', 'https://rp.example.com/bye'],
      grant_types: ['client_credentials', 'authorization_code', 'client_credentials'],
      token_endpoint_auth_method: 'client_secret_post',
      scopes: ['openid', 'email', 'openid'],
      first_party: true,
      id_token_signed_response_alg: 'ES256',
      require_pkce: false,
      require_pushed_authorization_requests: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      redirect_uris: [CB, 'http://127.0.0.1:8080/cb'],
      post_logout_redirect_uris: ['https://rp.example.com/bye'],
      grant_types: ['client_credentials', 'authorization_code'],
      token_endpoint_auth_method: 'client_secret_post',
      scopes: ['openid', 'email'],
      first_party: true,
      id_token_signed_response_alg: 'ES256',
      require_pkce: false,
      require_pushed_authorization_requests: true,
      public: false,
      client_secret: expect.stringMatching(SECRET),
    });
    // A machine client (client credentials only) needs no redirect URI.
    const machine = await create({ redirect_uris: [], grant_types: ['client_credentials'] });
    expect(machine).toMatchObject({
      redirect_uris: [],
      grant_types: ['client_credentials'],
      client_secret: expect.stringMatching(SECRET),
    });
    // RS256 asks nothing of the control plane: the provider makes the project's RS256 key when it first signs with it.
    expect(
      await t.dataSource.query(`SELECT algorithm FROM signing_keys WHERE project_id = $1`, [
        tenant.project.id,
      ]),
    ).toEqual([{ algorithm: 'ES256' }]);
  });

  const many = (n: number) => Array.from({ length: n }, (_, i) => `https://rp.example.com/cb/${i}`);
  const b = (over: Record<string, unknown>) => ({ name: 'RP', redirect_uris: [CB], ...over });
  it.each<[Record<string, unknown>, string[]]>([
    [{}, ['name', 'redirect_uris']],
    [{ redirect_uris: [CB] }, ['name']],
    [b({ name: '' }), ['name']],
    [b({ name: '   ' }), ['name']],
    [b({ name: 'x'.repeat(101) }), ['name']],
    [b({ name: 42 }), ['name']],
    [b({ name: null }), ['name']],
    [{ name: 'RP' }, ['redirect_uris']],
    [b({ redirect_uris: [] }), ['redirect_uris']],
    [b({ redirect_uris: null }), ['redirect_uris']],
    [b({ redirect_uris: CB }), ['redirect_uris']],
    [b({ redirect_uris: [42] }), ['redirect_uris']],
    [b({ redirect_uris: ['http://rp.example.com/cb'] }), ['redirect_uris']],
    [b({ redirect_uris: ['https://*.example.com/cb'] }), ['redirect_uris']],
    [b({ redirect_uris: ['https://rp.example.com/cb#frag'] }), ['redirect_uris']],
    [b({ redirect_uris: ['/cb'] }), ['redirect_uris']],
    [b({ redirect_uris: ['javascript:alert(1)'] }), ['redirect_uris']],
    [b({ redirect_uris: ['https://user:pw@rp.example.com/cb'] }), ['redirect_uris']],
    [b({ redirect_uris: ['com.example.app:/cb'] }), ['redirect_uris']],
    [b({ redirect_uris: many(21) }), ['redirect_uris']],
    [
      b({ post_logout_redirect_uris: ['http://rp.example.com/bye'] }),
      ['post_logout_redirect_uris'],
    ],
    [
      b({ post_logout_redirect_uris: ['https://rp.example.com/#x'] }),
      ['post_logout_redirect_uris'],
    ],
    [b({ post_logout_redirect_uris: many(21) }), ['post_logout_redirect_uris']],
    [b({ post_logout_redirect_uris: null }), ['post_logout_redirect_uris']],
    [b({ grant_types: [] }), ['grant_types']],
    [b({ grant_types: null }), ['grant_types']],
    [b({ grant_types: 'authorization_code' }), ['grant_types']],
    [b({ grant_types: ['implicit'] }), ['grant_types']],
    [b({ grant_types: ['password'] }), ['grant_types']],
    [b({ grant_types: ['AUTHORIZATION_CODE'] }), ['grant_types']],
    [b({ grant_types: ['refresh_token'] }), ['grant_types']],
    [b({ grant_types: ['refresh_token', 'client_credentials'] }), ['grant_types']],
    [
      b({
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'client_credentials'],
      }),
      ['grant_types'],
    ],
    [
      b({
        token_endpoint_auth_method: 'none',
        grant_types: ['client_credentials'],
        redirect_uris: [],
      }),
      ['grant_types'],
    ],
    [b({ token_endpoint_auth_method: 'private_key_jwt' }), ['token_endpoint_auth_method']],
    [b({ token_endpoint_auth_method: null }), ['token_endpoint_auth_method']],
    [b({ scopes: [] }), ['scopes']],
    [b({ scopes: ['openid', 'admin'] }), ['scopes']],
    [b({ scopes: 'openid' }), ['scopes']],
    [b({ first_party: 'true' }), ['first_party']],
    [b({ first_party: null }), ['first_party']],
    [b({ id_token_signed_response_alg: 'HS256' }), ['id_token_signed_response_alg']],
    [b({ id_token_signed_response_alg: 'none' }), ['id_token_signed_response_alg']],
    [b({ token_endpoint_auth_method: 'none', require_pkce: false }), ['require_pkce']],
    [b({ require_pkce: 'false' }), ['require_pkce']],
    [b({ require_pkce: null }), ['require_pkce']],
    [b({ require_pushed_authorization_requests: 1 }), ['require_pushed_authorization_requests']],
    [b({ client_secret: 'ocs_mine' }), ['client_secret']],
    [b({ client_id: 'oc_mine' }), ['client_id']],
    [b({ secret_hash: 'x' }), ['secret_hash']],
    [b({ public: true }), ['public']],
    [b({ project_id: '00000000-0000-0000-0000-000000000000' }), ['project_id']],
  ])(
    'refuses create body #%# %j with 400 on exactly %j and writes nothing',
    async (body, fields) => {
      const res = await post(base(), body);
      const problem = expectProblem(res, 400, 'validation-error', base());
      expect(Object.keys(problem.errors as object).sort()).toEqual(fields);
      expect(await count(OAuthClient)).toBe(0);
      expect(await count(OutboxEvent, { type: 'oauth_client.created' })).toBe(0);
    },
  );

  it('lists the project’s clients newest first, paginated; another project’s clients are not in it', async () => {
    const [a, b, c] = [
      await create({ name: 'a' }),
      await create({ name: 'b' }),
      await create({ name: 'c' }),
    ];
    await t.dataSource.query(
      `UPDATE oauth_clients SET created_at = now() - interval '3 minutes' WHERE client_id = $1`,
      [a.client_id],
    );
    await t.dataSource.query(
      `UPDATE oauth_clients SET created_at = now() - interval '2 minutes' WHERE client_id = $1`,
      [b.client_id],
    );
    const sibling = await t
      .http()
      .post('/v1/admin/projects')
      .set(auth())
      .send({ name: 'Sibling', redirect_urls: [CB] });
    await create({ name: 'sibling client' }, sibling.body.id);

    const page1 = await get(`${base()}?limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.pagination).toEqual({ page: 1, limit: 2, total: 3 });
    expect(page1.body.oauth_clients.map((x: Client) => x.client_id)).toEqual([
      c.client_id,
      b.client_id,
    ]);
    for (const x of page1.body.oauth_clients) expect(Object.keys(x).sort()).toEqual(RESOURCE_KEYS);
    const page2 = await get(`${base()}?limit=2&page=2`);
    expect(page2.body).toEqual({
      oauth_clients: [expect.objectContaining({ client_id: a.client_id })],
      pagination: { page: 2, limit: 2, total: 3 },
    });
    expect((await get(`${base()}?page=3&limit=2`)).body).toEqual({
      oauth_clients: [],
      pagination: { page: 3, limit: 2, total: 3 },
    });
    expect((await get(base(sibling.body.id))).body.pagination.total).toBe(1);

    for (const q of ['limit=0', 'limit=101', 'page=0', 'page=x', 'limit=1.5'])
      expectProblem(await get(`${base()}?${q}`), 400, 'validation-error', base());
  });

  it('patches any subset of members, judged again as a whole; the auth method cannot change', async () => {
    const c = await create();
    const url = `${base()}/${c.client_id}`;
    const before = (await row(c.client_id))!;
    await new Promise((r) => setTimeout(r, 5));

    const res = await patch(url, {
      name: 'Renamed',
      redirect_uris: ['https://rp.example.com/new', 'https://rp.example.com/new'],
      post_logout_redirect_uris: ['https://rp.example.com/bye'],
      scopes: ['openid'],
      first_party: true,
      id_token_signed_response_alg: 'ES256',
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(RESOURCE_KEYS);
    expect(res.body).toMatchObject({
      client_id: c.client_id,
      name: 'Renamed',
      redirect_uris: ['https://rp.example.com/new'],
      post_logout_redirect_uris: ['https://rp.example.com/bye'],
      grant_types: ['authorization_code', 'refresh_token'],
      scopes: ['openid'],
      first_party: true,
      id_token_signed_response_alg: 'ES256',
      created_at: c.created_at,
    });
    expect(res.body.updated_at > (c.updated_at as string)).toBe(true);
    expect((await row(c.client_id))!.secretHash).toBe(before.secretHash);
    const { audit, outbox } = await eventsOf('oauth_client.updated');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      projectId: tenant.project.id,
      actorId: tenant.adminUserId,
      resourceType: 'oauth_client',
      resourceId: c.client_id,
    });
    // `changes` is each changed member's from → to (docs/api-contract.md §13 data.changes), in the audit event and the webhook payload alike.
    const changes = {
      name: { from: c.name, to: 'Renamed' },
      redirect_uris: { from: c.redirect_uris, to: ['https://rp.example.com/new'] },
      post_logout_redirect_uris: {
        from: c.post_logout_redirect_uris,
        to: ['https://rp.example.com/bye'],
      },
      scopes: { from: c.scopes, to: ['openid'] },
      first_party: { from: c.first_party, to: true },
      id_token_signed_response_alg: { from: c.id_token_signed_response_alg, to: 'ES256' },
    };
    expect(outbox[0].payload).toMatchObject({
      oauth_client: { client_id: c.client_id, name: 'Renamed', project_id: tenant.project.id },
    });
    expect(outbox[0].payload.changes).toEqual(changes);
    expect(audit[0].metadata.changes).toEqual(changes);
    expect(JSON.stringify(outbox[0].payload)).not.toContain(before.secretHash!);

    // The same values again, or nothing: 200, no event.
    expect((await patch(url, { name: 'Renamed', scopes: ['openid'] })).status).toBe(200);
    expect((await patch(url, {})).status).toBe(200);
    expect(await count(AuditEvent, { action: 'oauth_client.updated' })).toBe(1);

    // Grant types alone: judged with the stored redirect URIs and auth method.
    const machine = await patch(url, { grant_types: ['client_credentials'], redirect_uris: [] });
    expect(machine.status).toBe(200);
    expect(machine.body).toMatchObject({ grant_types: ['client_credentials'], redirect_uris: [] });
    expect(await count(AuditEvent, { action: 'oauth_client.updated' })).toBe(2);

    const stored = await row(c.client_id);
    const refusals: [Record<string, unknown>, string[]][] = [
      [{ grant_types: ['authorization_code'] }, ['redirect_uris']],
      [{ grant_types: ['refresh_token', 'client_credentials'] }, ['grant_types']],
      [{ token_endpoint_auth_method: 'none' }, ['token_endpoint_auth_method']],
      [{ token_endpoint_auth_method: 'client_secret_basic' }, ['token_endpoint_auth_method']],
      [{ name: '' }, ['name']],
      [{ name: null }, ['name']],
      [{ redirect_uris: ['http://rp.example.com/cb'] }, ['redirect_uris']],
      [{ redirect_uris: null }, ['redirect_uris']],
      [{ post_logout_redirect_uris: ['https://rp.example.com/*'] }, ['post_logout_redirect_uris']],
      [{ grant_types: ['implicit'] }, ['grant_types']],
      [{ scopes: ['root'] }, ['scopes']],
      [{ first_party: 1 }, ['first_party']],
      [{ id_token_signed_response_alg: 'PS256' }, ['id_token_signed_response_alg']],
      [{ client_secret: 'ocs_x' }, ['client_secret']],
      [{ client_id: 'oc_other' }, ['client_id']],
    ];
    for (const [body, fields] of refusals) {
      const problem = expectProblem(await patch(url, body), 400, 'validation-error', url);
      expect({ body, fields: Object.keys(problem.errors as object).sort() }).toEqual({
        body,
        fields,
      });
    }
    expect(await row(c.client_id)).toEqual(stored);
    expect(await count(AuditEvent, { action: 'oauth_client.updated' })).toBe(2);

    // A public client stays public: client_credentials is refused for it.
    const spa = await create({ token_endpoint_auth_method: 'none' });
    const problem = expectProblem(
      await patch(`${base()}/${spa.client_id}`, {
        grant_types: ['authorization_code', 'client_credentials'],
      }),
      400,
      'validation-error',
    );
    expect(Object.keys(problem.errors as object)).toEqual(['grant_types']);
    // ... and always uses PKCE (only a confidential client may use the nonce instead).
    const noPkce = expectProblem(
      await patch(`${base()}/${spa.client_id}`, { require_pkce: false }),
      400,
      'validation-error',
    );
    expect(noPkce.errors).toEqual({
      require_pkce: [
        'must be true for a public client (token_endpoint_auth_method "none"): it has no secret, PKCE is what binds its code',
      ],
    });
    expect(
      (await patch(url, { require_pkce: false, require_pushed_authorization_requests: true })).body,
    ).toMatchObject({ require_pkce: false, require_pushed_authorization_requests: true });
  });

  it('rotates a confidential client’s secret: the new one is shown once, the old hash is replaced', async () => {
    const c = await create();
    const url = `${base()}/${c.client_id}/secret/rotate`;
    const res = await post(url);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      ...c,
      client_secret: expect.stringMatching(SECRET),
      updated_at: expect.any(String),
    });
    expect(res.body.client_secret).not.toBe(c.client_secret);
    const stored = (await row(c.client_id))!;
    expect(stored.secretHash).toBe(sha256Hex(res.body.client_secret));
    expect(stored.secretHash).not.toBe(sha256Hex(c.client_secret!));

    const { audit, outbox } = await eventsOf('oauth_client.secret_rotated');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      projectId: tenant.project.id,
      actorId: tenant.adminUserId,
      resourceType: 'oauth_client',
      resourceId: c.client_id,
    });
    expect(outbox[0].payload).toEqual({
      oauth_client: { client_id: c.client_id, project_id: tenant.project.id, name: c.name },
    });
    const everything = JSON.stringify(
      await t.dataSource.query(`SELECT a.metadata, o.payload FROM audit_events a, outbox_events o`),
    );
    for (const s of [res.body.client_secret, c.client_secret!, stored.secretHash!])
      expect(everything).not.toContain(s);

    // No fields in the body; `{}` is fine.
    for (const body of [{ client_secret: 'ocs_mine' }, { name: 'x' }])
      expectProblem(await post(url, body), 400, 'validation-error', url);
    expect((await row(c.client_id))!.secretHash).toBe(stored.secretHash);
    expect((await post(url, {})).status).toBe(201);
    expect(await count(AuditEvent, { action: 'oauth_client.secret_rotated' })).toBe(2);
  });

  it('deletes a client and, through the database, the grants users gave it', async () => {
    const c = await create();
    const keep = await create({ name: 'kept' });
    const user = await createUser(t.app, tenant.project, 'grantor@example.com');
    for (const [grantId, clientId] of [
      ['g1', c.client_id],
      ['g2', keep.client_id],
    ]) {
      await t.dataSource.query(
        `INSERT INTO oauth_grants (tenant_id, project_id, user_id, grant_id, client_id, scopes) VALUES ($1, $2, $3, $4, $5, '["openid"]')`,
        [tenant.tenantId, tenant.project.id, user.id, grantId, clientId],
      );
    }
    const url = `${base()}/${c.client_id}`;
    const res = await del(url);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await row(c.client_id)).toBeNull();
    expect(await t.dataSource.query(`SELECT grant_id FROM oauth_grants ORDER BY grant_id`)).toEqual(
      [{ grant_id: 'g2' }],
    );
    const { audit, outbox } = await eventsOf('oauth_client.deleted');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      projectId: tenant.project.id,
      resourceType: 'oauth_client',
      resourceId: c.client_id,
    });
    expect(outbox[0].payload).toMatchObject({
      oauth_client: { client_id: c.client_id, name: c.name, project_id: tenant.project.id },
    });

    for (const [method, path] of [
      ['get', url],
      ['patch', url],
      ['delete', url],
      ['post', `${url}/secret/rotate`],
    ] as const) {
      const r =
        method === 'patch'
          ? await patch(path, { name: 'x' })
          : method === 'post'
            ? await post(path)
            : method === 'get'
              ? await get(path)
              : await del(path);
      expectProblem(r, 404, 'not-found', path);
    }
    expect(await count(AuditEvent, { action: 'oauth_client.deleted' })).toBe(1);
    expect(await row(keep.client_id)).not.toBeNull();
  });

  it('writes the change and its events in one transaction: when the event cannot be written, nothing changes', async () => {
    const c = await create();
    const stored = await row(c.client_id);
    await t.dataSource.query(
      `CREATE FUNCTION refuse_oauth_events() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`,
    );
    await t.dataSource.query(
      `CREATE TRIGGER refuse_oauth_events BEFORE INSERT ON outbox_events FOR EACH ROW WHEN (NEW.type LIKE 'oauth_client.%') EXECUTE FUNCTION refuse_oauth_events()`,
    );
    try {
      const url = `${base()}/${c.client_id}`;
      expectProblem(
        await post(base(), { name: 'Lost', redirect_uris: [CB] }),
        500,
        'internal-error',
      );
      expectProblem(await patch(url, { name: 'Lost' }), 500, 'internal-error');
      expectProblem(await post(`${url}/secret/rotate`), 500, 'internal-error');
      expectProblem(await del(url), 500, 'internal-error');
    } finally {
      await t.dataSource.query(`DROP TRIGGER refuse_oauth_events ON outbox_events`);
      await t.dataSource.query(`DROP FUNCTION refuse_oauth_events()`);
    }
    expect(await count(OAuthClient)).toBe(1);
    expect(await row(c.client_id)).toEqual(stored);
    expect(await count(AuditEvent, { resourceType: 'oauth_client' })).toBe(1);
  });

  it('answers 404 to another tenant’s admin on every route, and for a client of another project under this project’s path; nothing changes', async () => {
    const c = await create();
    const spa = await create({ token_endpoint_auth_method: 'none' });
    const other = await seedTenant(t.app, 'Other');
    const otherToken = (await mintAccessToken(t.app, other.adminUserId)).token;
    const sibling = await t
      .http()
      .post('/v1/admin/projects')
      .set(auth())
      .send({ name: 'Sibling', redirect_urls: [CB] });
    const siblingClient = await create({ name: 'sibling' }, sibling.body.id);
    const foreignClient = await t
      .http()
      .post(base(other.project.id))
      .set('Authorization', `Bearer ${otherToken}`)
      .send({ name: 'theirs', redirect_uris: [CB] });
    expect(foreignClient.status).toBe(201);

    const snapshot = () => t.dataSource.query(`SELECT * FROM oauth_clients ORDER BY client_id`);
    const before = await snapshot();
    const eventsBefore = await count(AuditEvent);
    const routes = (projectId: string, clientId: string): [string, string, object?][] => [
      ['post', base(projectId), { name: 'Planted', redirect_uris: [CB] }],
      ['get', base(projectId)],
      ['get', `${base(projectId)}/${clientId}`],
      ['patch', `${base(projectId)}/${clientId}`, { name: 'hijacked' }],
      ['delete', `${base(projectId)}/${clientId}`],
      ['post', `${base(projectId)}/${clientId}/secret/rotate`],
    ];
    const as = (bearer: string, method: string, path: string, body?: object) => {
      const req = t.http()[method as 'post'](path).set('Authorization', `Bearer ${bearer}`);
      return body ? req.send(body) : req;
    };
    const tries: [string, string, string, object?][] = [
      // The other tenant's admin, on this tenant's project and clients.
      ...routes(tenant.project.id, c.client_id).map(
        ([m, p, b]) => [otherToken, m, p, b] as [string, string, string, object?],
      ),
      ...routes(tenant.project.id, spa.client_id)
        .slice(2)
        .map(([m, p, b]) => [otherToken, m, p, b] as [string, string, string, object?]),
      // The other tenant's admin naming its own project but this tenant's client.
      ...routes(other.project.id, c.client_id)
        .slice(2)
        .map(([m, p, b]) => [otherToken, m, p, b] as [string, string, string, object?]),
      // This tenant's admin with the other tenant's project or client.
      ...routes(other.project.id, foreignClient.body.client_id).map(
        ([m, p, b]) => [token, m, p, b] as [string, string, string, object?],
      ),
      ...routes(tenant.project.id, foreignClient.body.client_id)
        .slice(2)
        .map(([m, p, b]) => [token, m, p, b] as [string, string, string, object?]),
      // A client of another project of the same tenant, under this project's path.
      ...routes(tenant.project.id, siblingClient.client_id)
        .slice(2)
        .map(([m, p, b]) => [token, m, p, b] as [string, string, string, object?]),
      // Unknown, malformed and hostile ids.
      ...[
        'oc_unknown',
        'not-an-id',
        '%00',
        'x'.repeat(600),
        encodeURIComponent("' OR 1=1 --"),
      ].flatMap((id) =>
        routes(tenant.project.id, id)
          .slice(2)
          .map(([m, p, b]) => [token, m, p, b] as [string, string, string, object?]),
      ),
      ...routes('not-a-uuid', c.client_id).map(
        ([m, p, b]) => [token, m, p, b] as [string, string, string, object?],
      ),
    ];
    for (const [bearer, method, path, body] of tries) {
      const res = await as(bearer, method, path, body);
      try {
        expectProblem(res, 404, 'not-found');
      } catch (err) {
        throw new Error(
          `${method.toUpperCase()} ${path} answered ${res.status} ${JSON.stringify(res.body)}: ${(err as Error).message}`,
        );
      }
    }
    expect(await snapshot()).toEqual(before);
    expect(await count(AuditEvent)).toBe(eventsBefore);
    const theirList = await t
      .http()
      .get(base(other.project.id))
      .set('Authorization', `Bearer ${otherToken}`);
    expect(theirList.body.oauth_clients.map((x: Client) => x.client_id)).toEqual([
      foreignClient.body.client_id,
    ]);
  });

  it('answers 401 without a token and 403 to a non-admin on every route', async () => {
    const c = await create();
    const user = await createUser(t.app, tenant.project, 'plain@example.com');
    const plain = (await mintAccessToken(t.app, user.id)).token;
    const url = `${base()}/${c.client_id}`;
    const routes: [string, string, object?][] = [
      ['post', base(), { name: 'x', redirect_uris: [CB] }],
      ['get', base()],
      ['get', url],
      ['patch', url, { name: 'x' }],
      ['delete', url],
      ['post', `${url}/secret/rotate`],
    ];
    for (const [method, path, body] of routes) {
      const anon = t.http()[method as 'post'](path);
      expectProblem(await (body ? anon.send(body) : anon), 401, 'unauthenticated', path);
      const user = t.http()[method as 'post'](path).set('Authorization', `Bearer ${plain}`);
      expectProblem(await (body ? user.send(body) : user), 403, 'forbidden', path);
    }
    expect(await count(OAuthClient)).toBe(1);
  });

  describe('settings.oidc of the project', () => {
    const projectUrl = () => `/v1/admin/projects/${tenant.project.id}`;
    const stored = async () =>
      (await t.dataSource.getRepository(Project).findOneByOrFail({ id: tenant.project.id }))
        .settings;
    const LOGIN = 'https://app.example.com/login';

    it('shows the defaults when never set, and what was set with the rest at its defaults', async () => {
      expect((await get(projectUrl())).body.settings.oidc).toEqual({
        enabled: false,
        login_url: null,
        dynamic_registration: false,
        require_pushed_authorization_requests: false,
        allow_sign_up: true,
      });
      expect((await stored()).oidc).toBeUndefined();

      const res = await patch(projectUrl(), { settings: { oidc: { enabled: true } } });
      expect(res.status).toBe(200);
      expect(res.body.settings.oidc).toEqual({
        enabled: true,
        login_url: null,
        dynamic_registration: false,
        require_pushed_authorization_requests: false,
        allow_sign_up: true,
      });
      expect((await stored()).oidc).toEqual({ enabled: true });

      const reset = await patch(projectUrl(), { settings: { oidc: null } });
      expect(reset.body.settings.oidc).toEqual({
        enabled: false,
        login_url: null,
        dynamic_registration: false,
        require_pushed_authorization_requests: false,
        allow_sign_up: true,
      });
      expect((await stored()).oidc).toBeUndefined();
    });

    it('takes a login_url that is one of the redirect URLs (after URL parsing), replaces oidc as a whole, and the runtime sees it at once', async () => {
      const cache = t.app.get(ProjectsCache);
      expect((await cache.byKey(tenant.projectKey))!.settings.oidc).toBeUndefined();
      expect((await cache.byId(tenant.project.id))!.settings.oidc).toBeUndefined();

      const res = await patch(projectUrl(), {
        settings: {
          oidc: {
            enabled: true,
            login_url: 'HTTPS://APP.EXAMPLE.COM/callback',
            dynamic_registration: true,
          },
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.settings.oidc).toEqual({
        enabled: true,
        login_url: 'HTTPS://APP.EXAMPLE.COM/callback',
        dynamic_registration: true,
        require_pushed_authorization_requests: false,
        allow_sign_up: true,
      });
      expect((await cache.byKey(tenant.projectKey))!.settings.oidc).toEqual({
        enabled: true,
        login_url: 'HTTPS://APP.EXAMPLE.COM/callback',
        dynamic_registration: true,
      });
      expect((await cache.byId(tenant.project.id))!.settings.oidc).toMatchObject({ enabled: true });
      const audit = await t.dataSource
        .getRepository(AuditEvent)
        .findOneByOrFail({ action: 'project.updated' });
      expect(audit.metadata).toMatchObject({ changed: ['settings.oidc'] });

      // The same PATCH may add the page to redirect_urls.
      const both = await patch(projectUrl(), {
        redirect_urls: [APP_REDIRECT, LOGIN],
        settings: { oidc: { login_url: LOGIN } },
      });
      expect(both.status).toBe(200);
      expect(both.body.settings.oidc).toEqual({
        enabled: false,
        login_url: LOGIN,
        dynamic_registration: false,
        require_pushed_authorization_requests: false,
        allow_sign_up: true,
      });
      expect((await cache.byKey(tenant.projectKey))!.settings.oidc).toEqual({ login_url: LOGIN });
    });

    it('refuses a login_url that is not one of the redirect URLs, also when a PATCH drops it from redirect_urls', async () => {
      const field = 'settings.oidc.login_url';
      for (const loginUrl of [
        LOGIN,
        `${APP_REDIRECT}/`,
        `${APP_REDIRECT}?x=1`,
        'https://app.example.com/CALLBACK',
      ]) {
        const problem = expectProblem(
          await patch(projectUrl(), { settings: { oidc: { enabled: true, login_url: loginUrl } } }),
          400,
          'validation-error',
          projectUrl(),
        );
        expect(problem.errors).toEqual({ [field]: [expect.stringContaining('redirect_urls')] });
      }
      expect((await stored()).oidc).toBeUndefined();

      expect(
        (await patch(projectUrl(), { settings: { oidc: { login_url: APP_REDIRECT } } })).status,
      ).toBe(200);
      const dropped = expectProblem(
        await patch(projectUrl(), { redirect_urls: ['https://app.example.com/other'] }),
        400,
        'validation-error',
        projectUrl(),
      );
      expect(Object.keys(dropped.errors as object)).toEqual([field]);
      expect((await get(projectUrl())).body.redirect_urls).toEqual([APP_REDIRECT]);
      // Dropping both at once is fine.
      const both = await patch(projectUrl(), {
        redirect_urls: ['https://app.example.com/other'],
        settings: { oidc: { enabled: true } },
      });
      expect(both.status).toBe(200);

      const created = await post('/v1/admin/projects', {
        name: 'Provider',
        redirect_urls: [APP_REDIRECT],
        settings: { oidc: { enabled: true, login_url: LOGIN } },
      });
      expect(
        Object.keys(
          expectProblem(created, 400, 'validation-error', '/v1/admin/projects').errors as object,
        ),
      ).toEqual([field]);
      const ok = await post('/v1/admin/projects', {
        name: 'Provider',
        redirect_urls: [APP_REDIRECT, LOGIN],
        settings: { oidc: { enabled: true, login_url: LOGIN } },
      });
      expect(ok.status).toBe(201);
      expect(ok.body.settings.oidc).toEqual({
        enabled: true,
        login_url: LOGIN,
        dynamic_registration: false,
        require_pushed_authorization_requests: false,
        allow_sign_up: true,
      });
    });

    it.each<[unknown, string]>([
      ['on', 'settings.oidc'],
      [[], 'settings.oidc'],
      [{ enabled: 'true' }, 'settings.oidc.enabled'],
      [{ enabled: null }, 'settings.oidc.enabled'],
      [{ dynamic_registration: 1 }, 'settings.oidc.dynamic_registration'],
      [
        { require_pushed_authorization_requests: 'yes' },
        'settings.oidc.require_pushed_authorization_requests',
      ],
      [{ allow_sign_up: 0 }, 'settings.oidc.allow_sign_up'],
      [{ login_url: 42 }, 'settings.oidc.login_url'],
      [{ login_url: 'javascript:alert(1)' }, 'settings.oidc.login_url'],
      [{ login_url: 'http://app.example.com/callback' }, 'settings.oidc.login_url'],
      [{ login_url: 'https://app.example.com/*' }, 'settings.oidc.login_url'],
      [{ login_url: 'https://app.example.com/callback#x' }, 'settings.oidc.login_url'],
      [{ issuer: 'https://evil.example.com' }, 'settings.oidc.issuer'],
    ])('refuses settings.oidc %j with 400 on %s', async (oidc, field) => {
      const problem = expectProblem(
        await patch(projectUrl(), { settings: { oidc } }),
        400,
        'validation-error',
        projectUrl(),
      );
      expect(Object.keys(problem.errors as object)).toEqual([field]);
      expect((await stored()).oidc).toBeUndefined();
    });
  });
});
