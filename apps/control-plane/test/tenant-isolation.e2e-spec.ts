import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AccessTokensService, ProjectsCache } from '@gatehouse/identity';
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

type Method = 'get' | 'post' | 'patch' | 'delete';

interface Ids {
  project: string;
  apiKey: string;
  apiKeySecret: string;
  user: string;
  userToken: string;
  userSession: string;
  org: string;
  invitation: string;
  domain: string;
  connection: string;
  webhook: string;
  oauthClient: string;
  apiResource: string;
}

/** Tables with a tenant_id, plus the per-user tables without one, hashed per tenant. */
const TENANT_TABLES = [
  'projects',
  'api_keys',
  'signing_keys',
  'users',
  'sessions',
  'organizations',
  'organization_members',
  'invitations',
  'organization_domains',
  'sso_connections',
  'webhooks',
  'webhook_deliveries',
  'outbox_events',
  'audit_events',
  'one_time_tokens',
  'mfa_factors',
  'passkeys',
  'oauth_identities',
  'oauth_clients',
  'oauth_grants',
  'api_resources',
];

async function snapshot(ds: DataSource, tenantId: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of TENANT_TABLES) {
    const [row] = await ds.query<[{ n: number; h: string }]>(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS h FROM ${table} t WHERE tenant_id = $1`,
      [tenantId],
    );
    out[table] = `${row.n}:${row.h}`;
  }
  for (const table of ['password_credentials', 'mfa_backup_codes']) {
    const [row] = await ds.query<[{ n: number; h: string }]>(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS h FROM ${table} t JOIN users u ON u.id = t.user_id WHERE u.tenant_id = $1`,
      [tenantId],
    );
    out[table] = `${row.n}:${row.h}`;
  }
  return out;
}

/**
 * Every admin route, tried by tenant A's admin with tenant B's ids: 404 `not-found`, and nothing of B
 * changes (rows, revocation state, cached keys). The same routes answer 401 without a token and 403
 * to a non-admin, and A's lists, searches and audit never show B.
 */
describe('tenant isolation across every admin route', () => {
  let t: TestApp;
  let a: SeededTenant;
  let b: SeededTenant;
  let aToken: string;
  let aIds: Ids;
  let bIds: Ids;

  async function seedResources(s: SeededTenant, email: string): Promise<Ids> {
    const admin = (await mintAccessToken(t.app, s.adminUserId)).token;
    const h = { Authorization: `Bearer ${admin}` };
    const key = await t
      .http()
      .post(`/v1/admin/projects/${s.project.id}/api-keys`)
      .set(h)
      .send({ name: 'server' });
    const user = await createUser(t.app, s.project, email);
    const { token: userToken, sessionId: userSession } = await mintAccessToken(t.app, user.id);
    const org = await t
      .http()
      .post('/v1/admin/organizations')
      .set(h)
      .send({ project_id: s.project.id, name: 'Org' });
    const member = await t
      .http()
      .post(`/v1/admin/organizations/${org.body.id}/members`)
      .set(h)
      .send({ user_id: user.id, role: 'admin' });
    const inv = await t
      .http()
      .post(`/v1/admin/organizations/${org.body.id}/invitations`)
      .set(h)
      .send({ email: `invitee-${email}` });
    const domain = await t
      .http()
      .post(`/v1/admin/organizations/${org.body.id}/domains`)
      .set(h)
      .send({ domain: `${email.split('@')[0]}.example.com` });
    const connection = await t
      .http()
      .post(`/v1/admin/organizations/${org.body.id}/sso-connections`)
      .set(h)
      .send({
        type: 'oidc',
        name: 'IdP',
        oidc: {
          issuer: 'https://idp.example.com',
          client_id: 'rp',
          client_secret: `secret-${email}`,
        },
      });
    const webhook = await t
      .http()
      .post('/v1/admin/webhooks')
      .set(h)
      .send({ url: 'http://127.0.0.1:9/hook', events: ['*'] });
    const client = await t
      .http()
      .post(`/v1/admin/projects/${s.project.id}/oauth-clients`)
      .set(h)
      .send({ name: 'RP', redirect_uris: ['https://rp.example.com/cb'] });
    const apiResource = await t
      .http()
      .post(`/v1/admin/projects/${s.project.id}/api-resources`)
      .set(h)
      .send({ identifier: 'https://api.example.com/', name: 'API', scopes: [{ name: 'read' }] });
    expect([
      key.status,
      org.status,
      member.status,
      inv.status,
      domain.status,
      connection.status,
      webhook.status,
      client.status,
      apiResource.status,
    ]).toEqual([201, 201, 201, 201, 201, 201, 201, 201, 201]);
    return {
      project: s.project.id,
      apiKey: key.body.id,
      apiKeySecret: key.body.secret,
      user: user.id,
      userToken,
      userSession,
      org: org.body.id,
      invitation: inv.body.id,
      domain: domain.body.id,
      connection: connection.body.id,
      webhook: webhook.body.id,
      oauthClient: client.body.client_id,
      apiResource: apiResource.body.id,
    };
  }

  /** Every admin route; `x` supplies the ids (and bodies) to try, `self` the caller's own ids for mixed cases. */
  const routes = (x: Ids, self: Ids): [Method, string, object?][] => [
    ['get', `/v1/admin/projects/${x.project}`],
    [
      'patch',
      `/v1/admin/projects/${x.project}`,
      { name: 'hijacked', allowed_origins: ['https://evil.example.com'] },
    ],
    ['post', `/v1/admin/projects/${x.project}/api-keys`, { name: 'stolen' }],
    ['get', `/v1/admin/projects/${x.project}/api-keys`],
    ['delete', `/v1/admin/projects/${x.project}/api-keys/${x.apiKey}`],
    ['delete', `/v1/admin/projects/${self.project}/api-keys/${x.apiKey}`],
    ['get', `/v1/admin/projects/${x.project}/signing-keys`],
    ['post', `/v1/admin/projects/${x.project}/signing-keys/rotate`],
    [
      'post',
      `/v1/admin/projects/${x.project}/oauth-clients`,
      { name: 'stolen', redirect_uris: ['https://evil.example.com/cb'] },
    ],
    ['get', `/v1/admin/projects/${x.project}/oauth-clients`],
    ['get', `/v1/admin/projects/${x.project}/oauth-clients/${x.oauthClient}`],
    ['get', `/v1/admin/projects/${self.project}/oauth-clients/${x.oauthClient}`],
    [
      'patch',
      `/v1/admin/projects/${x.project}/oauth-clients/${x.oauthClient}`,
      { redirect_uris: ['https://evil.example.com/cb'] },
    ],
    [
      'patch',
      `/v1/admin/projects/${self.project}/oauth-clients/${x.oauthClient}`,
      { first_party: true },
    ],
    ['delete', `/v1/admin/projects/${x.project}/oauth-clients/${x.oauthClient}`],
    ['delete', `/v1/admin/projects/${self.project}/oauth-clients/${x.oauthClient}`],
    ['post', `/v1/admin/projects/${x.project}/oauth-clients/${x.oauthClient}/secret/rotate`],
    ['post', `/v1/admin/projects/${self.project}/oauth-clients/${x.oauthClient}/secret/rotate`],
    [
      'post',
      `/v1/admin/projects/${x.project}/api-resources`,
      { identifier: 'https://evil.example.com/', name: 'stolen', scopes: [] },
    ],
    ['get', `/v1/admin/projects/${x.project}/api-resources`],
    ['get', `/v1/admin/projects/${x.project}/api-resources/${x.apiResource}`],
    ['get', `/v1/admin/projects/${self.project}/api-resources/${x.apiResource}`],
    [
      'patch',
      `/v1/admin/projects/${x.project}/api-resources/${x.apiResource}`,
      { allow_dynamic_clients: true },
    ],
    [
      'patch',
      `/v1/admin/projects/${self.project}/api-resources/${x.apiResource}`,
      { allow_dynamic_clients: true },
    ],
    ['delete', `/v1/admin/projects/${x.project}/api-resources/${x.apiResource}`],
    ['delete', `/v1/admin/projects/${self.project}/api-resources/${x.apiResource}`],
    ['get', `/v1/admin/users/${x.user}`],
    ['patch', `/v1/admin/users/${x.user}`, { status: 'disabled' }],
    ['patch', `/v1/admin/users/${x.user}`, { metadata: { owned: true } }],
    ['delete', `/v1/admin/users/${x.user}/sessions/${x.userSession}`],
    ['delete', `/v1/admin/users/${self.user}/sessions/${x.userSession}`],
    ['delete', `/v1/admin/users/${x.user}/sessions`],
    ['delete', `/v1/admin/users/${x.user}`],
    ['post', '/v1/admin/organizations', { project_id: x.project, name: 'Planted' }],
    ['get', `/v1/admin/organizations/${x.org}`],
    ['patch', `/v1/admin/organizations/${x.org}`, { name: 'hijacked' }],
    ['delete', `/v1/admin/organizations/${x.org}`],
    ['get', `/v1/admin/organizations/${x.org}/members`],
    ['post', `/v1/admin/organizations/${x.org}/members`, { user_id: x.user, role: 'member' }],
    ['post', `/v1/admin/organizations/${self.org}/members`, { user_id: x.user, role: 'admin' }],
    ['patch', `/v1/admin/organizations/${x.org}/members/${x.user}`, { role: 'member' }],
    ['delete', `/v1/admin/organizations/${x.org}/members/${x.user}`],
    [
      'post',
      `/v1/admin/organizations/${x.org}/invitations`,
      { email: 'planted@example.com', role: 'admin' },
    ],
    ['get', `/v1/admin/organizations/${x.org}/invitations`],
    ['delete', `/v1/admin/organizations/${x.org}/invitations/${x.invitation}`],
    ['delete', `/v1/admin/organizations/${self.org}/invitations/${x.invitation}`],
    ['post', `/v1/admin/organizations/${x.org}/domains`, { domain: 'planted.example.com' }],
    ['get', `/v1/admin/organizations/${x.org}/domains`],
    ['get', `/v1/admin/organizations/${x.org}/domains/${x.domain}`],
    ['get', `/v1/admin/organizations/${self.org}/domains/${x.domain}`],
    ['post', `/v1/admin/organizations/${x.org}/domains/${x.domain}/verify`],
    ['post', `/v1/admin/organizations/${self.org}/domains/${x.domain}/verify`],
    [
      'patch',
      `/v1/admin/organizations/${x.org}/domains/${x.domain}`,
      { status: 'verified', reason: 'hijacked' },
    ],
    [
      'patch',
      `/v1/admin/organizations/${self.org}/domains/${x.domain}`,
      { enrollment: 'auto_join' },
    ],
    ['delete', `/v1/admin/organizations/${x.org}/domains/${x.domain}`],
    ['delete', `/v1/admin/organizations/${self.org}/domains/${x.domain}`],
    [
      'post',
      `/v1/admin/organizations/${x.org}/sso-connections`,
      {
        type: 'oidc',
        name: 'Planted',
        oidc: { issuer: 'https://evil.example', client_id: 'x', client_secret: 'y' },
      },
    ],
    ['get', `/v1/admin/organizations/${x.org}/sso-connections`],
    ['get', `/v1/admin/organizations/${x.org}/sso-connections/${x.connection}`],
    ['get', `/v1/admin/organizations/${self.org}/sso-connections/${x.connection}`],
    [
      'patch',
      `/v1/admin/organizations/${x.org}/sso-connections/${x.connection}`,
      { enforce: true },
    ],
    [
      'patch',
      `/v1/admin/organizations/${self.org}/sso-connections/${x.connection}`,
      { name: 'Mine' },
    ],
    ['delete', `/v1/admin/organizations/${x.org}/sso-connections/${x.connection}`],
    ['delete', `/v1/admin/organizations/${self.org}/sso-connections/${x.connection}`],
    ['get', `/v1/admin/webhooks/${x.webhook}`],
    ['patch', `/v1/admin/webhooks/${x.webhook}`, { enabled: false }],
    ['delete', `/v1/admin/webhooks/${x.webhook}`],
    ['post', `/v1/admin/webhooks/${x.webhook}/test`],
    ['get', `/v1/admin/webhooks/${x.webhook}/deliveries`],
    ['post', `/v1/admin/webhooks/${x.webhook}/deliveries/${randomUUID()}/redeliver`],
  ];

  const call = (
    method: Method,
    path: string,
    body: object | undefined,
    headers: Record<string, string>,
  ) => {
    const req = t.http()[method](path).set(headers);
    return body ? req.send(body) : req;
  };

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane);
    await t.reset();
    a = await seedTenant(t.app, 'Alpha');
    b = await seedTenant(t.app, 'Beta');
    aToken = (await mintAccessToken(t.app, a.adminUserId)).token;
    aIds = await seedResources(a, 'alpha-user@example.com');
    bIds = await seedResources(b, 'beta-user@example.com');
  });
  afterAll(() => t.close());

  it("answers 404 to every route with the other tenant's ids and changes nothing of it", async () => {
    const before = await snapshot(t.dataSource, b.tenantId);
    const totalEvents = async () =>
      (await t.dataSource.query<[{ n: number }]>(`SELECT count(*)::int AS n FROM audit_events`))[0]
        .n;
    const eventsBefore = await totalEvents();
    for (const [method, path, body] of routes(bIds, aIds)) {
      const res = await call(method, path, body, { Authorization: `Bearer ${aToken}` });
      try {
        expectProblem(res, 404, 'not-found', path);
      } catch (err) {
        throw new Error(
          `${method.toUpperCase()} ${path} answered ${res.status} ${JSON.stringify(res.body)}: ${(err as Error).message}`,
        );
      }
    }
    expect(await snapshot(t.dataSource, b.tenantId)).toEqual(before);
    expect(await totalEvents()).toBe(eventsBefore);
    expect(await t.app.get(AccessTokensService).verify(bIds.userToken)).toMatchObject({
      sub: bIds.user,
    });
    expect(await t.app.get(ProjectsCache).byKey(bIds.apiKeySecret)).toMatchObject({
      id: b.project.id,
      allowedOrigins: ['https://app.example.com'],
    });
  });

  it('lists, searches and audit never show the other tenant', async () => {
    const h = { Authorization: `Bearer ${aToken}` };
    const bSecrets = [
      b.tenantId,
      b.project.id,
      b.consoleProjectId,
      b.adminUserId,
      bIds.user,
      bIds.org,
      bIds.invitation,
      bIds.domain,
      bIds.apiKey,
      bIds.webhook,
      bIds.oauthClient,
      'beta-user@example.com',
    ];
    const lists = [
      '/v1/admin/projects?limit=100',
      '/v1/admin/users?limit=100',
      '/v1/admin/users?q=beta',
      '/v1/admin/users?q=example.com&limit=100',
      `/v1/admin/users?project_id=${b.project.id}`,
      '/v1/admin/organizations?limit=100',
      `/v1/admin/organizations?project_id=${b.project.id}`,
      '/v1/admin/audit?limit=100',
      '/v1/admin/audit?action=user.created&limit=100',
      '/v1/admin/stats?days=90',
      '/v1/admin/webhooks?limit=100',
      `/v1/admin/projects/${a.project.id}/api-keys`,
      `/v1/admin/projects/${a.project.id}/oauth-clients`,
      `/v1/admin/organizations/${aIds.org}/members`,
      `/v1/admin/organizations/${aIds.org}/invitations`,
      `/v1/admin/organizations/${aIds.org}/domains`,
      `/v1/admin/organizations/${aIds.org}/sso-connections`,
    ];
    for (const path of lists) {
      const res = await t.http().get(path).set(h);
      expect(res.status).toBe(200);
      const text = JSON.stringify(res.body);
      for (const secret of bSecrets)
        expect({ path, leaked: text.includes(secret) ? secret : null }).toEqual({
          path,
          leaked: null,
        });
    }
    const audit = await t.http().get('/v1/admin/audit?limit=100').set(h);
    expect(audit.body.pagination.total).toBeGreaterThan(0);
    const users = await t.http().get('/v1/admin/users?q=example.com').set(h);
    expect(users.body.users.map((u: { email: string }) => u.email)).toEqual([
      'alpha-user@example.com',
    ]);
  });

  it('answers 401 without a token and 403 to a non-admin on every route, changing nothing', async () => {
    const before = await snapshot(t.dataSource, a.tenantId);
    const plain = (await mintAccessToken(t.app, aIds.user)).token;
    const lists: [Method, string, object?][] = [
      ['get', '/v1/admin/projects'],
      ['post', '/v1/admin/projects', { name: 'x' }],
      ['get', '/v1/admin/users'],
      ['get', '/v1/admin/organizations'],
      ['get', '/v1/admin/audit'],
      ['get', '/v1/admin/stats'],
      ['get', '/v1/admin/webhooks'],
    ];
    const all = [...lists, ...routes(aIds, aIds)];
    for (const [method, path, body] of all) {
      expectProblem(await call(method, path, body, {}), 401, 'unauthenticated', path);
      expectProblem(
        await call(method, path, body, { Authorization: `Bearer ${plain}` }),
        403,
        'forbidden',
        path,
      );
    }
    const after = await snapshot(t.dataSource, a.tenantId);
    // Minting the plain user's token added one session row; nothing else moved.
    expect({ ...after, sessions: '' }).toEqual({ ...before, sessions: '' });
  });
});
