import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { JobsOptions, Queue } from 'bullmq';
import { QUEUES } from '@gatehouse/queue';

/** Job data of `webhook-deliveries`: the id of a pending `webhook_deliveries` row, nothing else. */
export interface WebhookDeliveryJob {
  deliveryId: string;
}

/**
 * The job id is the delivery row's id, so enqueueing the same attempt twice (relay, retry, sweeper,
 * redeliver) is a no-op while the job exists. BullMQ retries cover infrastructure errors only (the
 * database was down while recording); jobs are removed when done or failed, so that the sweeper can
 * enqueue a still-pending row again.
 */
export const WEBHOOK_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: true,
  removeOnFail: true,
};

/** How long a producer waits for Redis before leaving the row to the sweeper. */
const ENQUEUE_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('enqueue timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Producer of the `webhook-deliveries` queue, shared by the control plane and the worker. */
@Injectable()
export class WebhookDeliveryQueue {
  constructor(@InjectQueue(QUEUES.webhookDeliveries) private readonly queue: Queue<WebhookDeliveryJob>) {}

  /** Adds one job per pending row (deduplicated by job id); throws when Redis does not answer in time. */
  async enqueue(items: { deliveryId: string; delayMs?: number }[]): Promise<void> {
    if (items.length === 0) return;
    await withTimeout(
      this.queue.addBulk(
        items.map(({ deliveryId, delayMs }) => ({
          name: 'deliver',
          data: { deliveryId },
          opts: { ...WEBHOOK_JOB_OPTIONS, jobId: deliveryId, ...(delayMs && delayMs > 0 ? { delay: Math.round(delayMs) } : {}) },
        })),
      ),
      ENQUEUE_TIMEOUT_MS,
    );
  }

  /** Enqueues, among these pending rows, those whose job Redis does not hold; returns how many. */
  async enqueueMissing(deliveryIds: string[]): Promise<number> {
    if (deliveryIds.length === 0) return 0;
    const missing = await withTimeout(
      (async () => {
        // Only EXISTS is needed; the ioredis client type does not resolve across the workspace.
        const client = (await this.queue.client) as unknown as { exists(key: string): Promise<number> };
        // Sent back to back on one connection (no round trip each).
        const exists = await Promise.all(deliveryIds.map((id) => client.exists(this.queue.toKey(id))));
        return deliveryIds.filter((_, i) => exists[i] !== 1);
      })(),
      ENQUEUE_TIMEOUT_MS,
    );
    await this.enqueue(missing.map((deliveryId) => ({ deliveryId })));
    return missing.length;
  }

  /** Makes a pending row's job run now: promotes it when it is delayed, adds it when it is missing. */
  async runNow(deliveryId: string): Promise<void> {
    await withTimeout(
      (async () => {
        const job = await this.queue.getJob(deliveryId);
        if (!job) {
          await this.enqueue([{ deliveryId }]);
          return;
        }
        if (await job.isDelayed()) await job.promote().catch(() => undefined);
      })(),
      ENQUEUE_TIMEOUT_MS,
    );
  }
}
