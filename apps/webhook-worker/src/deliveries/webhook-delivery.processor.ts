import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { OnModuleDestroy } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { WebhookDeliveryJob } from '@gatehouse/identity';
import { QUEUES } from '@gatehouse/queue';
import { WebhookDeliveriesService, type AttemptOutcome } from './webhook-deliveries.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Consumer of `webhook-deliveries`: one job = one attempt of one pending delivery row. HTTP
 * failures are recorded and rescheduled by the service (a new row and a new job per attempt);
 * a thrown error (PostgreSQL unavailable) lets BullMQ retry the job. A worker that dies keeps its
 * jobs locked for `lockDuration` only; another worker then takes them over as stalled.
 */
@Processor(QUEUES.webhookDeliveries, { concurrency: 32, lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 5 })
export class WebhookDeliveryProcessor extends WorkerHost implements OnModuleDestroy {
  constructor(private readonly deliveries: WebhookDeliveriesService) {
    super();
  }

  async process(job: Job<WebhookDeliveryJob>): Promise<AttemptOutcome> {
    const id = job.data?.deliveryId;
    if (typeof id !== 'string' || !UUID.test(id)) return 'skipped';
    return this.deliveries.attempt(id);
  }

  /** Lets the attempts in progress finish (and be recorded) while the database is still open. */
  async onModuleDestroy(): Promise<void> {
    await this.worker.close();
  }
}
