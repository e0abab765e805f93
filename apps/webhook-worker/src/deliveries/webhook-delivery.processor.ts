import { Injectable, type OnModuleInit } from '@nestjs/common';
import { isId } from '@gatehouse/entities';
import { WEBHOOK_BATCH_JOB_PREFIX, type WebhookDeliveryJob } from '@gatehouse/webhooks';
import { JobBroker, QUEUES, type JobRecord } from '@gatehouse/queue';
import { WebhookDeliveriesService, type AttemptOutcome } from './webhook-deliveries.service';

/** Jobs in progress at once; a relay job carries up to WEBHOOK_JOB_BATCH attempts sent in parallel. */
export const WORKER_CONCURRENCY = 32;

/**
 * Consumer of `webhook-deliveries` (through the JobBroker: BullMQ, or in-process when standalone):
 * a job carries the ids of pending delivery rows (a relay batch, or one retry); the service claims
 * them with a lease and makes the attempts. HTTP failures are recorded and rescheduled (a new row
 * and a new job per attempt); a thrown error (PostgreSQL unavailable) lets the broker retry the
 * job. Rows held by a worker that died come back when their lease runs out (the sweeper). The
 * broker stops consuming, letting attempts in progress finish and be recorded, before the database
 * closes.
 */
@Injectable()
export class WebhookDeliveryProcessor implements OnModuleInit {
  constructor(
    private readonly broker: JobBroker,
    private readonly deliveries: WebhookDeliveriesService,
  ) {}

  onModuleInit(): void {
    this.broker.consume<WebhookDeliveryJob>(QUEUES.webhookDeliveries, (job) => this.process(job), {
      concurrency: WORKER_CONCURRENCY,
      lockDurationMs: 10_000,
      stalledIntervalMs: 5_000,
      maxStalledCount: 5,
    });
  }

  async process(job: JobRecord<WebhookDeliveryJob>): Promise<AttemptOutcome[]> {
    const raw: unknown = job.data?.deliveryIds;
    const ids = Array.isArray(raw)
      ? raw.filter((id): id is string => typeof id === 'string' && isId(id)).slice(0, 500)
      : [];
    return this.deliveries.attemptAll(ids, { claim: !job.id.startsWith(WEBHOOK_BATCH_JOB_PREFIX) });
  }
}
