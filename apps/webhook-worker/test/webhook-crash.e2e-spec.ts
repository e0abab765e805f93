import { Module, type INestApplication, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { DatabaseModule, WebhookDelivery } from '@gatehouse/entities';
import { EventRecorder, EventsModule } from '@gatehouse/identity';
import { CoreModule } from '@gatehouse/http';
import {
  resetState,
  seedTenant,
  spawnApp,
  TestClock,
  testConfig,
  type AppProcess,
  type SeededTenant,
} from '@gatehouse/testing';
import { insertWebhook, verified, waitFor, WebhookReceiver } from './support/webhook-receiver';

const EVENTS = 30;

/**
 * At least once, nothing lost: the worker is a real process (dist/, built by the e2e global
 * setup) and is killed with SIGKILL in the middle of a batch. A new worker delivers every event,
 * with the same webhook-id, because the pending attempts live in PostgreSQL.
 */
describe('webhook deliveries survive a worker killed mid-batch', () => {
  let ctx: INestApplicationContext;
  let dataSource: DataSource;
  let tenant: SeededTenant;
  const receiver = new WebhookReceiver();
  const workers: AppProcess[] = [];

  beforeAll(async () => {
    await receiver.start();
    // Database access and the real EventRecorder, without any consumer of the queue in this process.
    @Module({
      imports: [
        CoreModule.forRoot(testConfig(), new TestClock()),
        DatabaseModule.forRoot(),
        EventsModule,
      ],
    })
    class RecorderModule {}
    ctx = await NestFactory.createApplicationContext(RecorderModule, { logger: false });
    dataSource = ctx.get(DataSource);
    await resetState(dataSource);
    tenant = await seedTenant(ctx as INestApplication);
    await dataSource.query(`UPDATE outbox_events SET dispatched_at = now()`);
  });
  afterAll(async () => {
    for (const w of workers) await w.kill();
    await ctx?.close();
    await receiver.stop();
  });

  it('delivers every event after a restart, with the same webhook-id', async () => {
    const hook = await insertWebhook(dataSource, testConfig(), {
      tenantId: tenant.tenantId,
      url: receiver.url('/crash'),
      events: ['user.created'],
    });
    // The first 10 requests are answered, the next 20 hang until the worker dies; later ones are answered.
    receiver.reply('/crash', (n) => (n <= 10 || n > EVENTS ? { status: 200 } : 'hang'));
    const eventIds: string[] = [];
    for (let i = 0; i < EVENTS; i += 1) {
      eventIds.push(
        await dataSource.transaction((m) =>
          ctx.get(EventRecorder).record(m, {
            tenantId: tenant.tenantId,
            projectId: tenant.project.id,
            actorType: 'system',
            actorId: null,
            action: 'user.created',
            resourceType: 'user',
            resourceId: null,
            data: { user: { n: i } },
          }),
        ),
      );
    }
    const succeeded = async () =>
      dataSource
        .getRepository(WebhookDelivery)
        .countBy({ webhookId: hook.id, status: 'succeeded' });

    const first = await spawnApp('webhook-worker');
    workers.push(first);
    await waitFor('ten recorded deliveries', async () => (await succeeded()) >= 10, 30_000);
    await waitFor(
      'the hanging requests to arrive',
      () => receiver.on('/crash').length >= EVENTS,
      10_000,
    );
    await first.kill();

    expect(await succeeded()).toBe(10);
    expect(
      await dataSource
        .getRepository(WebhookDelivery)
        .countBy({ webhookId: hook.id, status: 'pending' }),
    ).toBe(EVENTS - 10);

    const second = await spawnApp('webhook-worker');
    workers.push(second);
    await waitFor('every delivery recorded', async () => (await succeeded()) === EVENTS, 60_000);

    const calls = receiver.on('/crash');
    const byId = new Map<string, string[]>();
    for (const c of calls) {
      expect(verified(hook.secret, c)).toMatchObject({
        id: c.headers['webhook-id'],
        type: 'user.created',
      });
      byId.set(c.headers['webhook-id'], [...(byId.get(c.headers['webhook-id']) ?? []), c.body]);
    }
    // Every event arrived; the 20 cut off by the crash arrived twice, with the same id and body.
    expect([...byId.keys()].sort()).toEqual([...eventIds].sort());
    expect(calls).toHaveLength(EVENTS + 20);
    for (const bodies of byId.values()) expect(new Set(bodies).size).toBe(1);
    const rows = await dataSource.getRepository(WebhookDelivery).findBy({ webhookId: hook.id });
    expect(rows).toHaveLength(EVENTS);
    expect(rows.every((r) => r.attempt === 1 && r.status === 'succeeded')).toBe(true);

    // SIGTERM: the relay and sweeper timers stop and the process exits cleanly.
    expect(await second.stop()).toBe(0);
  }, 120_000);
});
