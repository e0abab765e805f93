import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { WebhookDeliveryJob } from '@gatehouse/identity';
import { JobBroker, QUEUES, type JobRecord } from '@gatehouse/queue';
import { WebhookDeliveriesService, type AttemptOutcome } from './webhook-deliveries.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Consumer of `webhook-deliveries` (through the JobBroker: BullMQ, or in-process when standalone):
 * one job = one attempt of one pending delivery row. HTTP failures are recorded and rescheduled by
 * the service (a new row and a new job per attempt); a thrown error (PostgreSQL unavailable) lets
 * the broker retry the job. A worker that dies keeps its jobs locked for 10 s only; another worker
 * then takes them over as stalled. The broker stops consuming, letting attempts in progress finish
 * and be recorded, before the database closes.
 */
@Injectable()
export class WebhookDeliveryProcessor implements OnModuleInit {
  constructor(
    private readonly broker: JobBroker,
    private readonly deliveries: WebhookDeliveriesService,
  ) {}

  onModuleInit(): void {
    this.broker.consume<WebhookDeliveryJob>(QUEUES.webhookDeliveries, (job) => this.process(job), {
      concurrency: 32,
      lockDurationMs: 10_000,
      stalledIntervalMs: 5_000,
      maxStalledCount: 5,
    });
  }

  async process(job: JobRecord<WebhookDeliveryJob>): Promise<AttemptOutcome> {
    const id = job.data?.deliveryId;
    if (typeof id !== 'string' || !UUID.test(id)) return 'skipped';
    return this.deliveries.attempt(id);
  }
}
