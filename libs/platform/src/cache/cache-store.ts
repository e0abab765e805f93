/**
 * The shared, cross-instance key/value state: rate-limit and lockout counters, session revocation,
 * WebAuthn/OAuth challenges, cached lookups. Redis in normal mode, in-process in standalone mode.
 * Every method fails with DependencyUnavailableError when the store cannot be reached.
 */
export abstract class CacheStore {
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
  abstract ping(): Promise<void>;
  abstract close(): Promise<void>;
}
