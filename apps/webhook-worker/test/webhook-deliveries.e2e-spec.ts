import Redis from 'ioredis';
import request from 'supertest';
import { AuditEvent, OutboxEvent, Webhook, WebhookDelivery } from '@gatehouse/entities';
import { EventRecorder } from '@gatehouse/identity';
import { webhookDeliveries } from '@gatehouse/platform';
import {
  nextIp,
  seedTenant,
  spawnApp,
  startTestApp,
  TEST_REDIS_URL,
  type AppProcess,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildWebhookWorker } from '../src/app-factory';
import { insertWebhook, verified, waitFor, WebhookReceiver } from './support/webhook-receiver';

/**
 * The worker delivers for real: outbox → relay → BullMQ → signed POST to a local receiver, which
 * checks every signature with the `standardwebhooks` package. Retries run on a short schedule.
 */
describe('webhook deliveries (worker)', () => {
  let t: TestApp;
  let runtime: AppProcess;
  let tenant: SeededTenant;
  const receiver = new WebhookReceiver();

  const deliveriesOf = (webhookId: string) =>
    t.dataSource
      .getRepository(WebhookDelivery)
      .find({ where: { webhookId }, order: { attempt: 'ASC' } });
  const allDispatched = async () => {
    const [row] = await t.dataSource.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM outbox_events WHERE dispatched_at IS NULL`,
    );
    return row.n === 0;
  };
  /** Records an event the way every feature does: EventRecorder inside the transaction of the change. */
  const emit = (type: string, data: Record<string, unknown> = {}, tenantId = tenant.tenantId) =>
    t.dataSource.transaction((m) =>
      t.app.get(EventRecorder).record(m, {
        tenantId,
        projectId: tenant.project.id,
        actorType: 'system',
        actorId: null,
        action: type,
        resourceType: 'test',
        resourceId: null,
        data,
      }),
    );

  beforeAll(async () => {
    await receiver.start();
    t = await startTestApp(buildWebhookWorker, {
      WEBHOOK_RETRY_SCHEDULE: '1s,2s,3s',
      WEBHOOK_TIMEOUT_MS: '1500',
    });
    runtime = await spawnApp('auth-runtime', { TRUST_PROXY: 'loopback' });
  }, 60_000);
  beforeEach(async () => {
    receiver.reset();
    await t.reset();
    tenant = await seedTenant(t.app);
    // Seeding wrote events of its own (user.created of the admin): relayed before any webhook exists.
    await waitFor('the seed events to be relayed', allDispatched);
  });
  afterAll(async () => {
    await runtime?.stop();
    await t?.close();
    await receiver.stop();
  });

  it('delivers a real sign-up as a verified user.created, only to the webhooks that subscribed to it', async () => {
    const other = await seedTenant(t.app, 'Other');
    await waitFor('the seed events to be relayed', allDispatched);
    const mine = await insertWebhook(t.dataSource, t.config, {
      tenantId: tenant.tenantId,
      url: receiver.url('/mine'),
      events: ['user.created'],
    });
    const sessionsOnly = await insertWebhook(t.dataSource, t.config, {
      tenantId: tenant.tenantId,
      url: receiver.url('/sessions'),
      events: ['session.revoked'],
    });
    const theirs = await insertWebhook(t.dataSource, t.config, {
      tenantId: other.tenantId,
      url: receiver.url('/theirs'),
      events: ['*'],
    });

    const signUp = await request(`http://127.0.0.1:${runtime.port}`)
      .post('/v1/auth/sign-up')
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('X-Forwarded-For', nextIp())
      .send({ email: 'grace@example.com', password: 'a sturdy passphrase 42' });
    expect(signUp.status).toBe(201);
    const userId = signUp.body.user.id as string;

    const [got] = await waitFor(
      'the delivery',
      () => receiver.on('/mine').length > 0 && receiver.on('/mine'),
    );
    const payload = verified(mine.secret, got);
    const event = await t.dataSource.getRepository(OutboxEvent).findOneByOrFail({
      type: 'user.created',
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
    });
    expect(payload).toEqual({
      id: event.id,
      type: 'user.created',
      timestamp: event.createdAt.toISOString(),
      tenant_id: tenant.tenantId,
      project_id: tenant.project.id,
      data: {
        user: {
          id: userId,
          email: 'grace@example.com',
          username: null,
          project_id: tenant.project.id,
        },
      },
    });
    expect(got.headers['webhook-id']).toBe(event.id);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers.host).toBe(`127.0.0.1:${receiver.port}`);
    expect(got.headers['user-agent']).toBe('Gatehouse-Webhooks/1.0');
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);

    const [delivery] = await waitFor('the delivery record', async () => {
      const rows = await deliveriesOf(mine.id);
      return rows[0]?.status === 'succeeded' && rows;
    });
    expect(delivery).toMatchObject({
      eventId: event.id,
      eventType: 'user.created',
      status: 'succeeded',
      attempt: 1,
      responseStatus: 200,
      nextAttemptAt: null,
      tenantId: tenant.tenantId,
    });
    expect(delivery.durationMs).toEqual(expect.any(Number));

    // session.created was relayed as well, but nobody here subscribed to it.
    await waitFor('every event to be relayed', allDispatched);
    await new Promise((r) => setTimeout(r, 300));
    expect(await deliveriesOf(sessionsOnly.id)).toEqual([]);
    expect(await deliveriesOf(theirs.id)).toEqual([]);
    expect(receiver.received.map((r) => r.path)).toEqual(['/mine']);
  });

  it('retries a receiver failing twice: three attempts, increasing delays, one webhook-id, each a record', async () => {
    const outcomes = async () =>
      Object.fromEntries(
        (await webhookDeliveries.get()).values.map((v) => [String(v.labels.outcome), v.value]),
      );
    const before = await outcomes();
    const hook = await insertWebhook(t.dataSource, t.config, {
      tenantId: tenant.tenantId,
      url: receiver.url('/flaky'),
      events: ['*'],
    });
    receiver.reply('/flaky', (n) => ({ status: n <= 2 ? 500 : 204 }));
    const eventId = await emit('user.updated', { user: { id: 'u1' } });

    const calls = await waitFor(
      'three attempts',
      () => receiver.on('/flaky').length >= 3 && receiver.on('/flaky'),
      20_000,
    );
    expect(calls.map((c) => c.headers['webhook-id'])).toEqual([eventId, eventId, eventId]);
    expect(new Set(calls.map((c) => c.body)).size).toBe(1);
    for (const c of calls)
      expect(verified(hook.secret, c)).toMatchObject({ id: eventId, type: 'user.updated' });
    const gap1 = calls[1].at - calls[0].at;
    const gap2 = calls[2].at - calls[1].at;
    expect(gap1).toBeGreaterThanOrEqual(950);
    expect(gap2).toBeGreaterThanOrEqual(1950);
    expect(gap2).toBeGreaterThan(gap1);

    const rows = await waitFor('the third record', async () => {
      const r = await deliveriesOf(hook.id);
      return r.length === 3 && r[2].status === 'succeeded' && r;
    });
    expect(rows.map((r) => [r.attempt, r.status, r.responseStatus, r.eventId])).toEqual([
      [1, 'failed', 500, eventId],
      [2, 'failed', 500, eventId],
      [3, 'succeeded', 204, eventId],
    ]);
    expect(rows[0].nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(
      rows[0].createdAt.getTime() + 1000,
    );
    expect(rows[1].nextAttemptAt!.getTime() - calls[1].at).toBeGreaterThanOrEqual(1900);
    expect(rows[2].nextAttemptAt).toBeNull();
    await new Promise((r) => setTimeout(r, 1200));
    expect(receiver.on('/flaky')).toHaveLength(3);
    // The same outcomes on /metrics (gatehouse_webhook_deliveries_total{outcome}).
    const after = await outcomes();
    expect((after.retrying ?? 0) - (before.retrying ?? 0)).toBe(2);
    expect((after.succeeded ?? 0) - (before.succeeded ?? 0)).toBe(1);
  });

  it("points a failed attempt at the redelivery that took its follow-up's number while it was in flight", async () => {
    const hook = await insertWebhook(t.dataSource, t.config, {
      tenantId: tenant.tenantId,
      url: receiver.url('/busy'),
      events: ['*'],
    });
    receiver.reply('/busy', () => ({ status: 500 }));
    const eventId = await emit('user.updated', { user: { id: 'u2' } });
    const [first] = await waitFor('the first failure', async () => {
      const r = await deliveriesOf(hook.id);
      return r.length === 2 && r[0].status === 'failed' && r;
    });
    // While attempt 2 waits for its turn, a redelivery queues attempt 3 (due in an hour here, so it stays pending).
    const manualDue = new Date(Date.now() + 3600_000);
    await t.dataSource.query(
      `INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, status, attempt, next_attempt_at, manual) VALUES ($1, $2, $3, 'user.updated', 'pending', 3, $4, true)`,
      [tenant.tenantId, hook.id, eventId, manualDue],
    );
    const rows = await waitFor('attempt 2 to fail', async () => {
      const r = await deliveriesOf(hook.id);
      return r[1].status === 'failed' && r;
    });
    expect(first.attempt).toBe(1);
    expect(rows.map((r) => [r.attempt, r.status, r.manual])).toEqual([
      [1, 'failed', false],
      [2, 'failed', false],
      [3, 'pending', true],
    ]);
    expect(rows[1].nextAttemptAt?.getTime()).toBe(manualDue.getTime());
  });

  it('does not follow a 302: the attempt fails with 302 and a retry is scheduled', async () => {
    await insertWebhook(t.dataSource, t.config, {
      tenantId: tenant.tenantId,
      url: receiver.url('/moved'),
      events: ['user.updated'],
    });
    receiver.reply('/moved', () => ({
      status: 302,
      headers: { location: receiver.url('/target') },
    }));
    const eventId = await emit('user.updated');

    const [first] = await waitFor('the first attempt record', async () => {
      const rows = await t.dataSource
        .getRepository(WebhookDelivery)
        .find({ where: { eventId }, order: { attempt: 'ASC' } });
      return rows[0]?.status === 'failed' && rows;
    });
    expect(first).toMatchObject({
      attempt: 1,
      status: 'failed',
      responseStatus: 302,
      error: 'HTTP 302',
    });
    expect(first.nextAttemptAt).not.toBeNull();
    const pending = await t.dataSource
      .getRepository(WebhookDelivery)
      .findOneByOrFail({ eventId, attempt: 2 });
    expect(pending.status).toBe('pending');
    expect(receiver.on('/target')).toEqual([]);
  });

  it('disables the endpoint on 410: failed for good, enabled false with reason gone, nothing more is sent', async () => {
    const hook = await insertWebhook(t.dataSource, t.config, {
      tenantId: tenant.tenantId,
      url: receiver.url('/gone'),
      events: ['*'],
    });
    receiver.reply('/gone', () => ({ status: 410 }));
    await emit('user.updated');

    const webhook = await waitFor('the webhook to be disabled', async () => {
      const w = await t.dataSource.getRepository(Webhook).findOneByOrFail({ id: hook.id });
      return !w.enabled && w;
    });
    expect(webhook.disabledReason).toBe('gone');
    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({
      attempt: 1,
      status: 'failed',
      responseStatus: 410,
      nextAttemptAt: null,
    });
    const audit = await t.dataSource
      .getRepository(AuditEvent)
      .findOneByOrFail({ action: 'webhook.updated', resourceId: hook.id });
    expect(audit).toMatchObject({
      actorType: 'system',
      tenantId: tenant.tenantId,
      metadata: {
        changes: { enabled: { from: true, to: false } },
        webhook: { id: hook.id, enabled: false, disabled_reason: 'gone' },
      },
    });

    await emit('user.deleted');
    await waitFor('every event to be relayed', allDispatched);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await deliveriesOf(hook.id)).toHaveLength(1);
    expect(receiver.on('/gone')).toHaveLength(1);
    expect(
      (await webhookDeliveries.get()).values.find((v) => v.labels.outcome === 'gone')?.value,
    ).toBe(1);
  });

  it('gives up when the schedule is used up: every attempt failed, the last without a next attempt', async () => {
    const hook = await insertWebhook(t.dataSource, t.config, {
      tenantId: tenant.tenantId,
      url: receiver.url('/down'),
      events: ['user.updated'],
    });
    receiver.reply('/down', () => ({ status: 503 }));
    await emit('user.updated');

    const rows = await waitFor(
      'four failed attempts',
      async () => {
        const r = await deliveriesOf(hook.id);
        return r.length === 4 && r.every((d) => d.status === 'failed') && r;
      },
      20_000,
    );
    expect(rows.map((r) => [r.attempt, r.responseStatus, r.nextAttemptAt === null])).toEqual([
      [1, 503, false],
      [2, 503, false],
      [3, 503, false],
      [4, 503, true],
    ]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.on('/down')).toHaveLength(4);
  });

  it('times out a receiver that never answers (WEBHOOK_TIMEOUT_MS) and schedules a retry', async () => {
    const hook = await insertWebhook(t.dataSource, t.config, {
      tenantId: tenant.tenantId,
      url: receiver.url('/slow'),
      events: ['user.updated'],
    });
    receiver.reply('/slow', () => 'hang');
    await emit('user.updated');

    const [first] = await waitFor('the timed-out attempt', async () => {
      const r = await deliveriesOf(hook.id);
      return r[0]?.status === 'failed' && r;
    });
    expect(first).toMatchObject({
      status: 'failed',
      responseStatus: null,
      error: 'timeout after 1500 ms',
    });
    expect(first.durationMs).toBeGreaterThanOrEqual(1490);
    expect(first.durationMs).toBeLessThan(3000);
    expect(first.nextAttemptAt).not.toBeNull();
  });

  it('sends webhook.test only to its webhook, even a disabled one, and never to "*" subscribers', async () => {
    const target = await insertWebhook(t.dataSource, t.config, {
      tenantId: tenant.tenantId,
      url: receiver.url('/target'),
      events: ['user.created'],
      enabled: false,
    });
    const everything = await insertWebhook(t.dataSource, t.config, {
      tenantId: tenant.tenantId,
      url: receiver.url('/all'),
      events: ['*'],
    });
    const eventId = await emit('webhook.test', {
      webhook: { id: target.id, url: receiver.url('/target') },
    });

    const [got] = await waitFor(
      'the test delivery',
      () => receiver.on('/target').length > 0 && receiver.on('/target'),
    );
    expect(verified(target.secret, got)).toMatchObject({
      id: eventId,
      type: 'webhook.test',
      data: { webhook: { id: target.id } },
    });
    await waitFor(
      'the record',
      async () => (await deliveriesOf(target.id))[0]?.status === 'succeeded',
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(await deliveriesOf(everything.id)).toEqual([]);
    expect(receiver.on('/all')).toEqual([]);
  });

  it('cancels an automatic retry when the webhook was disabled meanwhile, but makes a redelivery', async () => {
    const hook = await insertWebhook(t.dataSource, t.config, {
      tenantId: tenant.tenantId,
      url: receiver.url('/off'),
      events: ['user.updated'],
    });
    receiver.reply('/off', (n) => ({ status: n === 1 ? 500 : 200 }));
    const eventId = await emit('user.updated');
    await waitFor(
      'the first failure',
      async () => (await deliveriesOf(hook.id))[0]?.status === 'failed',
    );
    await t.dataSource.query(`UPDATE webhooks SET enabled = false WHERE id = $1`, [hook.id]);

    const rows = await waitFor('the retry to be cancelled', async () => {
      const r = await deliveriesOf(hook.id);
      return r[1]?.status === 'failed' && r;
    });
    expect(rows[1]).toMatchObject({
      attempt: 2,
      status: 'failed',
      responseStatus: null,
      error: 'webhook disabled',
      nextAttemptAt: null,
    });
    expect(receiver.on('/off')).toHaveLength(1);

    // A manual attempt (what the control plane's redeliver writes) is made even while disabled.
    await t.dataSource.getRepository(WebhookDelivery).insert({
      tenantId: tenant.tenantId,
      webhookId: hook.id,
      eventId,
      eventType: 'user.updated',
      status: 'pending',
      attempt: 3,
      manual: true,
      nextAttemptAt: new Date(),
    });
    const calls = await waitFor(
      'the redelivery (picked up by the sweeper)',
      () => receiver.on('/off').length === 2 && receiver.on('/off'),
      15_000,
    );
    expect(calls[1].headers['webhook-id']).toBe(eventId);
    expect(calls[1].body).toBe(calls[0].body);
    await waitFor(
      'its record',
      async () => (await deliveriesOf(hook.id))[2]?.status === 'succeeded',
    );
  });

  it('sends a first attempt whose batch job Redis lost, once overdue by the timeout plus a minute (never doubling a live batch)', async () => {
    const hook = await insertWebhook(t.dataSource, t.config, {
      tenantId: tenant.tenantId,
      url: receiver.url('/lost'),
      events: ['user.deleted'],
    });
    const eventId = await emit('user.updated', { user: { id: 'u7' } });
    await waitFor('the event to be relayed (to nobody)', allDispatched);
    // What the relay writes for a subscribed webhook, whose batch job then vanished from Redis.
    const lost = await t.dataSource.getRepository(WebhookDelivery).save({
      tenantId: tenant.tenantId,
      webhookId: hook.id,
      eventId,
      eventType: 'user.updated',
      status: 'pending',
      attempt: 1,
      manual: false,
      nextAttemptAt: t.clock.now(),
    });
    await new Promise((r) => setTimeout(r, 6000));
    expect(receiver.on('/lost')).toEqual([]);

    t.clock.advance(1500 + 60_000 + 1000);
    const [got] = await waitFor(
      'the swept attempt',
      () => receiver.on('/lost').length > 0 && receiver.on('/lost'),
      15_000,
    );
    expect(verified(hook.secret, got)).toMatchObject({ id: eventId, data: { user: { id: 'u7' } } });
    await waitFor(
      'its record',
      async () =>
        (await t.dataSource.getRepository(WebhookDelivery).findOneByOrFail({ id: lost.id }))
          .status === 'succeeded',
    );
    expect(receiver.on('/lost')).toHaveLength(1);
  }, 40_000);

  it('survives Redis losing every queued job: the sweeper re-enqueues from PostgreSQL, same webhook-id', async () => {
    const hook = await insertWebhook(t.dataSource, t.config, {
      tenantId: tenant.tenantId,
      url: receiver.url('/restart'),
      events: ['user.updated'],
    });
    receiver.reply('/restart', (n) => ({ status: n === 1 ? 503 : 200 }));
    const eventId = await emit('user.updated', { user: { id: 'u9' } });

    const retry = await waitFor('the scheduled retry', async () => {
      const r = await deliveriesOf(hook.id);
      return r[1]?.status === 'pending' && r[1];
    });
    // Like a restart of a Redis without persistence: the delayed retry job is gone.
    const redis = new Redis(TEST_REDIS_URL);
    try {
      await redis.flushdb();
      expect(await redis.exists(`gatehouse:webhook-deliveries:${retry.id}`)).toBe(0);
    } finally {
      redis.disconnect();
    }

    const calls = await waitFor(
      'the retry after the loss',
      () => receiver.on('/restart').length >= 2 && receiver.on('/restart'),
      20_000,
    );
    expect(calls.map((c) => c.headers['webhook-id'])).toEqual([eventId, eventId]);
    expect(verified(hook.secret, calls[1])).toMatchObject({
      id: eventId,
      data: { user: { id: 'u9' } },
    });
    const rows = await waitFor('the record', async () => {
      const r = await deliveriesOf(hook.id);
      return r[1]?.status === 'succeeded' && r;
    });
    expect(rows.map((r) => [r.attempt, r.status])).toEqual([
      [1, 'failed'],
      [2, 'succeeded'],
    ]);
  });
});
