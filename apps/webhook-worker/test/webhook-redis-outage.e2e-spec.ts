import Redis from 'ioredis';
import { WebhookDelivery } from '@gatehouse/entities';
import { EventRecorder } from '@gatehouse/identity';
import {
  seedTenant,
  startTestApp,
  TcpProxy,
  TEST_REDIS_URL,
  withPort,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildWebhookWorker } from '../src/app-factory';
import { insertWebhook, verified, waitFor, WebhookReceiver } from './support/webhook-receiver';

/**
 * Redis goes away and comes back empty (a restart without persistence) while events keep coming:
 * the relay keeps turning them into pending attempts in PostgreSQL, and once Redis answers again
 * every one is delivered.
 */
describe('webhook deliveries across a Redis outage', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  const receiver = new WebhookReceiver();
  const proxy = new TcpProxy(
    Number(new URL(TEST_REDIS_URL).port || 6379),
    new URL(TEST_REDIS_URL).hostname,
  );

  beforeAll(async () => {
    await receiver.start();
    await proxy.start();
    t = await startTestApp(buildWebhookWorker, { REDIS_URL: withPort(TEST_REDIS_URL, proxy.port) });
  });
  beforeEach(async () => {
    receiver.reset();
    await t.reset();
    tenant = await seedTenant(t.app);
  });
  afterAll(async () => {
    proxy.restore();
    await t?.close();
    await proxy.stop();
    await receiver.stop();
  });

  it('delivers the events of the outage once Redis is back, each with its own webhook-id', async () => {
    const hook = await insertWebhook(t.dataSource, t.config, {
      tenantId: tenant.tenantId,
      url: receiver.url('/outage'),
      events: ['user.updated'],
    });
    proxy.cut();
    const eventIds: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      eventIds.push(
        await t.dataSource.transaction((m) =>
          t.app.get(EventRecorder).record(m, {
            tenantId: tenant.tenantId,
            projectId: null,
            actorType: 'system',
            actorId: null,
            action: 'user.updated',
            resourceType: 'user',
            resourceId: null,
            data: { n: i },
          }),
        ),
      );
    }
    await waitFor(
      'the relay to write pending attempts without Redis',
      async () =>
        (await t.dataSource
          .getRepository(WebhookDelivery)
          .countBy({ webhookId: hook.id, status: 'pending' })) === 5,
    );
    await new Promise((r) => setTimeout(r, 2500));
    expect(receiver.received).toEqual([]);

    const redis = new Redis(TEST_REDIS_URL);
    try {
      await redis.flushdb();
    } finally {
      redis.disconnect();
    }
    proxy.restore();
    // An enqueue cut mid-command is lost with the data: let a minute beyond the timeout pass (test
    // clock), after which the sweeper takes first attempts that no job covers for lost.
    t.clock.advance(t.config.webhooks.timeoutMs + 61_000);

    await waitFor(
      'every delivery recorded',
      async () =>
        (await t.dataSource
          .getRepository(WebhookDelivery)
          .countBy({ webhookId: hook.id, status: 'succeeded' })) === 5,
      30_000,
    );
    const ids = receiver.on('/outage').map((c) => verified(hook.secret, c).id as string);
    expect([...new Set(ids)].sort()).toEqual([...eventIds].sort());
  }, 60_000);
});
