import { Queue, Worker, type ConnectionOptions, type JobsOptions } from 'bullmq';
import {
  JobBroker,
  QueueUnavailableError,
  type ConsumerOptions,
  type JobHandler,
  type JobOptions,
  type QueueCounts,
} from './job-broker';
import type { QueueName } from './queue-names';

const PREFIX = 'gatehouse';
/** Longest wait for a worker's jobs in progress at shutdown (below SHUTDOWN_GRACE_MS's default). */
const CONSUMER_STOP_MS = 8000;

/** Waits for `op`, but no longer than `ms`; then runs `fallback` (a forced close). */
async function withDeadline(
  op: Promise<unknown>,
  ms: number,
  fallback: () => Promise<unknown>,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    if (
      (await Promise.race([
        op.then(
          () => 'done' as const,
          () => 'done' as const,
        ),
        late,
      ])) === 'late'
    )
      await fallback().catch(() => undefined);
  } finally {
    clearTimeout(timer);
  }
}

function toBullOptions(opts: JobOptions | undefined): JobsOptions {
  return {
    ...(opts?.jobId ? { jobId: opts.jobId } : {}),
    ...(opts?.delayMs ? { delay: opts.delayMs } : {}),
    attempts: opts?.attempts ?? 1,
    ...(opts?.backoff ? { backoff: { type: opts.backoff.type, delay: opts.backoff.delayMs } } : {}),
    removeOnComplete: opts?.removeWhenDone ? true : 1000,
    removeOnFail: opts?.removeWhenDone ? true : 5000,
  };
}

/** JobBroker on BullMQ and Redis: durable, shared by every instance. */
export class BullMqJobBroker extends JobBroker {
  private readonly queues = new Map<QueueName, Queue>();
  private readonly workers: Worker[] = [];

  constructor(
    private readonly redisUrl: string,
    private readonly timeoutMs: number,
  ) {
    super();
  }

  private connection(): ConnectionOptions {
    const u = new URL(this.redisUrl);
    return {
      host: u.hostname,
      port: Number(u.port || 6379),
      ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
      ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
      db: Number(u.pathname.replace('/', '') || 0),
      ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
      maxRetriesPerRequest: null,
      retryStrategy: (times: number) => Math.min(times * 200, 2000),
    };
  }

  private queue(name: QueueName): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection(), prefix: PREFIX });
      q.on('error', () => undefined);
      this.queues.set(name, q);
    }
    return q;
  }

  /** Producers run on request paths: a Redis that does not answer fails them in time, never hangs them. */
  private async bounded<T>(op: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        op,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new QueueUnavailableError()), this.timeoutMs);
        }),
      ]);
    } catch (err) {
      throw err instanceof QueueUnavailableError ? err : new QueueUnavailableError(err);
    } finally {
      clearTimeout(timer);
    }
  }

  async add<T>(queue: QueueName, name: string, data: T, opts?: JobOptions): Promise<void> {
    await this.bounded(this.queue(queue).add(name, data, toBullOptions(opts)));
  }

  async addBulk<T>(
    queue: QueueName,
    jobs: { name: string; data: T; opts?: JobOptions }[],
  ): Promise<void> {
    if (!jobs.length) return;
    await this.bounded(
      this.queue(queue).addBulk(
        jobs.map((j) => ({ name: j.name, data: j.data, opts: toBullOptions(j.opts) })),
      ),
    );
  }

  async has(queue: QueueName, jobId: string): Promise<boolean> {
    const job = await this.bounded(this.queue(queue).getJob(jobId));
    if (!job) return false;
    const state = await this.bounded(job.getState());
    return (
      state === 'waiting' ||
      state === 'delayed' ||
      state === 'active' ||
      state === 'prioritized' ||
      state === 'waiting-children'
    );
  }

  consume<T>(queue: QueueName, handler: JobHandler<T>, opts: ConsumerOptions): void {
    const worker = new Worker(
      queue,
      async (job) =>
        handler({
          id: String(job.id),
          name: job.name,
          data: job.data as T,
          attemptsMade: job.attemptsMade,
        }),
      {
        connection: this.connection(),
        prefix: PREFIX,
        concurrency: opts.concurrency,
        ...(opts.lockDurationMs ? { lockDuration: opts.lockDurationMs } : {}),
        ...(opts.stalledIntervalMs ? { stalledInterval: opts.stalledIntervalMs } : {}),
        ...(opts.maxStalledCount ? { maxStalledCount: opts.maxStalledCount } : {}),
      },
    );
    worker.on('error', () => undefined);
    this.workers.push(worker);
  }

  async counts(queue: QueueName): Promise<QueueCounts> {
    const c = await this.bounded(
      this.queue(queue).getJobCounts('waiting', 'active', 'delayed', 'failed'),
    );
    return {
      waiting: c.waiting ?? 0,
      active: c.active ?? 0,
      delayed: c.delayed ?? 0,
      failed: c.failed ?? 0,
    };
  }

  /**
   * Lets each worker finish its jobs in progress; a worker whose Redis is gone cannot close
   * gracefully, so after CONSUMER_STOP_MS it is closed by force (its jobs come back as stalled).
   */
  async stopConsumers(): Promise<void> {
    await Promise.all(
      this.workers.map((w) => withDeadline(w.close(), CONSUMER_STOP_MS, () => w.close(true))),
    );
  }

  async close(): Promise<void> {
    await this.stopConsumers();
    await Promise.all(
      [...this.queues.values()].map((q) =>
        withDeadline(q.close(), this.timeoutMs, () => q.disconnect()),
      ),
    );
  }
}
