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
/** Longest wait for a forced disconnect once a graceful close ran out of time. */
const FORCED_CLOSE_MS = 1000;

/** True when `op` settled (either way) within `ms`. */
async function settledWithin(op: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      op.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits for a graceful close up to `ms`; past it, disconnects by force (bounded too). BullMQ's
 * `close(true)` cannot serve as the fallback: once a close is under way it returns that same
 * pending promise, which waits on a QUIT a hung Redis never answers.
 */
async function closeWithin(
  graceful: () => Promise<unknown>,
  ms: number,
  forced: () => Promise<unknown>,
): Promise<void> {
  if (await settledWithin(graceful(), ms)) return;
  await settledWithin(Promise.resolve().then(forced), FORCED_CLOSE_MS);
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

  /** Bound of `stopConsumers` before its forced disconnect (exposed for the shutdown test). */
  static readonly CONSUMER_STOP_MS = CONSUMER_STOP_MS;
  private stopping: Promise<void> | null = null;
  private closing: Promise<void> | null = null;

  /**
   * Lets each worker finish its jobs in progress; a worker whose Redis is gone cannot close
   * gracefully, so after CONSUMER_STOP_MS its connection is dropped by force (its jobs come back as
   * stalled). Called twice in an app's shutdown (module destroy, then close): the second call
   * waits for the first instead of starting a new wait.
   */
  stopConsumers(): Promise<void> {
    this.stopping ??= Promise.all(
      this.workers.map((w) =>
        closeWithin(
          () => w.close(),
          CONSUMER_STOP_MS,
          () => w.disconnect(),
        ),
      ),
    ).then(() => undefined);
    return this.stopping;
  }

  close(): Promise<void> {
    this.closing ??= this.stopConsumers().then(async () => {
      await Promise.all(
        [...this.queues.values()].map((q) =>
          closeWithin(
            () => q.close(),
            this.timeoutMs,
            () => q.disconnect(),
          ),
        ),
      );
    });
    return this.closing;
  }
}
