import { Injectable, type OnModuleInit } from '@nestjs/common';
import { registerQueueDepth } from '@gatehouse/platform';
import { JobBroker, QUEUES } from '@gatehouse/queue';

/** Reports every queue's depth (waiting, active, delayed, failed) as `gatehouse_queue_jobs` on /metrics. */
@Injectable()
export class QueueMetrics implements OnModuleInit {
  constructor(private readonly broker: JobBroker) {}

  onModuleInit(): void {
    registerQueueDepth(async () => {
      const rows: { queue: string; state: string; count: number }[] = [];
      for (const queue of Object.values(QUEUES)) {
        const counts = await this.broker.counts(queue);
        for (const state of ['waiting', 'active', 'delayed', 'failed'] as const)
          rows.push({ queue, state, count: counts[state] });
      }
      return rows;
    });
  }
}
