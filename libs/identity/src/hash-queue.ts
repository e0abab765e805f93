import { ProblemError } from '@gatehouse/problem-details';

export interface HashQueueOptions {
  /** At most this many run at once, over all keys. */
  concurrency: number;
  /** At most this many of one key run at once. */
  perKey: number;
  /** At most this many of one key wait; one more is refused at once. */
  maxWaitingPerKey: number;
  /** A turn not started within this long is refused at that moment (a timer on the waiting request). */
  timeoutMs: number;
}

interface Waiter {
  start: () => void;
  timer: NodeJS.Timeout;
}

/** 503 `service-unavailable` with `Retry-After`: the password check could not get its turn in time. */
export function hashQueueFull(): ProblemError {
  return new ProblemError('service-unavailable', {
    detail: 'Too many password checks at once; try again shortly.',
    headers: { 'Retry-After': '1' },
  });
}

/**
 * Turns for password hashes: FIFO within a key (a project), keys served in turn (round robin), so
 * one key's backlog never takes another's turn. A waiting turn is refused when its timer fires,
 * not when a slot next opens, so a wait never outlives `timeoutMs` however long the running hashes
 * take; a key with `maxWaitingPerKey` waiting refuses the next at once.
 */
export class HashQueue {
  private running = 0;
  private readonly runningByKey = new Map<string, number>();
  /** Keys with waiters, in the order they first queued. */
  private readonly waiting = new Map<string, Waiter[]>();
  /** When each key waiting or running last started a turn: the key served longest ago goes next. */
  private readonly lastStart = new Map<string, number>();
  private starts = 0;

  constructor(private readonly options: HashQueueOptions) {}

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const list = this.waiting.get(key) ?? [];
      if (list.length >= this.options.maxWaitingPerKey) {
        reject(hashQueueFull());
        return;
      }
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          this.running++;
          this.runningByKey.set(key, (this.runningByKey.get(key) ?? 0) + 1);
          void Promise.resolve()
            .then(work)
            .then(resolve, reject)
            .finally(() => {
              this.running--;
              const left = (this.runningByKey.get(key) ?? 1) - 1;
              if (left > 0) this.runningByKey.set(key, left);
              else this.runningByKey.delete(key);
              this.forgetIfIdle(key);
              this.pump();
            });
        },
        timer: setTimeout(() => {
          const current = this.waiting.get(key);
          const at = current?.indexOf(waiter) ?? -1;
          if (current && at >= 0) {
            current.splice(at, 1);
            if (current.length === 0) this.waiting.delete(key);
            this.forgetIfIdle(key);
          }
          reject(hashQueueFull());
        }, this.options.timeoutMs),
      };
      list.push(waiter);
      this.waiting.set(key, list);
      this.pump();
    });
  }

  /** How many of a key wait (tests, metrics). */
  waitingFor(key: string): number {
    return this.waiting.get(key)?.length ?? 0;
  }

  private pump(): void {
    while (this.running < this.options.concurrency) {
      let next: string | null = null;
      let nextStart = Number.POSITIVE_INFINITY;
      for (const key of this.waiting.keys()) {
        const last = this.lastStart.get(key) ?? -1;
        if ((this.runningByKey.get(key) ?? 0) < this.options.perKey && last < nextStart) {
          next = key;
          nextStart = last;
        }
      }
      if (next === null) return;
      const list = this.waiting.get(next)!;
      const waiter = list.shift()!;
      if (list.length === 0) this.waiting.delete(next);
      this.lastStart.set(next, this.starts++);
      waiter.start();
    }
  }

  private forgetIfIdle(key: string): void {
    if (!this.waiting.has(key) && !this.runningByKey.has(key)) this.lastStart.delete(key);
  }
}
