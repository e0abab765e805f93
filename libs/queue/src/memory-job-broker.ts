import { randomUUID } from 'node:crypto';
import { backoffDelay, JobBroker, type ConsumerOptions, type JobHandler, type JobOptions, type QueueCounts } from './job-broker';
import type { QueueName } from './queue-names';

interface MemJob {
  id: string;
  name: string;
  data: unknown;
  opts: JobOptions | undefined;
  attemptsMade: number;
  state: 'waiting' | 'delayed' | 'active';
  timer?: NodeJS.Timeout;
}

interface MemQueue {
  jobs: Map<string, MemJob>;
  ready: MemJob[];
  failed: number;
  consumer?: { handler: JobHandler<unknown>; concurrency: number; active: number };
}

/**
 * In-process JobBroker for standalone mode: the same delays, job-id deduplication, attempts and
 * exponential backoff as BullMQ, without Redis. Jobs live in memory: what is queued when the process
 * stops is gone (webhook deliveries are re-enqueued from PostgreSQL by the worker's sweeper).
 */
export class MemoryJobBroker extends JobBroker {
  private readonly queues = new Map<QueueName, MemQueue>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  private q(name: QueueName): MemQueue {
    let q = this.queues.get(name);
    if (!q) {
      q = { jobs: new Map(), ready: [], failed: 0 };
      this.queues.set(name, q);
    }
    return q;
  }

  async add<T>(queue: QueueName, name: string, data: T, opts?: JobOptions): Promise<void> {
    const q = this.q(queue);
    const id = opts?.jobId ?? randomUUID();
    if (q.jobs.has(id)) return;
    const job: MemJob = { id, name, data: structuredClone(data), opts, attemptsMade: 0, state: 'waiting' };
    q.jobs.set(id, job);
    this.schedule(queue, job, opts?.delayMs ?? 0);
  }

  async addBulk<T>(queue: QueueName, jobs: { name: string; data: T; opts?: JobOptions }[]): Promise<void> {
    for (const j of jobs) await this.add(queue, j.name, j.data, j.opts);
  }

  async has(queue: QueueName, jobId: string): Promise<boolean> {
    return this.q(queue).jobs.has(jobId);
  }

  consume<T>(queue: QueueName, handler: JobHandler<T>, opts: ConsumerOptions): void {
    const q = this.q(queue);
    q.consumer = { handler: handler as JobHandler<unknown>, concurrency: opts.concurrency, active: 0 };
    this.pump(queue);
  }

  async counts(queue: QueueName): Promise<QueueCounts> {
    const q = this.q(queue);
    const jobs = [...q.jobs.values()];
    return {
      waiting: jobs.filter((j) => j.state === 'waiting').length,
      active: jobs.filter((j) => j.state === 'active').length,
      delayed: jobs.filter((j) => j.state === 'delayed').length,
      failed: q.failed,
    };
  }

  private schedule(queue: QueueName, job: MemJob, delayMs: number): void {
    const q = this.q(queue);
    if (delayMs > 0) {
      job.state = 'delayed';
      job.timer = setTimeout(() => {
        job.state = 'waiting';
        q.ready.push(job);
        this.pump(queue);
      }, delayMs);
      job.timer.unref();
    } else {
      job.state = 'waiting';
      q.ready.push(job);
      this.pump(queue);
    }
  }

  private pump(queue: QueueName): void {
    const q = this.q(queue);
    const c = q.consumer;
    if (!c || this.stopped) return;
    while (c.active < c.concurrency && q.ready.length) {
      const job = q.ready.shift()!;
      job.state = 'active';
      c.active += 1;
      const run = c
        .handler({ id: job.id, name: job.name, data: job.data, attemptsMade: job.attemptsMade })
        .then(
          () => {
            q.jobs.delete(job.id);
          },
          () => {
            job.attemptsMade += 1;
            if (job.attemptsMade < (job.opts?.attempts ?? 1) && !this.stopped) this.schedule(queue, job, backoffDelay(job.opts, job.attemptsMade));
            else {
              q.jobs.delete(job.id);
              q.failed += 1;
            }
          },
        )
        .finally(() => {
          c.active -= 1;
          this.inFlight.delete(run);
          setImmediate(() => this.pump(queue));
        });
      this.inFlight.add(run);
    }
  }

  async stopConsumers(): Promise<void> {
    this.stopped = true;
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  async close(): Promise<void> {
    await this.stopConsumers();
    for (const q of this.queues.values()) for (const j of q.jobs.values()) clearTimeout(j.timer);
  }
}

/** One broker per process: in standalone mode the three apps share it. */
let shared: MemoryJobBroker | null = null;
export function sharedMemoryJobBroker(): MemoryJobBroker {
  shared ??= new MemoryJobBroker();
  return shared;
}
