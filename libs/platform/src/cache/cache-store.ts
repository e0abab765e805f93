/** What a script may do to keys in the in-process store: the same steps the Lua script takes in Redis. */
export interface LocalKeys {
  get(key: string): string | null;
  /** `ttlMs` omitted: the key does not expire. */
  set(key: string, value: string, ttlMs?: number): void;
  del(key: string): void;
  /** Adds 1 and returns the new value; a new key expires after `ttlMs`. */
  incr(key: string, ttlMs: number): number;
}

/**
 * A few steps on a few keys that must happen as one (a check and the change it decides): a Lua
 * script for Redis, which runs scripts atomically, and the same steps in JavaScript for the
 * in-process store, where a synchronous function cannot be interleaved. Both answer integers.
 */
export interface CacheScript {
  readonly lua: string;
  readonly local: (keys: LocalKeys, keyNames: string[], args: string[]) => number[];
}

/**
 * The shared, cross-instance key/value state: rate-limit and lockout counters, session revocation,
 * WebAuthn/OAuth challenges, cached lookups. Redis in normal mode, in-process in standalone mode.
 * Every method fails with DependencyUnavailableError when the store cannot be reached.
 */
export abstract class CacheStore {
  /** False while the store is known to be unreachable (a lost connection), so callers that batch can fail at once. */
  get reachable(): boolean {
    return true;
  }
  abstract get(key: string): Promise<string | null>;
  abstract mget(keys: string[]): Promise<(string | null)[]>;
  abstract set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Sets only when absent; true when this call set it. */
  abstract setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Atomically reads and deletes: the one caller that gets the value consumed it. */
  abstract getDel(key: string): Promise<string | null>;
  abstract del(...keys: string[]): Promise<void>;
  /** Increments a counter whose window starts at the first increment; returns count and ms left. */
  abstract increment(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }>;
  /**
   * Adds `by` to each counter in one round trip, as `increment` does one at a time (a new key's
   * window of `windowMs` starts now); returns each counter's new count and ms left, in order.
   */
  abstract incrementMany(
    entries: readonly { key: string; by: number }[],
    windowMs: number,
  ): Promise<{ count: number; ttlMs: number }[]>;
  /** Runs `script` atomically on `keys`; `args` reach it as strings (Lua's ARGV). */
  abstract runScript(
    script: CacheScript,
    keys: string[],
    args: (string | number)[],
  ): Promise<number[]>;
  abstract ping(): Promise<void>;
  abstract close(): Promise<void>;
}
