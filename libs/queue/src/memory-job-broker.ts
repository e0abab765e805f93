import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import {
  backoffDelay,
  JobBroker,
  type ConsumerOptions,
  type JobHandler,
  type JobOptions,
  type QueueCounts,
} from './job-broker';
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

/** A job that failed for good, kept as BullMQ keeps it in its failed set. */
export interface FailedJob {
  id: string;
  name: string;
  attemptsMade: number;
  failedReason: string;
  failedAt: Date;
}

/** As many failed jobs as BullMQ keeps per queue (its `removeOnFail` in BullMqJobBroker). */
const KEEP_FAILED = 5000;

interface MemQueue {
  jobs: Map<string, MemJob>;
  ready: MemJob[];
  failed: FailedJob[];
  consumer?: { handler: JobHandler<unknown>; concurrency: number; active: number };
}

/**
 * In-process JobBroker for standalone mode: the same delays, job-id deduplication, attempts and
 * exponential backoff as BullMQ, without Redis. Jobs live in memory: what is queued when the process
 * stops is gone (webhook deliveries are re-enqueued from PostgreSQL by the worker's sweeper).
 * A job that fails its last attempt is logged as an error and kept in the queue's failed list
 * (`failedJobs`, counted as `failed` by `counts` and so in `gatehouse_queue_jobs`), as BullMQ keeps
 * it in its failed set; never dropped silently.
 */
export class MemoryJobBroker extends JobBroker {
  private readonly logger = new Logger('JobBroker');
  private readonly queues = new Map<QueueName, MemQueue>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  private q(name: QueueName): MemQueue {
    let q = this.queues.get(name);
    if (!q) {
      q = { jobs: new Map(), ready: [], failed: [] };
      this.queues.set(name, q);
    }
    return q;
  }

  async add<T>(queue: QueueName, name: string, data: T, opts?: JobOptions): Promise<void> {
    const q = this.q(queue);
    const id = opts?.jobId ?? randomUUID();
    if (q.jobs.has(id)) return;
    const job: MemJob = {
      id,
      name,
      data: structuredClone(data),
      opts,
      attemptsMade: 0,
      state: 'waiting',
    };
    q.jobs.set(id, job);
    this.schedule(queue, job, opts?.delayMs ?? 0);
  }

  async addBulk<T>(
    queue: QueueName,
    jobs: { name: string; data: T; opts?: JobOptions }[],
  ): Promise<void> {
    for (const j of jobs) await this.add(queue, j.name, j.data, j.opts);
  }

  async has(queue: QueueName, jobId: string): Promise<boolean> {
    return this.q(queue).jobs.has(jobId);
  }

  consume<T>(queue: QueueName, handler: JobHandler<T>, opts: ConsumerOptions): void {
    const q = this.q(queue);
    q.consumer = {
      handler: handler as JobHandler<unknown>,
      concurrency: opts.concurrency,
      active: 0,
    };
    this.pump(queue);
  }

  async counts(queue: QueueName): Promise<QueueCounts> {
    const q = this.q(queue);
    const jobs = [...q.jobs.values()];
    return {
      waiting: jobs.filter((j) => j.state === 'waiting').length,
      active: jobs.filter((j) => j.state === 'active').length,
      delayed: jobs.filter((j) => j.state === 'delayed').length,
      failed: q.failed.length,
    };
  }

  /** The jobs of `queue` that failed for good, oldest first (BullMQ's failed set). */
  failedJobs(queue: QueueName): readonly FailedJob[] {
    return this.q(queue).failed;
  }

  private fail(queue: QueueName, job: MemJob, err: unknown): void {
    const q = this.q(queue);
    q.jobs.delete(job.id);
    const reason = err instanceof Error ? err.message : String(err);
    const why =
      this.stopped && job.attemptsMade < (job.opts?.attempts ?? 1)
        ? ' (not retried: the broker is stopping, and its jobs live in memory)'
        : '';
    this.logger.error(
      `${queue} job ${job.name} ${job.id} failed after ${job.attemptsMade} attempt(s)${why}: ${reason}`,
    );
    if (job.opts?.removeWhenDone) return;
    q.failed.push({
      id: job.id,
      name: job.name,
      attemptsMade: job.attemptsMade,
      failedReason: reason,
      failedAt: new Date(),
    });
    if (q.failed.length > KEEP_FAILED) q.failed.shift();
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
          (err: unknown) => {
            job.attemptsMade += 1;
            if (job.attemptsMade < (job.opts?.attempts ?? 1) && !this.stopped)
              this.schedule(queue, job, backoffDelay(job.opts, job.attemptsMade));
            else this.fail(queue, job, err);
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
