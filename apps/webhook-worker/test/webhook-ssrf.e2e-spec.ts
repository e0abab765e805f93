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
    t = await startTestApp(buildWebhookWorker, { WEBHOOK_ALLOW_PRIVATE_URLS: 'false', WEBHOOK_RETRY_SCHEDULE: '1s' });
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
      hooks.push(await insertWebhook(t.dataSource, t.config, { tenantId: tenant.tenantId, url: receiver.url('/internal', host), events: ['user.updated'] }));
    }
    await t.dataSource.transaction((m) =>
      t.app.get(EventRecorder).record(m, { tenantId: tenant.tenantId, projectId: null, actorType: 'system', actorId: null, action: 'user.updated', resourceType: 'user', resourceId: null }),
    );

    const rows = await waitFor(
      'both attempts of every webhook',
      async () => {
        const r = await t.dataSource.getRepository(WebhookDelivery).find({ order: { attempt: 'ASC' } });
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
