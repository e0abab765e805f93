import Redis from 'ioredis';
import { AuditEvent, OutboxEvent, Webhook, WebhookDelivery } from '@gatehouse/entities';
import { WEBHOOK_PRIVATE_ADDRESS_MESSAGE } from '@gatehouse/outbound';
import { openWebhookSecret } from '@gatehouse/webhooks';
import {
  createUser,
  expectProblem,
  mintAccessToken,
  seedTenant,
  startTestApp,
  TEST_REDIS_URL,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

const HOOK_URL = 'https://hooks.example.com/gatehouse';
const LONG_URL = `https://hooks.example.com/${'a'.repeat(2100)}`;
const LONG_DESCRIPTION = 'x'.repeat(501);
const RESOURCE_KEYS = [
  'created_at',
  'description',
  'disabled_reason',
  'enabled',
  'events',
  'id',
  'updated_at',
  'url',
];
const DELIVERY_KEYS = [
  'attempt',
  'created_at',
  'duration_ms',
  'event_id',
  'event_type',
  'id',
  'next_attempt_at',
  'response_status',
  'status',
];

describe('admin webhooks API', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let token: string;

  const post = (path: string, body?: unknown) =>
    t
      .http()
      .post(path)
      .set('Authorization', `Bearer ${token}`)
      .send(body as object);
  const get = (path: string) => t.http().get(path).set('Authorization', `Bearer ${token}`);
  const patch = (path: string, body: unknown) =>
    t
      .http()
      .patch(path)
      .set('Authorization', `Bearer ${token}`)
      .send(body as object);
  const del = (path: string) => t.http().delete(path).set('Authorization', `Bearer ${token}`);
  const create = async (body: Record<string, unknown> = {}) => {
    const res = await post('/v1/admin/webhooks', {
      url: HOOK_URL,
      events: ['user.created'],
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body as Record<string, unknown> & { id: string; secret: string };
  };
  const webhookRows = () => t.dataSource.getRepository(Webhook).find();

  /** An event of the tenant and `n` delivery records of it for a webhook, one second apart (oldest first). */
  async function seedDeliveries(
    webhookId: string,
    n: number,
    opts: { status?: WebhookDelivery['status']; tenantId?: string } = {},
  ) {
    const tenantId = opts.tenantId ?? tenant.tenantId;
    const event = await t.dataSource.getRepository(OutboxEvent).save({
      tenantId,
      projectId: null,
      type: 'user.created',
      payload: { user: { id: 'u1' } },
      dispatchedAt: new Date(),
    });
    const rows: WebhookDelivery[] = [];
    for (let i = 1; i <= n; i += 1) {
      rows.push(
        await t.dataSource.getRepository(WebhookDelivery).save({
          tenantId,
          webhookId,
          eventId: event.id,
          eventType: 'user.created',
          status: opts.status ?? 'failed',
          attempt: i,
          responseStatus: 500,
          durationMs: 12,
          error: 'HTTP 500',
          nextAttemptAt: null,
          manual: false,
          createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, i)),
        }),
      );
    }
    return { event, rows };
  }

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane);
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
  });
  afterAll(() => t.close());

  it('creates a webhook and shows its whsec_ secret once, stored sealed, with an admin audit + outbox event', async () => {
    const res = await post('/v1/admin/webhooks', {
      url: HOOK_URL,
      events: ['user.created', 'session.created', 'user.created'],
      description: 'CRM sync',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: HOOK_URL,
      events: ['user.created', 'session.created'],
      description: 'CRM sync',
      enabled: true,
      disabled_reason: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const { id, secret } = res.body as { id: string; secret: string };

    const [row] = await webhookRows();
    expect(row.id).toBe(id);
    expect(row.secretEncrypted).not.toBe(secret);
    expect(row.secretEncrypted).not.toContain(secret.slice(6));
    expect(openWebhookSecret(t.config, id, row.secretEncrypted)).toBe(secret);

    const audit = await t.dataSource
      .getRepository(AuditEvent)
      .findOneByOrFail({ action: 'webhook.created' });
    expect(audit).toMatchObject({
      tenantId: tenant.tenantId,
      actorType: 'admin',
      actorId: tenant.adminUserId,
      resourceType: 'webhook',
      resourceId: id,
    });
    const outbox = await t.dataSource
      .getRepository(OutboxEvent)
      .findOneByOrFail({ type: 'webhook.created' });
    expect(outbox.tenantId).toBe(tenant.tenantId);
    expect(outbox.payload).toEqual({
      webhook: {
        id,
        url: HOOK_URL,
        events: ['user.created', 'session.created'],
        description: 'CRM sync',
        enabled: true,
        disabled_reason: null,
      },
    });
    expect(JSON.stringify([audit.metadata, outbox.payload])).not.toContain(secret.slice(6));

    const created = await create({ events: ['*'], enabled: false });
    expect(created).toMatchObject({
      events: ['*'],
      enabled: false,
      disabled_reason: null,
      description: null,
    });
  });

  it('lists (newest first, paginated) and gets webhooks without their secrets', async () => {
    const a = await create({ description: 'first' });
    const b = await create({ description: 'second' });
    const c = await create({ description: 'third' });
    await t.dataSource.query(
      `UPDATE webhooks SET created_at = now() - (interval '1 minute' * $2) WHERE id = $1`,
      [a.id, 3],
    );
    await t.dataSource.query(
      `UPDATE webhooks SET created_at = now() - (interval '1 minute' * $2) WHERE id = $1`,
      [b.id, 2],
    );

    const list = await get('/v1/admin/webhooks?limit=2');
    expect(list.status).toBe(200);
    expect(list.body.pagination).toEqual({ page: 1, limit: 2, total: 3 });
    expect(list.body.webhooks.map((w: { id: string }) => w.id)).toEqual([c.id, b.id]);
    for (const w of list.body.webhooks) expect(Object.keys(w).sort()).toEqual(RESOURCE_KEYS);
    const page2 = await get('/v1/admin/webhooks?limit=2&page=2');
    expect(page2.body.webhooks.map((w: { id: string }) => w.id)).toEqual([a.id]);

    const one = await get(`/v1/admin/webhooks/${a.id}`);
    expect(one.status).toBe(200);
    expect(Object.keys(one.body).sort()).toEqual(RESOURCE_KEYS);
    expect(JSON.stringify([list.body, one.body])).not.toContain('whsec_');

    for (const q of ['limit=0', 'limit=101', 'page=0', 'page=x'])
      expectProblem(
        await get(`/v1/admin/webhooks?${q}`),
        400,
        'validation-error',
        '/v1/admin/webhooks',
      );
  });

  it.each([
    [{}, ['events', 'url']],
    [{ url: 42, events: ['user.created'] }, ['url']],
    [{ url: 'not a url', events: ['user.created'] }, ['url']],
    [{ url: 'ftp://hooks.example.com/x', events: ['user.created'] }, ['url']],
    [{ url: 'javascript:alert(1)', events: ['user.created'] }, ['url']],
    [{ url: 'https://user:pw@hooks.example.com/', events: ['user.created'] }, ['url']],
    [{ url: LONG_URL, events: ['user.created'] }, ['url']],
    [{ url: HOOK_URL, events: [] }, ['events']],
    [{ url: HOOK_URL, events: 'user.created' }, ['events']],
    [{ url: HOOK_URL, events: null }, ['events']],
    [{ url: HOOK_URL, events: ['user.exploded'] }, ['events']],
    [{ url: HOOK_URL, events: ['user.created', 'USER.CREATED'] }, ['events']],
    [{ url: HOOK_URL, events: [42] }, ['events']],
    [{ url: HOOK_URL, events: [['*']] }, ['events']],
    [{ url: HOOK_URL, events: ['*'], enabled: 'true' }, ['enabled']],
    [{ url: HOOK_URL, events: ['*'], enabled: null }, ['enabled']],
    [{ url: HOOK_URL, events: ['*'], description: 42 }, ['description']],
    [{ url: HOOK_URL, events: ['*'], description: LONG_DESCRIPTION }, ['description']],
    [{ url: HOOK_URL, events: ['*'], secret: 'whsec_AAAA' }, ['secret']],
    [{ url: HOOK_URL, events: ['*'], disabled_reason: 'gone' }, ['disabled_reason']],
  ])(
    'refuses create body #%# with 400 on the fields %j and writes nothing',
    async (body, fields) => {
      const res = await post('/v1/admin/webhooks', body);
      const problem = expectProblem(res, 400, 'validation-error', '/v1/admin/webhooks');
      expect(Object.keys(problem.errors as object).sort()).toEqual(fields);
      expect(await webhookRows()).toHaveLength(0);
      expect(
        await t.dataSource.getRepository(OutboxEvent).countBy({ type: 'webhook.created' }),
      ).toBe(0);
    },
  );

  it('refuses a body that is not a JSON object', async () => {
    for (const body of ['[]', '"x"', 'null']) {
      const res = await t
        .http()
        .post('/v1/admin/webhooks')
        .set('Authorization', `Bearer ${token}`)
        .set('Content-Type', 'application/json')
        .send(body);
      expectProblem(res, 400, 'validation-error');
    }
    expectProblem(
      await t
        .http()
        .post('/v1/admin/webhooks')
        .set('Authorization', `Bearer ${token}`)
        .set('Content-Type', 'application/json')
        .send('{"url":'),
      400,
      'invalid-json',
    );
    expect(await webhookRows()).toHaveLength(0);
  });

  describe('with WEBHOOK_ALLOW_PRIVATE_URLS=false', () => {
    let strict: TestApp;
    beforeAll(async () => {
      strict = await startTestApp(buildControlPlane, { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' });
    });
    afterAll(() => strict.close());

    it.each([
      'http://127.0.0.1/hook',
      'http://127.0.0.1:4000/v1/auth/me',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      'http://192.168.0.10/',
      'http://172.31.255.1/',
      'http://100.100.100.200/',
      'http://0.0.0.0/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://localhost/',
      'http://localhost./',
      'http://foo.localhost/',
      'http://[fd00:ec2::254]/',
      'http://[fe80::1]/',
      'http://metadata.google.internal/',
    ])('refuses %s at creation with 400 on url', async (url) => {
      const res = await strict
        .http()
        .post('/v1/admin/webhooks')
        .set('Authorization', `Bearer ${token}`)
        .send({ url, events: ['*'] });
      const problem = expectProblem(res, 400, 'validation-error', '/v1/admin/webhooks');
      expect(problem.errors).toEqual({ url: [WEBHOOK_PRIVATE_ADDRESS_MESSAGE] });
      expect(await webhookRows()).toHaveLength(0);
    });

    it('accepts a public address, and refuses a PATCH to a private one without changing anything', async () => {
      const res = await strict
        .http()
        .post('/v1/admin/webhooks')
        .set('Authorization', `Bearer ${token}`)
        .send({ url: 'https://93.184.215.14/hook', events: ['*'] });
      expect(res.status).toBe(201);
      const bad = await strict
        .http()
        .patch(`/v1/admin/webhooks/${res.body.id}`)
        .set('Authorization', `Bearer ${token}`)
        .send({ url: 'http://10.0.0.1/', description: 'x' });
      expect(expectProblem(bad, 400, 'validation-error').errors).toEqual({
        url: [WEBHOOK_PRIVATE_ADDRESS_MESSAGE],
      });
      const [row] = await webhookRows();
      expect(row).toMatchObject({ url: 'https://93.184.215.14/hook', description: null });
    });
  });

  describe('with WEBHOOK_ALLOW_PRIVATE_URLS=loopback (the test default)', () => {
    it.each([
      'http://127.0.0.1:9/hook',
      'http://[::1]:9/hook',
      'http://localhost:9/hook',
      'http://[::ffff:127.0.0.1]:9/',
    ])('accepts %s', async (url) => {
      const res = await post('/v1/admin/webhooks', { url, events: ['*'] });
      expect(res.status).toBe(201);
      expect(res.body.url).toBe(new URL(url).href);
    });

    it.each([
      'http://169.254.169.254/latest/meta-data/',
      'http://169.254.1.1/',
      'http://[fe80::1]/',
      'http://10.0.0.1/',
      'http://192.168.0.10/',
      'http://[fd00:ec2::254]/',
      'http://0.0.0.0/',
      'http://metadata.google.internal/',
    ])('refuses %s at creation with 400 on url', async (url) => {
      const res = await post('/v1/admin/webhooks', { url, events: ['*'] });
      expect(expectProblem(res, 400, 'validation-error', '/v1/admin/webhooks').errors).toEqual({
        url: [WEBHOOK_PRIVATE_ADDRESS_MESSAGE],
      });
      expect(await webhookRows()).toHaveLength(0);
    });
  });

  describe('with WEBHOOK_ALLOW_PRIVATE_URLS=true', () => {
    let open: TestApp;
    beforeAll(async () => {
      open = await startTestApp(buildControlPlane, { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    });
    afterAll(() => open.close());

    it.each([
      'http://10.0.0.1/hook',
      'http://192.168.0.10/',
      'http://127.0.0.1:9/hook',
      'http://[fd12:3456::1]/',
    ])('accepts %s', async (url) => {
      const res = await open
        .http()
        .post('/v1/admin/webhooks')
        .set('Authorization', `Bearer ${token}`)
        .send({ url, events: ['*'] });
      expect(res.status).toBe(201);
    });

    it.each([
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://169.254.170.2/v2/credentials',
      'http://[fd00:ec2::254]/',
      'http://100.100.100.200/',
      'http://169.254.1.1/',
      'http://[fe80::1]/',
      'http://metadata.google.internal/',
      'http://metadata/',
      'http://instance-data./',
    ])('still refuses the cloud metadata endpoint or link-local address %s', async (url) => {
      const res = await open
        .http()
        .post('/v1/admin/webhooks')
        .set('Authorization', `Bearer ${token}`)
        .send({ url, events: ['*'] });
      expect(expectProblem(res, 400, 'validation-error', '/v1/admin/webhooks').errors).toEqual({
        url: [WEBHOOK_PRIVATE_ADDRESS_MESSAGE],
      });
      expect(await webhookRows()).toHaveLength(0);
    });
  });

  it('patches any subset, re-enabling clears disabled_reason, and writes webhook.updated', async () => {
    const w = await create({ description: 'old' });
    const res = await patch(`/v1/admin/webhooks/${w.id}`, {
      url: 'https://other.example.com/in',
      events: ['*'],
      description: null,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...w,
      secret: undefined,
      url: 'https://other.example.com/in',
      events: ['*'],
      description: null,
      updated_at: expect.any(String),
    });
    expect(res.body.secret).toBeUndefined();
    const audit = await t.dataSource
      .getRepository(AuditEvent)
      .findOneByOrFail({ action: 'webhook.updated' });
    expect(audit).toMatchObject({
      actorType: 'admin',
      actorId: tenant.adminUserId,
      resourceId: w.id,
    });
    expect(audit.metadata.changes).toEqual({
      url: { from: w.url, to: 'https://other.example.com/in' },
      events: { from: w.events, to: ['*'] },
      description: { from: 'old', to: null },
    });
    expect(await t.dataSource.getRepository(OutboxEvent).countBy({ type: 'webhook.updated' })).toBe(
      1,
    );

    await t.dataSource.query(
      `UPDATE webhooks SET enabled = false, disabled_reason = 'gone' WHERE id = $1`,
      [w.id],
    );
    expect((await get(`/v1/admin/webhooks/${w.id}`)).body).toMatchObject({
      enabled: false,
      disabled_reason: 'gone',
    });
    const enabled = await patch(`/v1/admin/webhooks/${w.id}`, { enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
    const disabled = await patch(`/v1/admin/webhooks/${w.id}`, { enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, disabled_reason: null });

    const same = await patch(`/v1/admin/webhooks/${w.id}`, {});
    expect(same.status).toBe(200);
    expect(await t.dataSource.getRepository(OutboxEvent).countBy({ type: 'webhook.updated' })).toBe(
      3,
    );
  });

  it('refuses bad PATCH bodies and changes nothing', async () => {
    const w = await create();
    for (const [body, field] of [
      [{ url: null }, 'url'],
      [{ url: 'gopher://x' }, 'url'],
      [{ events: [] }, 'events'],
      [{ events: ['nope'] }, 'events'],
      [{ enabled: 1 }, 'enabled'],
      [{ enabled: null }, 'enabled'],
      [{ secret: 'whsec_x' }, 'secret'],
      [{ id: w.id }, 'id'],
    ] as const) {
      const res = await patch(`/v1/admin/webhooks/${w.id}`, body);
      expect(Object.keys(expectProblem(res, 400, 'validation-error').errors as object)).toEqual([
        field,
      ]);
    }
    const [row] = await webhookRows();
    expect(row).toMatchObject({ url: HOOK_URL, events: ['user.created'], enabled: true });
    expect(await t.dataSource.getRepository(OutboxEvent).countBy({ type: 'webhook.updated' })).toBe(
      0,
    );
  });

  it('deletes a webhook with its delivery records (204), then it is gone', async () => {
    const w = await create();
    await seedDeliveries(w.id, 2);
    const res = await del(`/v1/admin/webhooks/${w.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectProblem(
      await get(`/v1/admin/webhooks/${w.id}`),
      404,
      'not-found',
      `/v1/admin/webhooks/${w.id}`,
    );
    expectProblem(await del(`/v1/admin/webhooks/${w.id}`), 404, 'not-found');
    expect(await t.dataSource.getRepository(WebhookDelivery).count()).toBe(0);
    expect(
      await t.dataSource.getRepository(AuditEvent).findOneByOrFail({ action: 'webhook.deleted' }),
    ).toMatchObject({ actorType: 'admin', resourceId: w.id });
    expect(await t.dataSource.getRepository(OutboxEvent).countBy({ type: 'webhook.deleted' })).toBe(
      1,
    );
  });

  it('queues a webhook.test event for that webhook (202), through the outbox', async () => {
    const w = await create({ enabled: false });
    const res = await post(`/v1/admin/webhooks/${w.id}/test`);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ event_id: expect.any(String), type: 'webhook.test' });
    const event = await t.dataSource
      .getRepository(OutboxEvent)
      .findOneByOrFail({ id: res.body.event_id });
    expect(event).toMatchObject({
      tenantId: tenant.tenantId,
      projectId: null,
      type: 'webhook.test',
      payload: { webhook: { id: w.id, url: HOOK_URL } },
      dispatchedAt: null,
    });
    expect(
      await t.dataSource.getRepository(AuditEvent).findOneByOrFail({ action: 'webhook.test' }),
    ).toMatchObject({ actorType: 'admin', resourceId: w.id });
  });

  it('lists deliveries newest first, paginated, in the contract shape', async () => {
    const w = await create();
    const other = await create();
    const { event, rows } = await seedDeliveries(w.id, 25);
    await seedDeliveries(other.id, 3);

    const first = await get(`/v1/admin/webhooks/${w.id}/deliveries`);
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ page: 1, limit: 20, total: 25 });
    expect(first.body.deliveries).toHaveLength(20);
    expect(first.body.deliveries[0]).toEqual({
      id: rows[24].id,
      event_id: event.id,
      event_type: 'user.created',
      status: 'failed',
      attempt: 25,
      response_status: 500,
      duration_ms: 12,
      next_attempt_at: null,
      created_at: '2030-01-01T00:00:25.000Z',
    });
    for (const d of first.body.deliveries) expect(Object.keys(d).sort()).toEqual(DELIVERY_KEYS);

    const page = await get(`/v1/admin/webhooks/${w.id}/deliveries?page=2&limit=10`);
    expect(page.body.pagination).toEqual({ page: 2, limit: 10, total: 25 });
    expect(page.body.deliveries.map((d: { attempt: number }) => d.attempt)).toEqual([
      15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
    ]);
    const last = await get(`/v1/admin/webhooks/${w.id}/deliveries?page=3&limit=10`);
    expect(last.body.deliveries.map((d: { attempt: number }) => d.attempt)).toEqual([
      5, 4, 3, 2, 1,
    ]);
    expect((await get(`/v1/admin/webhooks/${w.id}/deliveries?page=9`)).body.deliveries).toEqual([]);
    expectProblem(
      await get(`/v1/admin/webhooks/${w.id}/deliveries?limit=500`),
      400,
      'validation-error',
      `/v1/admin/webhooks/${w.id}/deliveries`,
    );
  });

  it('redelivers: a new pending attempt with the same event (202), queued in Redis under its own id', async () => {
    const w = await create();
    const { event, rows } = await seedDeliveries(w.id, 2);
    const res = await post(`/v1/admin/webhooks/${w.id}/deliveries/${rows[0].id}/redeliver`);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      id: expect.any(String),
      event_id: event.id,
      event_type: 'user.created',
      status: 'pending',
      attempt: 3,
      response_status: null,
      duration_ms: null,
      next_attempt_at: expect.any(String),
      created_at: expect.any(String),
    });
    const row = await t.dataSource
      .getRepository(WebhookDelivery)
      .findOneByOrFail({ id: res.body.id });
    expect(row).toMatchObject({
      status: 'pending',
      attempt: 3,
      manual: true,
      webhookId: w.id,
      tenantId: tenant.tenantId,
    });
    const redis = new Redis(TEST_REDIS_URL);
    try {
      expect(await redis.exists(`gatehouse:webhook-deliveries:${row.id}`)).toBe(1);
    } finally {
      redis.disconnect();
    }

    // The attempt is queued and not yet made: asking again brings it forward instead of adding another.
    const again = await post(`/v1/admin/webhooks/${w.id}/deliveries/${rows[1].id}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body.id).toBe(row.id);
    expect(await t.dataSource.getRepository(WebhookDelivery).countBy({ webhookId: w.id })).toBe(3);
  });

  it('redeliver brings a scheduled retry forward', async () => {
    const w = await create();
    const { rows } = await seedDeliveries(w.id, 1);
    const later = new Date(Date.now() + 3_600_000);
    const { id: _first, ...failed } = rows[0];
    const retry = await t.dataSource.getRepository(WebhookDelivery).save({
      ...failed,
      status: 'pending',
      attempt: 2,
      responseStatus: null,
      durationMs: null,
      error: null,
      nextAttemptAt: later,
    });
    const res = await post(`/v1/admin/webhooks/${w.id}/deliveries/${rows[0].id}/redeliver`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id: retry.id, status: 'pending', attempt: 2 });
    expect(new Date(res.body.next_attempt_at).getTime()).toBeLessThan(Date.now() + 5_000);
    expect(
      await t.dataSource.getRepository(WebhookDelivery).findOneByOrFail({ id: retry.id }),
    ).toMatchObject({ manual: true });
  });

  it("answers 404 for another tenant's webhook or delivery, unknown and malformed ids, and changes nothing", async () => {
    const other = await seedTenant(t.app, 'Other');
    const otherToken = (await mintAccessToken(t.app, other.adminUserId)).token;
    const theirs = await t
      .http()
      .post('/v1/admin/webhooks')
      .set('Authorization', `Bearer ${otherToken}`)
      .send({ url: HOOK_URL, events: ['*'] });
    expect(theirs.status).toBe(201);
    const { rows: theirDeliveries } = await seedDeliveries(theirs.body.id, 1, {
      tenantId: other.tenantId,
    });
    const mine = await create();
    const { rows: myDeliveries } = await seedDeliveries(mine.id, 1);

    for (const id of [theirs.body.id, '00000000-0000-0000-0000-000000000000', 'not-an-id']) {
      expectProblem(
        await get(`/v1/admin/webhooks/${id}`),
        404,
        'not-found',
        `/v1/admin/webhooks/${id}`,
      );
      expectProblem(await patch(`/v1/admin/webhooks/${id}`, { enabled: false }), 404, 'not-found');
      expectProblem(await del(`/v1/admin/webhooks/${id}`), 404, 'not-found');
      expectProblem(await post(`/v1/admin/webhooks/${id}/test`), 404, 'not-found');
      expectProblem(await get(`/v1/admin/webhooks/${id}/deliveries`), 404, 'not-found');
      expectProblem(
        await post(`/v1/admin/webhooks/${id}/deliveries/${theirDeliveries[0].id}/redeliver`),
        404,
        'not-found',
      );
    }
    // Their delivery through my webhook, and malformed delivery ids.
    for (const d of [theirDeliveries[0].id, 'nope', '00000000-0000-0000-0000-000000000000']) {
      expectProblem(
        await post(`/v1/admin/webhooks/${mine.id}/deliveries/${d}/redeliver`),
        404,
        'not-found',
      );
    }
    expect(
      (await get('/v1/admin/webhooks')).body.webhooks.map((w: { id: string }) => w.id),
    ).toEqual([mine.id]);
    const theirRow = await t.dataSource
      .getRepository(Webhook)
      .findOneByOrFail({ id: theirs.body.id });
    expect(theirRow.enabled).toBe(true);
    expect(await t.dataSource.getRepository(WebhookDelivery).count()).toBe(2);
    expect(await t.dataSource.getRepository(OutboxEvent).countBy({ type: 'webhook.test' })).toBe(0);
    expect(myDeliveries).toHaveLength(1);
  });

  it('needs an admin: 401 without a token, 403 for a non-admin', async () => {
    expectProblem(
      await t.http().get('/v1/admin/webhooks'),
      401,
      'unauthenticated',
      '/v1/admin/webhooks',
    );
    expectProblem(
      await t
        .http()
        .post('/v1/admin/webhooks')
        .send({ url: HOOK_URL, events: ['*'] }),
      401,
      'unauthenticated',
    );
    const user = await createUser(t.app, tenant.project, 'plain@example.com');
    const plain = (await mintAccessToken(t.app, user.id)).token;
    expectProblem(
      await t
        .http()
        .post('/v1/admin/webhooks')
        .set('Authorization', `Bearer ${plain}`)
        .send({ url: HOOK_URL, events: ['*'] }),
      403,
      'forbidden',
    );
    expect(await webhookRows()).toHaveLength(0);
  });
});
