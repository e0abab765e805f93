import { AuditEvent, OutboxEvent, Project, SigningKey } from '@gatehouse/entities';
import { openOAuthSecret, ProjectsCache } from '@gatehouse/identity';
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

describe('admin projects: create, get, list, patch', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let token: string;
  const auth = () => ({
    Authorization: `Bearer ${token}`,
    'X-Forwarded-For': '203.0.113.7',
    'User-Agent': 'admin-console/1.0',
  });
  const post = (path: string, body: unknown) =>
    t
      .http()
      .post(path)
      .set(auth())
      .send(body as object);
  const patch = (path: string, body: unknown) =>
    t
      .http()
      .patch(path)
      .set(auth())
      .send(body as object);
  const get = (path: string) => t.http().get(path).set(auth());

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane, { TRUST_PROXY: 'loopback' });
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
  });
  afterAll(() => t.close());

  it('creates a project with a publishable key and a first signing key, audited with actor and IP', async () => {
    const res = await post('/v1/admin/projects', {
      name: 'Shop',
      allowed_origins: ['https://shop.example.com', 'http://localhost:3000'],
      redirect_urls: ['https://shop.example.com/callback'],
      settings: {
        default_redirect_url: 'https://shop.example.com/callback',
        access_token_ttl_seconds: 600,
        require_email_verification: true,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Shop',
      publishable_key: expect.stringMatching(/^pk_[A-Za-z0-9_-]{32}$/),
      allowed_origins: ['https://shop.example.com', 'http://localhost:3000'],
      redirect_urls: ['https://shop.example.com/callback'],
      settings: {
        default_redirect_url: 'https://shop.example.com/callback',
        rp_id: null,
        rp_name: null,
        access_token_ttl_seconds: 600,
        require_email_verification: true,
        reauthentication_max_age_seconds: 600,
        sms: { max_per_hour: 100, allowed_countries: ['*'] },
        oidc: {
          enabled: false,
          login_url: null,
          dynamic_registration: false,
          allow_sign_up: true,
          require_pushed_authorization_requests: false,
        },
        password_migration: { enabled: false, url: null, timeout_ms: 5000, secret_set: false },
        oauth_providers: {},
      },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const keys = await t.dataSource
      .getRepository(SigningKey)
      .find({ where: { projectId: res.body.id } });
    expect(keys.map((k) => [k.status, k.algorithm, k.tenantId])).toEqual([
      ['active', 'ES256', tenant.tenantId],
    ]);
    expect(
      await t.dataSource.getRepository(Project).findOneByOrFail({ id: res.body.id }),
    ).toMatchObject({ tenantId: tenant.tenantId, isConsole: false });

    const audit = await t.dataSource
      .getRepository(AuditEvent)
      .findOneByOrFail({ action: 'project.created' });
    expect(audit).toMatchObject({
      tenantId: tenant.tenantId,
      projectId: res.body.id,
      actorType: 'admin',
      actorId: tenant.adminUserId,
      resourceType: 'project',
      resourceId: res.body.id,
      ipAddress: '203.0.113.7',
      userAgent: 'admin-console/1.0',
    });
    expect(
      await t.dataSource
        .getRepository(OutboxEvent)
        .countBy({ type: 'project.created', projectId: res.body.id }),
    ).toBe(1);

    const got = await get(`/v1/admin/projects/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('lists projects newest first with page and limit', async () => {
    for (const name of ['P1', 'P2', 'P3'])
      expect((await post('/v1/admin/projects', { name })).status).toBe(201);
    const all = await get('/v1/admin/projects?limit=100');
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ page: 1, limit: 100, total: 5 });
    const page2 = await get('/v1/admin/projects?page=2&limit=2');
    expect(page2.body.pagination).toEqual({ page: 2, limit: 2, total: 5 });
    expect(page2.body.projects.map((p: { id: string }) => p.id)).toEqual(
      all.body.projects.slice(2, 4).map((p: { id: string }) => p.id),
    );
    expect((await get('/v1/admin/projects?page=9')).body).toEqual({
      projects: [],
      pagination: { page: 9, limit: 20, total: 5 },
    });
  });

  it('searches project names with q, case-insensitively and literally', async () => {
    for (const name of ['Billing Portal', 'Mobile app', '100% Pure_Name'])
      expect((await post('/v1/admin/projects', { name })).status).toBe(201);
    const names = async (q: string) =>
      (await get(`/v1/admin/projects?q=${encodeURIComponent(q)}`)).body.projects.map(
        (p: { name: string }) => p.name,
      );
    expect(await names('PORTAL')).toEqual(['Billing Portal']);
    expect(await names('obile A')).toEqual(['Mobile app']);
    expect(await names('%')).toEqual(['100% Pure_Name']);
    expect(await names('_')).toEqual(['100% Pure_Name']);
    expect(await names('nothing like it')).toEqual([]);
    const withL = await names('l');
    expect(withL).toEqual(expect.arrayContaining(['Billing Portal', 'Mobile app']));
    const found = await get('/v1/admin/projects?q=l&limit=1');
    expect(found.body.pagination).toEqual({ page: 1, limit: 1, total: withL.length });
    expect(found.body.projects).toHaveLength(1);
    expectProblem(await get('/v1/admin/projects?q=a&q=b'), 400, 'validation-error');
  });

  it('refuses invalid, unknown and forbidden fields on create with dotted paths, creating nothing', async () => {
    const before = await t.dataSource.getRepository(Project).count();
    const cases: [unknown, string][] = [
      [{}, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 42 }, 'name'],
      [{ name: 'x', id: '00000000-0000-0000-0000-000000000000' }, 'id'],
      [{ name: 'x', tenant_id: tenant.tenantId }, 'tenant_id'],
      [{ name: 'x', publishable_key: 'pk_mine' }, 'publishable_key'],
      [{ name: 'x', is_console: true }, 'is_console'],
      [JSON.parse('{"name":"x","__proto__":{"is_console":true}}'), '__proto__'],
      [
        { name: 'x', settings: { access_token_ttl_seconds: 59 } },
        'settings.access_token_ttl_seconds',
      ],
      [
        { name: 'x', settings: { access_token_ttl_seconds: '900' } },
        'settings.access_token_ttl_seconds',
      ],
      [
        { name: 'x', settings: { reauthentication_max_age_seconds: 29 } },
        'settings.reauthentication_max_age_seconds',
      ],
      [
        { name: 'x', settings: { reauthentication_max_age_seconds: 86401 } },
        'settings.reauthentication_max_age_seconds',
      ],
      [
        { name: 'x', settings: { reauthentication_max_age_seconds: 600.5 } },
        'settings.reauthentication_max_age_seconds',
      ],
      [{ name: 'x', settings: { unknown_flag: true } }, 'settings.unknown_flag'],
      [
        { name: 'x', settings: { oauth_providers: { facebook: { enabled: true } } } },
        'settings.oauth_providers.facebook',
      ],
      [{ name: 'x', allowed_origins: 'https://a.example.com' }, 'allowed_origins'],
      [{ name: 'x', settings: [] }, 'settings'],
    ];
    for (const [body, field] of cases) {
      const problem = expectProblem(
        await post('/v1/admin/projects', body),
        400,
        'validation-error',
        '/v1/admin/projects',
      );
      expect(Object.keys(problem.errors as object)).toContain(field);
    }
    // A mistyped value is told its type only, not also the range it could not be compared with.
    const mistyped = expectProblem(
      await post('/v1/admin/projects', {
        name: 'x',
        settings: { access_token_ttl_seconds: '900' },
      }),
      400,
      'validation-error',
    );
    expect(
      (mistyped.errors as Record<string, string[]>)['settings.access_token_ttl_seconds'],
    ).toHaveLength(1);
    expect(await t.dataSource.getRepository(Project).count()).toBe(before);
    expect(
      await t.dataSource.getRepository(AuditEvent).countBy({ action: 'project.created' }),
    ).toBe(0);
  });

  it('validates origins and redirect URLs exactly (docs/api-contract.md §6)', async () => {
    const url = `/v1/admin/projects/${tenant.project.id}`;
    for (const origin of [
      'https://app.example.com/',
      'https://app.example.com/path',
      'https://*.example.com',
      'http://app.example.com',
      'null',
      'app.example.com',
      'https://app.example.com?x=1',
    ]) {
      const problem = expectProblem(
        await patch(url, { allowed_origins: [origin] }),
        400,
        'validation-error',
        url,
      );
      expect(problem.errors).toEqual({ allowed_origins: [expect.stringContaining('item 0')] });
    }
    for (const redirect of [
      'http://app.example.com/cb',
      'https://*.example.com/cb',
      'https://app.example.com/*',
      '/relative',
      'javascript:alert(1)',
      'https://app.example.com/cb#x',
    ]) {
      const problem = expectProblem(
        await patch(url, { redirect_urls: ['https://ok.example.com/cb', redirect] }),
        400,
        'validation-error',
        url,
      );
      expect(problem.errors).toEqual({ redirect_urls: [expect.stringContaining('item 1')] });
    }
    expectProblem(
      await patch(url, { settings: { default_redirect_url: 'http://evil.example.com/' } }),
      400,
      'validation-error',
    );
    const ok = await patch(url, {
      allowed_origins: [
        'https://app.example.com',
        'http://127.0.0.1:5173',
        'https://app.example.com',
      ],
      redirect_urls: ['https://app.example.com/cb?next=1', 'http://localhost:3000/cb'],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.allowed_origins).toEqual(['https://app.example.com', 'http://127.0.0.1:5173']);
    expect(ok.body.redirect_urls).toEqual([
      'https://app.example.com/cb?next=1',
      'http://localhost:3000/cb',
    ]);
  });

  it('patches any subset; settings merge at their top level; null resets a key; the runtime cache is dropped at once', async () => {
    const url = `/v1/admin/projects/${tenant.project.id}`;
    const cache = t.app.get(ProjectsCache);
    expect((await cache.byKey(tenant.projectKey))!.settings.rp_name).toBe('Acme App');

    const res = await patch(url, {
      settings: { rp_name: 'Renamed', access_token_ttl_seconds: 86400 },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Acme App');
    expect(res.body.allowed_origins).toEqual(['https://app.example.com']);
    expect(res.body.settings).toEqual({
      default_redirect_url: 'https://app.example.com/callback',
      rp_id: 'app.example.com',
      rp_name: 'Renamed',
      require_email_verification: false,
      access_token_ttl_seconds: 86400,
      reauthentication_max_age_seconds: 600,
      sms: { max_per_hour: 100, allowed_countries: ['*'] },
      oidc: {
        enabled: false,
        login_url: null,
        dynamic_registration: false,
        allow_sign_up: true,
        require_pushed_authorization_requests: false,
      },
      password_migration: { enabled: false, url: null, timeout_ms: 5000, secret_set: false },
      oauth_providers: {},
    });
    expect((await cache.byKey(tenant.projectKey))!.settings.rp_name).toBe('Renamed');
    expect((await cache.byId(tenant.project.id))!.settings.access_token_ttl_seconds).toBe(86400);

    const reset = await patch(url, {
      name: 'New name',
      settings: { access_token_ttl_seconds: null },
    });
    expect(reset.status).toBe(200);
    expect(reset.body.name).toBe('New name');
    expect(reset.body.settings.access_token_ttl_seconds).toBe(900);
    expect(
      (await t.dataSource.getRepository(Project).findOneByOrFail({ id: tenant.project.id }))
        .settings,
    ).not.toHaveProperty('access_token_ttl_seconds');
    expect(new Date(reset.body.updated_at).getTime()).toBeGreaterThanOrEqual(
      new Date(res.body.updated_at).getTime(),
    );

    const events = await t.dataSource
      .getRepository(AuditEvent)
      .find({ where: { action: 'project.updated' }, order: { createdAt: 'ASC' } });
    expect(events.map((e) => e.metadata.changed)).toEqual([
      ['settings.rp_name', 'settings.access_token_ttl_seconds'],
      ['name', 'settings.access_token_ttl_seconds'],
    ]);
    expect(
      events.every(
        (e) =>
          e.actorType === 'admin' &&
          e.actorId === tenant.adminUserId &&
          e.projectId === tenant.project.id,
      ),
    ).toBe(true);

    // A form sends every field; only those whose value changes are recorded (docs/api-contract.md §13), and a
    // PATCH that changes nothing writes no event (found by the console: `allowed_origins: [] → []`).
    const current = (await get(url)).body;
    const same = {
      name: current.name,
      allowed_origins: current.allowed_origins,
      redirect_urls: current.redirect_urls,
      settings: { rp_name: current.settings.rp_name },
    };
    expect((await patch(url, same)).status).toBe(200);
    expect(
      await t.dataSource.getRepository(AuditEvent).countBy({ action: 'project.updated' }),
    ).toBe(2);
    expect(
      (
        await patch(url, {
          ...same,
          settings: { rp_name: current.settings.rp_name, require_email_verification: true },
        })
      ).status,
    ).toBe(200);
    const last = await t.dataSource
      .getRepository(AuditEvent)
      .find({ where: { action: 'project.updated' }, order: { createdAt: 'DESC' }, take: 1 });
    expect(last.map((e) => e.metadata)).toEqual([
      expect.objectContaining({
        changed: ['settings.require_email_verification'],
        changes: { 'settings.require_email_verification': { from: null, to: true } },
      }),
    ]);
  });

  it('concurrent settings PATCHes merge instead of losing keys', async () => {
    const url = `/v1/admin/projects/${tenant.project.id}`;
    const results = await Promise.all([
      patch(url, { settings: { rp_name: 'One' } }),
      patch(url, { settings: { require_email_verification: true } }),
      patch(url, { settings: { access_token_ttl_seconds: 120 } }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const final = await get(url);
    expect(final.body.settings).toMatchObject({
      rp_name: 'One',
      require_email_verification: true,
      access_token_ttl_seconds: 120,
    });
  });

  it('stores OAuth client secrets sealed and write-only; an omitted secret is kept', async () => {
    const url = `/v1/admin/projects/${tenant.project.id}`;
    const res = await patch(url, {
      settings: {
        oauth_providers: {
          google: {
            enabled: true,
            client_id: 'gid',
            client_secret: 'google-secret',
            scopes: ['openid', 'email'],
          },
          apple: {
            enabled: true,
            client_id: 'com.example',
            team_id: 'TEAM1',
            key_id: 'KEY1',
            private_key: '-----BEGIN PRIVATE KEY-----x',
          },
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.settings.oauth_providers).toEqual({
      google: {
        enabled: true,
        client_id: 'gid',
        scopes: ['openid', 'email'],
        client_secret_set: true,
      },
      apple: {
        enabled: true,
        client_id: 'com.example',
        team_id: 'TEAM1',
        key_id: 'KEY1',
        client_secret_set: false,
        private_key_set: true,
      },
    });
    expect(JSON.stringify(res.body)).not.toContain('google-secret');
    const row = await t.dataSource
      .getRepository(Project)
      .findOneByOrFail({ id: tenant.project.id });
    expect(JSON.stringify(row.settings)).not.toContain('google-secret');
    const sealed = row.settings.oauth_providers!.google.client_secret_encrypted as string;
    expect(openOAuthSecret(t.config, tenant.project.id, 'google', 'client_secret', sealed)).toBe(
      'google-secret',
    );

    const again = await patch(url, {
      settings: { oauth_providers: { google: { enabled: false, client_id: 'gid2' } } },
    });
    expect(again.body.settings.oauth_providers).toEqual({
      google: { enabled: false, client_id: 'gid2', client_secret_set: true },
    });
    const row2 = await t.dataSource
      .getRepository(Project)
      .findOneByOrFail({ id: tenant.project.id });
    expect(row2.settings.oauth_providers!.google.client_secret_encrypted).toBe(sealed);

    for (const body of [
      { settings: { oauth_providers: { google: { scopes: 'openid' } } } },
      { settings: { oauth_providers: { google: { token_url: 'ftp://x' } } } },
      { settings: { oauth_providers: { google: { team_id: 'T' } } } },
      { settings: { oauth_providers: { google: { enabled: 'yes' } } } },
    ]) {
      expectProblem(await patch(url, body), 400, 'validation-error');
    }
    const audit = await t.dataSource
      .getRepository(AuditEvent)
      .find({ where: { action: 'project.updated' } });
    expect(JSON.stringify(audit.map((a) => a.metadata))).not.toContain('secret"');
  });

  it('sets settings.sms as one key: omitted members take their defaults, null resets it, the runtime sees it at once', async () => {
    const url = `/v1/admin/projects/${tenant.project.id}`;
    const cache = t.app.get(ProjectsCache);
    const stored = async () =>
      (await t.dataSource.getRepository(Project).findOneByOrFail({ id: tenant.project.id }))
        .settings;

    const set = await patch(url, {
      settings: { sms: { max_per_hour: 2, allowed_countries: ['FR', 'BE'] } },
    });
    expect(set.status).toBe(200);
    expect(set.body.settings.sms).toEqual({ max_per_hour: 2, allowed_countries: ['FR', 'BE'] });
    expect((await stored()).sms).toEqual({ max_per_hour: 2, allowed_countries: ['FR', 'BE'] });
    expect((await cache.byKey(tenant.projectKey))!.settings.sms).toEqual({
      max_per_hour: 2,
      allowed_countries: ['FR', 'BE'],
    });

    // A new `sms` replaces the previous one whole: the member it omits is back at its default.
    const partial = await patch(url, { settings: { sms: { max_per_hour: 100000 } } });
    expect(partial.body.settings.sms).toEqual({ max_per_hour: 100000, allowed_countries: ['*'] });
    expect((await stored()).sms).toEqual({ max_per_hour: 100000 });
    expect(
      (await patch(url, { settings: { sms: { allowed_countries: ['*'] } } })).body.settings.sms,
    ).toEqual({ max_per_hour: 100, allowed_countries: ['*'] });
    expect(
      (await patch(url, { settings: { sms: { max_per_hour: 1, allowed_countries: ['US'] } } })).body
        .settings.sms,
    ).toEqual({ max_per_hour: 1, allowed_countries: ['US'] });

    const reset = await patch(url, { settings: { sms: null } });
    expect(reset.body.settings.sms).toEqual({ max_per_hour: 100, allowed_countries: ['*'] });
    expect(await stored()).not.toHaveProperty('sms');
    expect((await cache.byKey(tenant.projectKey))!.settings.sms).toBeUndefined();

    const created = await post('/v1/admin/projects', {
      name: 'Texting',
      settings: { sms: { allowed_countries: ['GB'] } },
    });
    expect(created.status).toBe(201);
    expect(created.body.settings.sms).toEqual({ max_per_hour: 100, allowed_countries: ['GB'] });
  });

  it('sets settings.token_claims; refuses reserved names, prototype paths, other roots and more than 20 claims on its path, changing nothing', async () => {
    const url = `/v1/admin/projects/${tenant.project.id}`;
    const claims = { plan: '{{user.metadata.plan}}', tier: 'tier {{org.metadata.tier}}' };
    const set = await patch(url, { settings: { token_claims: claims } });
    expect(set.status).toBe(200);
    expect(set.body.settings.token_claims).toEqual(claims);
    expect(
      (await t.app.get(ProjectsCache).byKey(tenant.projectKey))!.settings.token_claims,
    ).toEqual(claims);
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`c${i}`, 'v']));
    for (const [bad, says] of [
      [{ sub: '{{user.metadata.plan}}' }, /"sub" is a registered or Gatehouse claim/],
      [{ org: 'x' }, /"org" is a registered/],
      [{ x: '{{user.metadata.__proto__.polluted}}' }, /may not name __proto__/],
      [{ x: '{{user.metadata.constructor}}' }, /may not name constructor/],
      [{ x: '{{process.env.SECRET}}' }, /must start with user.metadata/],
      [{ x: 42 }, /non-empty string/],
      [many, /at most 20 claims/],
      ['{{user.metadata.plan}}', /must be an object/],
    ] as [unknown, RegExp][]) {
      const res = await patch(url, { settings: { token_claims: bad } });
      expectProblem(res, 400, 'validation-error');
      expect(res.body.errors['settings.token_claims'].join(' ')).toMatch(says);
    }
    // Keys that would reach a prototype, as JSON.parse gives them (own properties named so).
    for (const raw of [
      '{"settings":{"token_claims":{"__proto__":"{{user.metadata.plan}}"}}}',
      '{"settings":{"token_claims":{"constructor":"{{user.metadata.plan}}"}}}',
      '{"settings":{"token_claims":{"ok":"x","__proto__":{"polluted":"{{user.metadata.plan}}"}}}}',
    ]) {
      const res = await t
        .http()
        .patch(url)
        .set(auth())
        .set('Content-Type', 'application/json')
        .send(raw);
      expectProblem(res, 400, 'validation-error');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const stored = await t.dataSource
      .getRepository(Project)
      .findOneByOrFail({ id: tenant.project.id });
    expect(stored.settings.token_claims).toEqual(claims);
    const reset = await patch(url, { settings: { token_claims: null } });
    expect(reset.body.settings).not.toHaveProperty('token_claims');
  });

  it('refuses a malformed settings.sms with validation-error on its dotted path, types strictly, changing nothing', async () => {
    const url = `/v1/admin/projects/${tenant.project.id}`;
    expect(
      (await patch(url, { settings: { sms: { max_per_hour: 7, allowed_countries: ['DE'] } } }))
        .status,
    ).toBe(200);
    const before = (
      await t.dataSource.getRepository(Project).findOneByOrFail({ id: tenant.project.id })
    ).settings;
    const audits = await t.dataSource
      .getRepository(AuditEvent)
      .countBy({ action: 'project.updated' });
    const rate = 'settings.sms.max_per_hour';
    const countries = 'settings.sms.allowed_countries';
    const cases: [unknown, string, RegExp][] = [
      [{ max_per_hour: 0 }, rate, /not be less than 1/],
      [{ max_per_hour: 100001 }, rate, /not be greater than 100000/],
      [{ max_per_hour: 1.5 }, rate, /integer/],
      [{ max_per_hour: '10' }, rate, /integer/],
      [{ max_per_hour: null }, rate, /integer/],
      [{ max_per_hour: true }, rate, /integer/],
      [{ allowed_countries: [] }, countries, /not be empty/],
      [{ allowed_countries: 'FR' }, countries, /array/],
      [{ allowed_countries: null }, countries, /array/],
      [{ allowed_countries: { 0: 'FR' } }, countries, /array/],
      [{ allowed_countries: ['FR', 33] }, countries, /item 1 must be a string/],
      [{ allowed_countries: ['fr'] }, countries, /item 0 \("fr"\) must be upper case: "FR"/],
      [{ allowed_countries: ['FR', 'XX'] }, countries, /item 1 \("XX"\) .*ISO 3166-1 alpha-2/],
      [{ allowed_countries: ['UK'] }, countries, /ISO 3166-1 alpha-2/],
      [{ allowed_countries: ['FRA'] }, countries, /ISO 3166-1 alpha-2/],
      [{ allowed_countries: ['FR', 'BE', 'FR'] }, countries, /item 2 \("FR"\) repeats/],
      [{ allowed_countries: ['*', 'FR'] }, countries, /"\*" must be the only item/],
      [{ allowed_countries: ['FR', '*'] }, countries, /"\*" must be the only item/],
      [{ allowed_countries: ['*', '*'] }, countries, /"\*" must be the only item/],
      [{ allowed_countries: Array.from({ length: 300 }, () => 'FR') }, countries, /at most 250/],
      [
        { max_per_hour: 5, blocked_countries: ['FR'] },
        'settings.sms.blocked_countries',
        /should not exist/,
      ],
      ['FR', 'settings.sms', /object/],
      [[], 'settings.sms', /object/],
      [42, 'settings.sms', /object/],
    ];
    for (const [sms, field, message] of cases) {
      const problem = expectProblem(
        await patch(url, { settings: { sms } }),
        400,
        'validation-error',
        url,
      );
      expect({ sms, errors: problem.errors }).toEqual({
        sms,
        errors: { [field]: [expect.stringMatching(message)] },
      });
    }
    expectProblem(
      await post('/v1/admin/projects', { name: 'x', settings: { sms: { max_per_hour: 0 } } }),
      400,
      'validation-error',
    );
    expect(
      (await t.dataSource.getRepository(Project).findOneByOrFail({ id: tenant.project.id }))
        .settings,
    ).toEqual(before);
    expect(
      await t.dataSource.getRepository(AuditEvent).countBy({ action: 'project.updated' }),
    ).toBe(audits);
  });

  it('answers 404 for unknown, malformed and other-tenant ids, 401 without a token, 403 for a non-admin', async () => {
    const other = await seedTenant(t.app, 'Other');
    for (const id of [other.project.id, 'nope', '00000000-0000-0000-0000-000000000000']) {
      expectProblem(
        await patch(`/v1/admin/projects/${id}`, { name: 'hijack' }),
        404,
        'not-found',
        `/v1/admin/projects/${id}`,
      );
    }
    expect(
      (await t.dataSource.getRepository(Project).findOneByOrFail({ id: other.project.id })).name,
    ).toBe('Other App');
    expectProblem(
      await t.http().post('/v1/admin/projects').send({ name: 'x' }),
      401,
      'unauthenticated',
    );
    const user = await createUser(t.app, tenant.project, 'plain@example.com');
    const plain = (await mintAccessToken(t.app, user.id)).token;
    expectProblem(
      await t
        .http()
        .post('/v1/admin/projects')
        .set('Authorization', `Bearer ${plain}`)
        .send({ name: 'x' }),
      403,
      'forbidden',
    );
    expectProblem(
      await t
        .http()
        .patch(`/v1/admin/projects/${tenant.project.id}`)
        .set('Authorization', `Bearer ${plain}`)
        .send({ name: 'x' }),
      403,
      'forbidden',
    );
  });
});
