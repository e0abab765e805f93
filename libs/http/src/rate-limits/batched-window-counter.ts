import type { CacheStore } from '@gatehouse/platform';

/** How a BatchedWindowCounter counts and how far behind the shared count it may run. */
export interface BatchedWindowOptions {
  /** The fixed window, as the shared counter's expiry (it starts at a key's first hit). */
  windowMs: number;
  /** Prefix of the shared keys (`<prefix><key>`). */
  prefix: string;
  /** Hits are sent to the shared store at most this long after they are counted here. */
  syncMs: number;
  /**
   * At most this many hits of one key are counted here and not yet confirmed by the store; a hit
   * beyond it waits for the sync in flight. This bounds the overshoot: across N instances, at most
   * N × maxUnsynced hits of a window are let through beyond the limit.
   */
  maxUnsynced: number;
  /** Real time in ms (the store's expiries run on it, whatever the app's clock says). */
  now?: () => number;
}

interface Entry {
  /** The shared count at the last sync (every instance's hits, ours included). */
  shared: number;
  /** Hits sent to the store whose answer has not come back. */
  inFlight: number;
  /** Hits counted here since. */
  pending: number;
  /** When the window ends, by the store's expiry (or a full window from the first hit). */
  resetAt: number;
}

/** A hit as counted: the window's count so far, this hit included, and ms until it ends. */
export interface WindowHit {
  count: number;
  ttlMs: number;
}

/**
 * A fixed-window counter per key that answers from memory and syncs with the shared store in
 * batches: every `syncMs`, or at once when a key has `maxUnsynced` hits the store has not seen,
 * one `incrementMany` carries every key's new hits and brings back each shared count. A request
 * costs no round trip; the count stays exact on one instance and, across instances, runs behind
 * the shared count by at most `maxUnsynced` hits of each other instance (the documented
 * overshoot). When the store cannot be reached the next hit waits for a sync and fails with its
 * error (503), as a per-request count would: the limit never passes silently.
 */
export class BatchedWindowCounter {
  private readonly entries = new Map<string, Entry>();
  /** Keys with hits not yet sent: a sync reads these, not every key of the window. */
  private readonly dirty = new Set<string>();
  private readonly now: () => number;
  private timer: NodeJS.Timeout | null = null;
  private sync: Promise<void> | null = null;
  private lastError: unknown = null;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly store: CacheStore,
    private readonly opts: BatchedWindowOptions,
  ) {
    this.now = opts.now ?? Date.now;
    // Keys whose window ended and which nobody hit since (one-off addresses) are dropped.
    this.sweeper = setInterval(() => this.sweep(), Math.max(opts.windowMs, 1000));
    this.sweeper.unref();
  }

  /** Stops the timers (the app is shutting down); hits not yet sent are dropped with it. */
  close(): void {
    clearInterval(this.sweeper);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Counts one hit of `key`; resolves at once unless the key is at its unsynced bound, or the store
   * failed or is known to be unreachable (then the hit waits for a sync, which fails with its error).
   */
  hit(key: string, synced = false): WindowHit | Promise<WindowHit> {
    if (!synced && (this.lastError !== null || !this.store.reachable))
      return this.flush().then(() => this.hit(key, true));
    const now = this.now();
    let e = this.entries.get(key);
    if (!e || (e.resetAt <= now && e.inFlight === 0)) {
      e = { shared: 0, inFlight: 0, pending: 0, resetAt: now + this.opts.windowMs };
      this.entries.set(key, e);
    }
    if (e.pending >= this.opts.maxUnsynced) return this.flush().then(() => this.hit(key));
    e.pending += 1;
    this.dirty.add(key);
    if (e.pending >= this.opts.maxUnsynced) void this.flush().catch(() => undefined);
    else this.schedule();
    return { count: e.shared + e.inFlight + e.pending, ttlMs: Math.max(0, e.resetAt - now) };
  }

  private schedule(): void {
    if (this.timer || this.sync) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().catch(() => undefined);
    }, this.opts.syncMs);
    this.timer.unref();
  }

  /** Sends every pending hit in one call; a caller during a sync waits for it and then sends what is left. */
  flush(): Promise<void> {
    if (this.sync) return this.sync.then(() => this.flush());
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch: [string, Entry, number][] = [];
    for (const key of this.dirty) {
      const e = this.entries.get(key);
      if (e && e.pending > 0) {
        batch.push([key, e, e.pending]);
        e.inFlight += e.pending;
        e.pending = 0;
      }
    }
    this.dirty.clear();
    if (batch.length === 0 && this.lastError === null && this.store.reachable)
      return Promise.resolve();
    const sent =
      batch.length === 0
        ? this.store.ping().then(() => [])
        : this.store.incrementMany(
            batch.map(([key, , by]) => ({ key: `${this.opts.prefix}${key}`, by })),
            this.opts.windowMs,
          );
    const sync = sent
      .then(
        (counts) => {
          const now = this.now();
          batch.forEach(([, e, by], i) => {
            e.inFlight -= by;
            e.shared = counts[i].count;
            e.resetAt = now + counts[i].ttlMs;
          });
          this.lastError = null;
        },
        (err: unknown) => {
          // The hits stay counted here and go with the next sync.
          for (const [key, e, by] of batch) {
            e.inFlight -= by;
            e.pending += by;
            this.dirty.add(key);
          }
          this.lastError = err;
          throw err;
        },
      )
      .finally(() => {
        this.sync = null;
        if (this.dirty.size > 0) this.schedule();
      });
    this.sync = sync;
    return sync;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, e] of this.entries)
      if (e.resetAt <= now && e.pending === 0 && e.inFlight === 0) this.entries.delete(key);
  }
}
