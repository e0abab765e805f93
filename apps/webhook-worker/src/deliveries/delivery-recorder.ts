import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@gatehouse/platform';
import {
  WebhookDeliveriesRepository,
  WebhookDeliveryQueue,
  type AttemptResult,
  type RecordedAttempt,
} from '@gatehouse/webhooks';

/** Results written per statement at most. */
const FLUSH_SIZE = 500;
/** How long a result may wait for others to share its statement. */
const FLUSH_DELAY_MS = 10;

interface Waiting {
  result: AttemptResult;
  resolve: (r: RecordedAttempt) => void;
  reject: (err: unknown) => void;
}

/**
 * Writes attempt results in small groups: the attempts of every job in progress that finish
 * within a couple of milliseconds share one statement (and their next attempts one enqueue), which
 * is what lets one worker keep up with many deliveries a second. Each caller still gets its own
 * outcome, and an error (database down) reaches every caller of the failed group.
 */
@Injectable()
export class DeliveryRecorder {
  private readonly logger = new Logger('DeliveryRecorder');
  private waiting: Waiting[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: WebhookDeliveryQueue,
    private readonly clock: Clock,
  ) {}

  record(result: AttemptResult): Promise<RecordedAttempt> {
    return new Promise<RecordedAttempt>((resolve, reject) => {
      this.waiting.push({ result, resolve, reject });
      if (this.waiting.length >= FLUSH_SIZE) this.flushSoon(0);
      else this.flushSoon(FLUSH_DELAY_MS);
    });
  }

  private flushSoon(delayMs: number): void {
    if (this.timer && delayMs > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delayMs);
  }

  private async flush(): Promise<void> {
    const group = this.waiting.splice(0, FLUSH_SIZE);
    if (this.waiting.length) this.flushSoon(0);
    if (group.length === 0) return;
    let outcomes: Map<string, RecordedAttempt>;
    try {
      outcomes = await this.deliveries.finish(group.map((w) => w.result));
    } catch (err) {
      for (const w of group) w.reject(err);
      return;
    }
    const now = this.clock.nowMs();
    const retries = [...outcomes.values()].flatMap((o) =>
      o.next ? [{ deliveryId: o.next.id, delayMs: o.next.dueAt.getTime() - now }] : [],
    );
    if (retries.length) {
      try {
        await this.queue.enqueue(retries);
      } catch (err) {
        // The next attempts are pending rows already: the sweeper enqueues them once the queue answers.
        this.logger.warn(
          `retries not enqueued (${err instanceof Error ? err.message : String(err)}); left to the sweeper`,
        );
      }
    }
    for (const w of group) w.resolve(outcomes.get(w.result.id) ?? { recorded: false, next: null });
  }
}
