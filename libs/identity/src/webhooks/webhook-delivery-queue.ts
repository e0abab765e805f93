import { Injectable } from '@nestjs/common';
import { JobBroker, QUEUES, type JobOptions } from '@gatehouse/queue';

/** Job data of `webhook-deliveries`: the id of a pending `webhook_deliveries` row, nothing else. */
export interface WebhookDeliveryJob {
  deliveryId: string;
}

/**
 * The job id is the delivery row's id, so enqueueing the same attempt twice (relay, retry, sweeper,
 * redeliver) is a no-op while the job exists. Broker retries cover infrastructure errors only (the
 * database was down while recording); jobs are forgotten when done or failed, so that the sweeper
 * can enqueue a row that is still pending again.
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
  async enqueue(items: { deliveryId: string; delayMs?: number }[], jobIdSuffix = ''): Promise<void> {
    if (items.length === 0) return;
    await this.broker.addBulk<WebhookDeliveryJob>(
      QUEUES.webhookDeliveries,
      items.map(({ deliveryId, delayMs }) => ({
        name: 'deliver',
        data: { deliveryId },
        opts: { ...WEBHOOK_JOB_OPTIONS, jobId: deliveryId + jobIdSuffix, ...(delayMs && delayMs > 0 ? { delayMs: Math.round(delayMs) } : {}) },
      })),
    );
  }

  /** Enqueues, among these pending rows, those the broker holds no live job for; returns how many. */
  async enqueueMissing(deliveryIds: string[]): Promise<number> {
    const live = await Promise.all(deliveryIds.map((id) => this.broker.has(QUEUES.webhookDeliveries, id)));
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
