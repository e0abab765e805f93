import type { QueueName } from './queue-names';

export interface JobOptions {
  /** Deduplicates: a job with this id that is still waiting, delayed or active is not added again. */
  jobId?: string;
  delayMs?: number;
  /** Total attempts including the first (default 1). */
  attempts?: number;
  backoff?: { type: 'exponential' | 'fixed'; delayMs: number };
  /**
   * Forget the job as soon as it completes or fails for good, so that its id can be added again
   * (BullMQ otherwise keeps finished jobs for a while, and a kept id blocks a new add).
   */
  removeWhenDone?: boolean;
}

export interface JobRecord<T> {
  id: string;
  name: string;
  data: T;
  /** Attempts made before this one (0 on the first). */
  attemptsMade: number;
}

export interface ConsumerOptions {
  concurrency: number;
  /** BullMQ only: how long a worker's lock on a job lasts before another may take it over. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  maxStalledCount?: number;
}

export type JobHandler<T> = (job: JobRecord<T>) => Promise<unknown>;

export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/** Raised when the broker cannot be reached in time; rendered as 503 service-unavailable. */
export class QueueUnavailableError extends Error {
  readonly problemSlug = 'service-unavailable';
  constructor(cause?: unknown) {
    super('The job queue is unavailable; try again shortly.');
    this.name = 'QueueUnavailableError';
    if (cause !== undefined) (this as { cause?: unknown }).cause = cause;
  }
}

/**
 * The job queues every app uses: BullMQ on Redis normally, an in-process broker in standalone
 * mode. Chosen once at start-up by QueueModule; features see only this interface.
 * A handler that throws is retried per the job's `attempts` and `backoff`, then the job fails.
 */
export abstract class JobBroker {
  abstract add<T>(queue: QueueName, name: string, data: T, opts?: JobOptions): Promise<void>;
  abstract addBulk<T>(
    queue: QueueName,
    jobs: { name: string; data: T; opts?: JobOptions }[],
  ): Promise<void>;
  /** Whether a job with this id is waiting, delayed or active. */
  abstract has(queue: QueueName, jobId: string): Promise<boolean>;
  /** Starts consuming `queue`; stops (finishing the jobs in progress) on `stopConsumers`. */
  abstract consume<T>(queue: QueueName, handler: JobHandler<T>, opts: ConsumerOptions): void;
  abstract counts(queue: QueueName): Promise<QueueCounts>;
  /** Stops taking jobs and waits for the ones in progress. */
  abstract stopConsumers(): Promise<void>;
  abstract close(): Promise<void>;
}

export function backoffDelay(opts: JobOptions | undefined, attemptsMade: number): number {
  const b = opts?.backoff;
  if (!b) return 0;
  return b.type === 'fixed' ? b.delayMs : b.delayMs * 2 ** Math.max(0, attemptsMade - 1);
}
