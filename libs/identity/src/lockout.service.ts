import { Injectable } from '@nestjs/common';
import { sha256Hex } from '@gatehouse/crypto';
import { CacheStore, Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';

export const LOCK_AFTER_FAILURES = 5;
/** First lock 15 min, then 30 min, 1 h, and 2 h for every further lock (CONTRACT §3). */
export const LOCK_DURATIONS_MS = [15 * 60_000, 30 * 60_000, 60 * 60_000, 120 * 60_000];
const FAILURE_WINDOW_MS = 24 * 3600_000;
const LEVEL_MEMORY_MS = 30 * 24 * 3600_000;

export function normalizeIdentifier(identifier: string): string {
  return identifier.trim().toLowerCase();
}

/**
 * Progressive lockout per (project, normalised identifier), counted in the shared cache whether
 * or not the account exists. Lock times are compared with the injected clock.
 */
@Injectable()
export class LockoutService {
  constructor(
    private readonly cache: CacheStore,
    private readonly clock: Clock,
  ) {}

  private keys(projectId: string, identifier: string) {
    const id = sha256Hex(`${projectId}\u0000${normalizeIdentifier(identifier)}`);
    return { failures: `lockout:failures:${id}`, level: `lockout:level:${id}`, until: `lockout:until:${id}` };
  }

  /** Throws 429 `account-locked` with Retry-After and `locked_until` while a lock holds. */
  async assertNotLocked(projectId: string, identifier: string): Promise<void> {
    const until = Number((await this.cache.get(this.keys(projectId, identifier).until)) ?? 0);
    const now = this.clock.nowMs();
    if (until > now) {
      throw new ProblemError('account-locked', {
        detail: 'Too many failed sign-in attempts; the account is temporarily locked.',
        headers: { 'Retry-After': String(Math.ceil((until - now) / 1000)) },
        extensions: { locked_until: new Date(until).toISOString() },
      });
    }
  }

  /** Counts a failure; returns the lock end when this failure started a lock. */
  async recordFailure(projectId: string, identifier: string): Promise<Date | null> {
    const k = this.keys(projectId, identifier);
    const { count } = await this.cache.increment(k.failures, FAILURE_WINDOW_MS);
    if (count < LOCK_AFTER_FAILURES) return null;
    await this.cache.del(k.failures);
    const { count: level } = await this.cache.increment(k.level, LEVEL_MEMORY_MS);
    const duration = LOCK_DURATIONS_MS[Math.min(level, LOCK_DURATIONS_MS.length) - 1];
    const until = this.clock.nowMs() + duration;
    await this.cache.set(k.until, String(until), LEVEL_MEMORY_MS);
    return new Date(until);
  }

  /** Clears count and level: successful sign-in, password reset, admin unlock. */
  async reset(projectId: string, ...identifiers: (string | null | undefined)[]): Promise<void> {
    const keys = identifiers.filter((i): i is string => Boolean(i)).flatMap((i) => Object.values(this.keys(projectId, i)));
    await this.cache.del(...keys);
  }
}
