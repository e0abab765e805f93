import { Injectable } from '@nestjs/common';
import { JobBroker, QUEUES, type JobOptions } from '@gatehouse/queue';

/** Job data of `webhook-deliveries`: ids of pending `webhook_deliveries` rows, nothing else. */
export interface WebhookDeliveryJob {
  deliveryIds: string[];
}

/** First attempts the relay hands out per job (one job, one query, many POSTs in parallel). */
export const WEBHOOK_JOB_BATCH = 100;
/** Job ids of relay batches start with this; other jobs carry one attempt and use its row id. */
export const WEBHOOK_BATCH_JOB_PREFIX = 'b-';

/**
 * Job ids are deterministic: a single attempt's job id is its row id (retries, sweeper,
 * redeliver), a relay batch's is `b-<first row id>`, so enqueueing the same work twice is a no-op
 * while the job exists. Broker retries cover infrastructure errors only (the database was down);
 * jobs are forgotten when done or failed, so that the sweeper can enqueue a row still pending.
 */
export const WEBHOOK_JOB_OPTIONS: JobOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delayMs: 1000 },
  removeWhenDone: true,
};

/** Producer of the `webhook-deliveries` queue, shared by the control plane and the worker. */
@Injectable()
export class WebhookDeliveryQueue {
  constructor(private readonly broker: JobBroker) {}

  /** One job per pending row (deduplicated by job id); throws QueueUnavailableError when the broker does not answer in time. */
  async enqueue(
    items: { deliveryId: string; delayMs?: number }[],
    jobIdSuffix = '',
  ): Promise<void> {
    if (items.length === 0) return;
    await this.broker.addBulk<WebhookDeliveryJob>(
      QUEUES.webhookDeliveries,
      items.map(({ deliveryId, delayMs }) => ({
        name: 'deliver',
        data: { deliveryIds: [deliveryId] },
        opts: {
          ...WEBHOOK_JOB_OPTIONS,
          jobId: deliveryId + jobIdSuffix,
          ...(delayMs && delayMs > 0 ? { delayMs: Math.round(delayMs) } : {}),
        },
      })),
    );
  }

  /** The relay's first attempts, in jobs of up to WEBHOOK_JOB_BATCH rows. */
  async enqueueBatches(deliveryIds: string[]): Promise<void> {
    const jobs: { name: string; data: WebhookDeliveryJob; opts: JobOptions }[] = [];
    for (let i = 0; i < deliveryIds.length; i += WEBHOOK_JOB_BATCH) {
      const ids = deliveryIds.slice(i, i + WEBHOOK_JOB_BATCH);
      jobs.push({
        name: 'deliver-batch',
        data: { deliveryIds: ids },
        opts: { ...WEBHOOK_JOB_OPTIONS, jobId: `${WEBHOOK_BATCH_JOB_PREFIX}${ids[0]}` },
      });
    }
    if (jobs.length) await this.broker.addBulk<WebhookDeliveryJob>(QUEUES.webhookDeliveries, jobs);
  }

  /** Enqueues, among these pending rows, those the broker holds no live single job for; returns how many. */
  async enqueueMissing(deliveryIds: string[]): Promise<number> {
    const live = await Promise.all(
      deliveryIds.map((id) => this.broker.has(QUEUES.webhookDeliveries, id)),
    );
    const missing = deliveryIds.filter((_, i) => !live[i]);
    await this.enqueue(missing.map((deliveryId) => ({ deliveryId })));
    return missing.length;
  }

  /**
   * Runs a pending row now. When its job is already there (a retry delayed for hours), a second
   * job (`<id>-now`) makes the attempt at once; whichever runs later finds the row done and stops.
   */
  async runNow(deliveryId: string): Promise<void> {
    const live = await this.broker.has(QUEUES.webhookDeliveries, deliveryId);
    await this.enqueue([{ deliveryId }], live ? '-now' : '');
  }
}
