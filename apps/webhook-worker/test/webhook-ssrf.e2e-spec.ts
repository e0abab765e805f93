import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { OutboxEvent, WebhookDelivery } from '@gatehouse/entities';
import { EventRecorder } from '@gatehouse/identity';
import { webhookDeliveries } from '@gatehouse/platform';
import { seedTenant, startTestApp, type SeededTenant, type TestApp } from '@gatehouse/testing';
import { buildWebhookWorker } from '../src/app-factory';
import { insertWebhook, waitFor, WebhookReceiver } from './support/webhook-receiver';

/**
 * With WEBHOOK_ALLOW_PRIVATE_URLS=false the worker checks the address at send time too, on what
 * DNS returns: URLs that slipped past creation (written before the setting changed, or a name
 * re-pointed since) are never called.
 */
describe('webhook deliveries refuse private addresses at send time', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await startTestApp(buildWebhookWorker, {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'false',
      WEBHOOK_RETRY_SCHEDULE: '1s',
    });
  });
  beforeEach(async () => {
    receiver.reset();
    await t.reset();
    tenant = await seedTenant(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  it('never calls loopback literals or names that resolve to loopback, and records why', async () => {
    // This machine's own name resolves to a loopback or private address: refused on the resolved address.
    const own = hostname();
    const resolved = await lookup(own, { all: true });
    expect(resolved.length).toBeGreaterThan(0);

    const hooks = [];
    for (const host of ['127.0.0.1', '[::1]', 'localhost.', own]) {
      hooks.push(
        await insertWebhook(t.dataSource, t.config, {
          tenantId: tenant.tenantId,
          url: receiver.url('/internal', host),
          events: ['user.updated'],
        }),
      );
    }
    await t.dataSource.transaction((m) =>
      t.app.get(EventRecorder).record(m, {
        tenantId: tenant.tenantId,
        projectId: null,
        actorType: 'system',
        actorId: null,
        action: 'user.updated',
        resourceType: 'user',
        resourceId: null,
      }),
    );

    const rows = await waitFor(
      'both attempts of every webhook',
      async () => {
        const r = await t.dataSource
          .getRepository(WebhookDelivery)
          .find({ order: { attempt: 'ASC' } });
        return r.length === 8 && r.every((d) => d.status === 'failed') && r;
      },
      20_000,
    );
    for (const hook of hooks) {
      const mine = rows.filter((r) => r.webhookId === hook.id);
      expect(mine.map((r) => [r.attempt, r.responseStatus, r.nextAttemptAt === null])).toEqual([
        [1, null, false],
        [2, null, true],
      ]);
      for (const r of mine) expect(r.error).toMatch(/^refused address/);
    }
    expect(receiver.received).toEqual([]);
    expect(await t.dataSource.getRepository(OutboxEvent).countBy({ type: 'user.updated' })).toBe(1);
    const metric = await webhookDeliveries.get();
    expect(metric.values.find((v) => v.labels.outcome === 'refused')?.value).toBe(8);
  });
});

/** One event to every webhook of the tenant, then every attempt once the worker has made them all. */
async function deliverOnce(
  t: TestApp,
  tenant: SeededTenant,
  expectedRows: number,
): Promise<WebhookDelivery[]> {
  await t.dataSource.transaction((m) =>
    t.app.get(EventRecorder).record(m, {
      tenantId: tenant.tenantId,
      projectId: null,
      actorType: 'system',
      actorId: null,
      action: 'user.updated',
      resourceType: 'user',
      resourceId: null,
    }),
  );
  return waitFor(
    'every attempt',
    async () => {
      const r = await t.dataSource
        .getRepository(WebhookDelivery)
        .find({ order: { attempt: 'ASC' } });
      return r.length === expectedRows && r.every((d) => d.status !== 'pending') && r;
    },
    20_000,
  );
}

describe('webhook deliveries with WEBHOOK_ALLOW_PRIVATE_URLS=loopback', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await startTestApp(buildWebhookWorker, {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'loopback',
      WEBHOOK_RETRY_SCHEDULE: '1s',
      WEBHOOK_TIMEOUT_MS: '1500',
    });
  });
  beforeEach(async () => {
    receiver.reset();
    await t.reset();
    tenant = await seedTenant(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  it('delivers to a loopback receiver, and refuses link-local, metadata, private and unspecified addresses without connecting', async () => {
    const ok = await insertWebhook(t.dataSource, t.config, {
      tenantId: tenant.tenantId,
      url: receiver.url('/ok'),
      events: ['user.updated'],
    });
    const refused = [];
    // 0.0.0.0 reaches the receiver on 127.0.0.1 when it is connected to: the receiver proves nothing was sent.
    for (const url of [
      receiver.url('/zero', '0.0.0.0'),
      'http://169.254.169.254:9/latest/meta-data/',
      'http://10.0.0.1:9/hook',
      'http://[fe80::1]:9/hook',
      'http://metadata.google.internal:9/',
    ]) {
      refused.push(
        await insertWebhook(t.dataSource, t.config, {
          tenantId: tenant.tenantId,
          url,
          events: ['user.updated'],
        }),
      );
    }
    const rows = await deliverOnce(t, tenant, 1 + refused.length * 2);
    expect(
      rows.filter((r) => r.webhookId === ok.id).map((r) => [r.status, r.responseStatus]),
    ).toEqual([['succeeded', 200]]);
    expect(receiver.on('/ok')).toHaveLength(1);
    for (const hook of refused) {
      const mine = rows.filter((r) => r.webhookId === hook.id);
      expect(mine.map((r) => [r.attempt, r.status, r.responseStatus])).toEqual([
        [1, 'failed', null],
        [2, 'failed', null],
      ]);
      for (const r of mine) expect(r.error).toMatch(/^refused address/);
    }
    expect(receiver.on('/zero')).toEqual([]);
  });
});

describe('webhook deliveries with WEBHOOK_ALLOW_PRIVATE_URLS=true', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await startTestApp(buildWebhookWorker, {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1s',
      WEBHOOK_TIMEOUT_MS: '1500',
    });
  });
  beforeEach(async () => {
    receiver.reset();
    await t.reset();
    tenant = await seedTenant(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  it('delivers to private addresses but never to a cloud metadata endpoint', async () => {
    const ok = await insertWebhook(t.dataSource, t.config, {
      tenantId: tenant.tenantId,
      url: receiver.url('/ok', 'localhost'),
      events: ['user.updated'],
    });
    const refused = [];
    for (const url of [
      'http://169.254.169.254:9/latest/meta-data/',
      'http://[::ffff:169.254.169.254]:9/',
      'http://[fd00:ec2::254]:9/',
      'http://metadata.google.internal:9/',
    ]) {
      refused.push(
        await insertWebhook(t.dataSource, t.config, {
          tenantId: tenant.tenantId,
          url,
          events: ['user.updated'],
        }),
      );
    }
    const rows = await deliverOnce(t, tenant, 1 + refused.length * 2);
    expect(
      rows.filter((r) => r.webhookId === ok.id).map((r) => [r.status, r.responseStatus]),
    ).toEqual([['succeeded', 200]]);
    for (const hook of refused) {
      const mine = rows.filter((r) => r.webhookId === hook.id);
      expect(mine.map((r) => [r.attempt, r.status])).toEqual([
        [1, 'failed'],
        [2, 'failed'],
      ]);
      for (const r of mine) expect(r.error).toMatch(/^refused address/);
    }
  });
});
