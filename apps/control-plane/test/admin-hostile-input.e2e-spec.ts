import {
  createUser,
  expectRawProblem,
  listenOnLoopback,
  mintAccessToken,
  rawHttp,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

/**
 * No input reaches a 500: every admin mutation of this feature set and every list gets hostile
 * bodies and query strings, and answers a 4xx problem (or a success) without internals.
 */
describe('hostile input on the admin API', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let token: string;
  let orgId: string;
  let userId: string;
  let clientId: string;

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane);
    await t.reset();
    tenant = await seedTenant(t.app);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
    userId = (await createUser(t.app, tenant.project, 'target@example.com')).id;
    orgId = (
      await t
        .http()
        .post('/v1/admin/organizations')
        .set('Authorization', `Bearer ${token}`)
        .send({ project_id: tenant.project.id, name: 'Org' })
    ).body.id;
    clientId = (
      await t
        .http()
        .post(`/v1/admin/projects/${tenant.project.id}/oauth-clients`)
        .set('Authorization', `Bearer ${token}`)
        .send({ name: 'RP', redirect_uris: ['https://rp.example.com/cb'] })
    ).body.client_id;
  });
  afterAll(() => t.close());

  const deep = (n: number): unknown => (n === 0 ? 'x' : { a: deep(n - 1) });
  const bodies: unknown[] = [
    null,
    [],
    [{}],
    'string',
    42,
    true,
    { '': 1 },
    { name: { $ne: null } },
    { name: ['a', 'b'] },
    { name: 'x'.repeat(5000) },
    { name: 'a\u0000b' },
    { name: '\ud800' },
    { settings: deep(40) },
    { settings: { oauth_providers: { google: { scopes: [{ a: 1 }] } } } },
    { settings: { oauth_providers: { google: [] } } },
    { settings: { oauth_providers: [] } },
    { settings: { access_token_ttl_seconds: 1e308 } },
    { settings: { access_token_ttl_seconds: 600.5 } },
    { allowed_origins: [null] },
    { allowed_origins: Array.from({ length: 500 }, (_, i) => `https://a${i}.example.com`) },
    { redirect_urls: ['https://[::1'] },
    { metadata: deep(40) },
    { metadata: null },
    { status: ['active'] },
    { role: { admin: true } },
    { user_id: '00000000-0000-0000-0000-000000000000' },
    { user_id: "' OR 1=1 --" },
    { email: 'a@b' },
    { email: `${'x'.repeat(300)}@example.com` },
    { project_id: null, name: 'x' },
    { project_id: '00000000-0000-0000-0000-000000000000', name: 'x', slug: 'ö' },
    { name: 'x', redirect_uris: [null] },
    { name: 'x', redirect_uris: ['https://[::1'] },
    {
      name: 'x',
      redirect_uris: Array.from({ length: 500 }, (_, i) => `https://rp${i}.example.com/cb`),
    },
    { name: 'x', redirect_uris: ['https://rp.example.com/cb'], grant_types: [{ $ne: null }] },
    { name: 'x', redirect_uris: ['https://rp.example.com/cb'], scopes: ['openid'.repeat(1000)] },
    {
      name: 'x',
      redirect_uris: ['https://rp.example.com/cb'],
      token_endpoint_auth_method: ['none'],
    },
    { settings: { oidc: { login_url: 'https://[::1' } } },
    {
      settings: {
        oidc: { enabled: true, login_url: 'https://app.example.com/callback', x: deep(40) },
      },
    },
  ];
  const raw = ['{', '{"name":', '[1,2', '{"name":"x"}}', '\u0000', "{'name':'x'}"];

  const routes = (): [string, string][] => [
    ['post', '/v1/admin/projects'],
    ['patch', `/v1/admin/projects/${tenant.project.id}`],
    ['post', `/v1/admin/projects/${tenant.project.id}/api-keys`],
    ['post', `/v1/admin/projects/${tenant.project.id}/signing-keys/rotate`],
    ['patch', `/v1/admin/users/${userId}`],
    ['post', '/v1/admin/organizations'],
    ['patch', `/v1/admin/organizations/${orgId}`],
    ['post', `/v1/admin/organizations/${orgId}/members`],
    ['patch', `/v1/admin/organizations/${orgId}/members/${userId}`],
    ['post', `/v1/admin/organizations/${orgId}/invitations`],
    ['post', `/v1/admin/projects/${tenant.project.id}/oauth-clients`],
    ['patch', `/v1/admin/projects/${tenant.project.id}/oauth-clients/${clientId}`],
    ['post', `/v1/admin/projects/${tenant.project.id}/oauth-clients/${clientId}/secret/rotate`],
  ];

  it('answers every hostile body with a 4xx problem or a success, never a 5xx', async () => {
    for (const [method, path] of routes()) {
      for (const body of bodies) {
        const res = await t
          .http()
          [method as 'post'](path)
          .set('Authorization', `Bearer ${token}`)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body));
        expect({
          method,
          path,
          body: JSON.stringify(body).slice(0, 80),
          status: res.status < 500,
        }).toEqual({ method, path, body: JSON.stringify(body).slice(0, 80), status: true });
        expect(JSON.stringify(res.body)).not.toMatch(
          /QueryFailedError|SELECT |INSERT |UPDATE |\.ts:\d+/,
        );
      }
      for (const text of raw) {
        const res = await t
          .http()
          [method as 'post'](path)
          .set('Authorization', `Bearer ${token}`)
          .set('Content-Type', 'application/json')
          .send(text);
        expect({ path, text, status: res.status }).toEqual({ path, text, status: 400 });
      }
    }
  });

  it('answers hostile query strings on lists with 200 or 400, never a 5xx', async () => {
    const queries = [
      'q=%00',
      'q=%ED%A0%80',
      'q=%25%5F%5C',
      `q=${encodeURIComponent("'; DROP TABLE users; --")}`,
      'q[]=x',
      'q[a]=x',
      'page=1e3',
      'page=99999999999',
      'limit=-0',
      'limit=%20',
      'project_id=%00',
      'project_id[]=x',
      'start_date=2025-01-01T00:00:00%2B99:99',
      'end_date=0000-00-00',
      'action=%00',
    ];
    for (const path of [
      '/v1/admin/users',
      '/v1/admin/organizations',
      '/v1/admin/audit',
      '/v1/admin/projects',
      `/v1/admin/organizations/${orgId}/members`,
      `/v1/admin/organizations/${orgId}/invitations`,
      `/v1/admin/projects/${tenant.project.id}/oauth-clients`,
    ]) {
      for (const q of queries) {
        const res = await t.http().get(`${path}?${q}`).set('Authorization', `Bearer ${token}`);
        expect({ path, q, ok: [200, 400].includes(res.status) }).toEqual({ path, q, ok: true });
      }
    }
    for (const id of [
      '%00',
      '..%2F..%2Fetc',
      'x'.repeat(2000),
      '00000000-0000-0000-0000-00000000000g',
      '%27%20OR%201%3D1',
    ]) {
      for (const path of [
        `/v1/admin/users/${id}`,
        `/v1/admin/organizations/${id}`,
        `/v1/admin/projects/${id}/signing-keys`,
        `/v1/admin/organizations/${orgId}/members/${id}`,
        `/v1/admin/users/${userId}/sessions/${id}`,
        `/v1/admin/users/${id}/sessions/${id}`,
        `/v1/admin/users/${id}/sessions`,
        `/v1/admin/projects/${id}/oauth-clients`,
        `/v1/admin/projects/${tenant.project.id}/oauth-clients/${id}`,
        `/v1/admin/projects/${id}/oauth-clients/${clientId}`,
      ]) {
        const method = /\/(members|sessions)(\/|$)/.test(path) ? 'delete' : 'get';
        const res = await t.http()[method](path).set('Authorization', `Bearer ${token}`);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
      }
    }
  });

  it('refuses any unknown field or value in the body of an action (rotate takes only `algorithm`), and changes nothing; none or {} is fine', async () => {
    const rotate = `/v1/admin/projects/${tenant.project.id}/signing-keys/rotate`;
    const hook = await t
      .http()
      .post('/v1/admin/webhooks')
      .set('Authorization', `Bearer ${token}`)
      .send({ url: 'https://hooks.example.com/in', events: ['*'] });
    const test = `/v1/admin/webhooks/${hook.body.id}/test`;
    const rotateClient = `/v1/admin/projects/${tenant.project.id}/oauth-clients/${clientId}/secret/rotate`;
    const keys = () =>
      t.dataSource.query(`SELECT count(*)::int AS n FROM signing_keys WHERE project_id = $1`, [
        tenant.project.id,
      ]);
    const clientSecret = () =>
      t.dataSource.query(`SELECT secret_hash FROM oauth_clients WHERE client_id = $1`, [clientId]);
    const before = await keys();
    const secretBefore = await clientSecret();
    for (const path of [rotate, test, rotateClient]) {
      for (const body of [
        '{"algorithm":"HS256"}',
        '{"alg":"RS256"}',
        '{"event":"user.created"}',
        '{"__proto__":{"x":1}}',
      ]) {
        const res = await t
          .http()
          .post(path)
          .set('Authorization', `Bearer ${token}`)
          .set('Content-Type', 'application/json')
          .send(body);
        expect({ path, status: res.status, type: res.body.type }).toEqual({
          path,
          status: 400,
          type: 'https://gatehouse.dev/problems/validation-error',
        });
      }
    }
    expect(await keys()).toEqual(before);
    expect(await clientSecret()).toEqual(secretBefore);
    expect(
      await t.dataSource.query(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1`,
        [hook.body.id],
      ),
    ).toEqual([{ n: 0 }]);
    expect((await t.http().post(rotate).set('Authorization', `Bearer ${token}`)).status).toBe(201);
    expect(
      (await t.http().post(test).set('Authorization', `Bearer ${token}`).send({})).status,
    ).toBe(202);
    expect((await t.http().post(rotateClient).set('Authorization', `Bearer ${token}`)).status).toBe(
      201,
    );
    expect(
      (await t.http().post(rotateClient).set('Authorization', `Bearer ${token}`).send({})).status,
    ).toBe(201);
  });

  it('answers what the HTTP parser refuses (NUL in a header, oversized header block, no Host) as problems', async () => {
    const port = await listenOnLoopback(t);
    const nul = await rawHttp(
      port,
      `GET /v1/admin/users HTTP/1.1\r\nHost: admin.test\r\nAuthorization: Bearer \u0000\r\n\r\n`,
    );
    expectRawProblem(nul.response, 400, 'bad-request', '/v1/admin/users');
    const big = await rawHttp(
      port,
      `GET /v1/admin/users HTTP/1.1\r\nHost: admin.test\r\nCookie: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectRawProblem(big.response, 431, 'headers-too-large', '/v1/admin/users');
    const noHost = await rawHttp(port, `GET /v1/admin/users HTTP/1.1\r\nConnection: close\r\n\r\n`);
    expectRawProblem(noHost.response, 400, 'bad-request', '/v1/admin/users', false);
  });
});
