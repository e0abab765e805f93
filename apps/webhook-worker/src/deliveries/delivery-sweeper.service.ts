import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { WebhookDeliveriesRepository, WebhookDeliveryQueue } from '@gatehouse/webhooks';
import { Clock } from '@gatehouse/platform';
import { PollingLoop, PollingService } from '../common/polling-loop';

/** Wait between sweeps. */
export const SWEEP_INTERVAL_MS = 5000;
/** Due attempts looked at per round. */
export const SWEEP_BATCH = 1000;
/**
 * First attempts travel in relay batches, whose jobs cannot be looked up row by row (a crashed
 * worker's batch comes back through the broker's stalled-job check within seconds). One still
 * pending this long beyond the attempt timeout after it was due is taken for lost (a job Redis
 * lost): long enough that a batch still sending to a slow endpoint is never doubled.
 */
export const FIRST_ATTEMPT_GRACE_MS = 60_000;

/**
 * PostgreSQL is the source of truth: every attempt not yet made is a `pending` row with its due
 * time. At start and every few seconds the sweeper (re-)enqueues, under their deterministic job id,
 * the due ones that no job covers any more: jobs Redis lost (restart without persistence, failed
 * enqueue after a commit, a job the broker gave up on) and rows whose worker died holding them
 * (lease run out). Rows a live job still covers are left alone.
 */
@Injectable()
export class DeliverySweeper extends PollingService {
  private readonly logger = new Logger('DeliverySweeper');
  protected readonly loop = new PollingLoop(
    'delivery sweeper',
    SWEEP_INTERVAL_MS,
    () => this.sweepOnce(),
    this.logger,
  );
  private cursor: { at: Date; id: string } | null = null;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: WebhookDeliveryQueue,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  /**
   * Looks at one page of due pending attempts and enqueues those whose job Redis does not have.
   * Pages follow each other across rounds (a cursor), so a long backlog costs one page per round;
   * a page that found missing jobs asks for the next page at once (fast refill after a Redis loss).
   */
  async sweepOnce(): Promise<boolean> {
    const page = await this.deliveries.lost(
      this.clock.now(),
      this.config.webhooks.timeoutMs + FIRST_ATTEMPT_GRACE_MS,
      SWEEP_BATCH,
      this.cursor,
    );
    const last = page[page.length - 1];
    this.cursor = page.length === SWEEP_BATCH && last ? { at: last.at, id: last.id } : null;
    const added = await this.queue.enqueueMissing(page.map((p) => p.id));
    return added > 0 && this.cursor !== null;
  }
}
