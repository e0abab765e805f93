import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WEBHOOK_TEST_EVENT, WebhookDeliveryQueue, webhookReceives } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { OutboxEventsRepository } from './outbox-events.repository';
import { PollingLoop } from './polling-loop';
import { WebhookDeliveriesRepository, type NewAttempt } from './webhook-deliveries.repository';
import { WebhooksRepository } from './webhooks.repository';

/** Events moved per transaction. */
export const RELAY_BATCH = 200;
/** Wait between polls of an empty outbox. */
export const RELAY_IDLE_MS = 100;

/**
 * The outbox relay: in one transaction it takes undispatched outbox rows (SKIP LOCKED), writes one
 * pending first attempt per subscribed webhook of the event's tenant and marks the rows
 * dispatched; after the commit it enqueues the new attempts. If the enqueue is lost (Redis down,
 * crash right after the commit), the rows are still pending in PostgreSQL and the sweeper
 * enqueues them. See docs/webhooks.md.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private readonly loop = new PollingLoop('outbox relay', RELAY_IDLE_MS, () => this.step(), this.logger);
  private lastQueueWarning = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxEventsRepository,
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: WebhookDeliveryQueue,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** Relays one batch; returns the number of events taken and the ids of the attempts created. */
  async relayOnce(): Promise<{ events: number; created: string[] }> {
    return this.dataSource.transaction(async (manager) => {
      const events = await this.outbox.lockUndispatched(manager, RELAY_BATCH);
      if (events.length === 0) return { events: 0, created: [] };
      const hooks = await this.webhooks.ofTenants(manager, [...new Set(events.map((e) => e.tenantId))]);
      const attempts: NewAttempt[] = [];
      for (const e of events) {
        for (const h of hooks) {
          if (h.tenantId !== e.tenantId) continue;
          if (e.type === WEBHOOK_TEST_EVENT) {
            if (h.id === e.targetWebhookId) attempts.push({ tenantId: e.tenantId, webhookId: h.id, eventId: e.id, eventType: e.type, manual: true });
          } else if (h.enabled && webhookReceives(h.events, e.type)) {
            attempts.push({ tenantId: e.tenantId, webhookId: h.id, eventId: e.id, eventType: e.type, manual: false });
          }
        }
      }
      const now = this.clock.now();
      const created = await this.deliveries.insertFirstAttempts(manager, attempts, now);
      await this.outbox.markDispatched(manager, events.map((e) => e.id), now);
      return { events: events.length, created };
    });
  }

  private async step(): Promise<boolean> {
    const { events, created } = await this.relayOnce();
    if (created.length > 0) {
      try {
        await this.queue.enqueue(created.map((deliveryId) => ({ deliveryId })));
      } catch (err) {
        if (Date.now() - this.lastQueueWarning > 30_000) {
          this.lastQueueWarning = Date.now();
          this.logger.warn(`queue unavailable (${err instanceof Error ? err.message : String(err)}); the sweeper will enqueue the pending deliveries`);
        }
      }
    }
    return events === RELAY_BATCH;
  }
}
