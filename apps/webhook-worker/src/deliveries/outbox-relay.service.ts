import { Injectable, Logger } from '@nestjs/common';
import { OutboxEventsRepository, WebhookDeliveryQueue } from '@gatehouse/webhooks';
import { Clock } from '@gatehouse/platform';
import { PollingLoop, PollingService } from '../common/polling-loop';

/** Events moved per transaction. */
export const RELAY_BATCH = 500;
/** Wait between polls of an empty outbox. */
export const RELAY_IDLE_MS = 50;

/**
 * The outbox relay: in one statement it takes undispatched outbox rows (SKIP LOCKED), writes one
 * pending first attempt per subscribed webhook of the event's tenant and marks the rows
 * dispatched; after the commit it enqueues the new attempts in batches. If the enqueue is lost (Redis down,
 * crash right after the commit), the rows are still pending in PostgreSQL and the sweeper
 * enqueues them. See docs/webhooks.md.
 */
@Injectable()
export class OutboxRelay extends PollingService {
  private readonly logger = new Logger('OutboxRelay');
  protected readonly loop = new PollingLoop(
    'outbox relay',
    RELAY_IDLE_MS,
    () => this.step(),
    this.logger,
  );
  private lastQueueWarning = 0;

  constructor(
    private readonly outbox: OutboxEventsRepository,
    private readonly queue: WebhookDeliveryQueue,
    private readonly clock: Clock,
  ) {
    super();
  }

  /** Relays one batch; returns the number of events taken and the ids of the attempts created. */
  relayOnce(): Promise<{ events: number; created: string[] }> {
    return this.outbox.relay(RELAY_BATCH, this.clock.now());
  }

  private async step(): Promise<boolean> {
    const { events, created } = await this.relayOnce();
    if (created.length > 0) {
      try {
        await this.queue.enqueueBatches(created);
      } catch (err) {
        if (Date.now() - this.lastQueueWarning > 30_000) {
          this.lastQueueWarning = Date.now();
          this.logger.warn(
            `queue unavailable (${err instanceof Error ? err.message : String(err)}); the sweeper will enqueue the pending deliveries`,
          );
        }
      }
    }
    return events === RELAY_BATCH;
  }
}
