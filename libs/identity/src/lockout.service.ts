import { Injectable } from '@nestjs/common';
import { sha256Hex } from '@gatehouse/crypto';
import { CacheStore, Clock, type CacheScript, type LocalKeys } from '@gatehouse/platform';
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
 * The two atomic steps of the lockout, on three keys: the attempts of the current streak, the lock
 * level, and the time the lock ends (compared with the injected clock, passed in as `now`).
 *
 * - `begin`, before the password is checked: refused while locked; otherwise the attempt is counted
 *   at once, so concurrent attempts cannot all pass a check made before any of them failed. An
 *   attempt beyond the fifth of a streak (the first five still in flight) starts the lock itself.
 * - `fail`, after a wrong password: the streak has reached five counted attempts → lock, unless a
 *   concurrent attempt already did.
 *
 * Locking clears the streak and raises the level, exactly once per lock. Both answer
 * `[open (1|0), locked until (ms, 0 when open), this call started the lock (1|0)]`.
 */
const LOCK_LUA = `local function lock(now)
  redis.call('DEL', KEYS[1])
  local level = redis.call('INCR', KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
  local steps = #ARGV - 4
  local untilMs = now + tonumber(ARGV[4 + math.min(level, steps)])
  redis.call('SET', KEYS[3], string.format('%d', untilMs), 'PX', ARGV[4])
  return {0, untilMs, 1}
end
local now = tonumber(ARGV[1])
local lockedUntil = tonumber(redis.call('GET', KEYS[3]) or '0')
if lockedUntil > now then return {0, lockedUntil, 0} end`;

const BEGIN: CacheScript = {
  lua: `${LOCK_LUA}
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
if n <= tonumber(ARGV[2]) then return {1, 0, 0} end
return lock(now)`,
  local: (kv, keys, args) => {
    const state = lockedState(kv, keys, args);
    if (state) return state;
    return kv.incr(keys[0], Number(args[2])) <= Number(args[1]) ? [1, 0, 0] : lock(kv, keys, args);
  },
};

const FAIL: CacheScript = {
  lua: `${LOCK_LUA}
if tonumber(redis.call('GET', KEYS[1]) or '0') < tonumber(ARGV[2]) then return {1, 0, 0} end
return lock(now)`,
  local: (kv, keys, args) => {
    const state = lockedState(kv, keys, args);
    if (state) return state;
    return Number(kv.get(keys[0]) ?? 0) < Number(args[1]) ? [1, 0, 0] : lock(kv, keys, args);
  },
};

function lockedState(kv: LocalKeys, keys: string[], args: string[]): number[] | null {
  const lockedUntil = Number(kv.get(keys[2]) ?? 0);
  return lockedUntil > Number(args[0]) ? [0, lockedUntil, 0] : null;
}

function lock(kv: LocalKeys, keys: string[], args: string[]): number[] {
  kv.del(keys[0]);
  const level = kv.incr(keys[1], Number(args[3]));
  const durations = args.slice(4).map(Number);
  const lockedUntil = Number(args[0]) + durations[Math.min(level, durations.length) - 1];
  kv.set(keys[2], String(lockedUntil), Number(args[3]));
  return [0, lockedUntil, 1];
}

/** What `begin` and `recordFailure` found: `lockedUntil` null while open; `started` when this call locked. */
export interface LockState {
  lockedUntil: Date | null;
  started: boolean;
}

/**
 * Progressive lockout per (project, normalised identifier), counted in the shared cache whether
 * or not the account exists, atomically (even 60 concurrent wrong passwords get five answers and
 * one lock). Lock times are compared with the injected clock.
 */
@Injectable()
export class LockoutService {
  constructor(
    private readonly cache: CacheStore,
    private readonly clock: Clock,
  ) {}

  private keys(projectId: string, identifier: string): string[] {
    const id = sha256Hex(`${projectId}\u0000${normalizeIdentifier(identifier)}`);
    return [`lockout:failures:${id}`, `lockout:level:${id}`, `lockout:until:${id}`];
  }

  private async run(script: CacheScript, projectId: string, identifier: string): Promise<LockState> {
    const args = [this.clock.nowMs(), LOCK_AFTER_FAILURES, FAILURE_WINDOW_MS, LEVEL_MEMORY_MS, ...LOCK_DURATIONS_MS];
    const [open, lockedUntil, started] = await this.cache.runScript(script, this.keys(projectId, identifier), args);
    return { lockedUntil: open ? null : new Date(lockedUntil), started: started === 1 };
  }

  /**
   * Counts a password attempt before its password is checked. `lockedUntil` set: refuse it
   * (`lockedError`); `started` says this attempt began the lock (audit it).
   */
  beginAttempt(projectId: string, identifier: string): Promise<LockState> {
    return this.run(BEGIN, projectId, identifier);
  }

  /** The attempt's password was wrong; `started` when this failure locked the identifier. */
  recordFailure(projectId: string, identifier: string): Promise<LockState> {
    return this.run(FAIL, projectId, identifier);
  }

  /** 429 `account-locked` with Retry-After and `locked_until`. */
  lockedError(lockedUntil: Date): ProblemError {
    const seconds = Math.max(1, Math.ceil((lockedUntil.getTime() - this.clock.nowMs()) / 1000));
    return new ProblemError('account-locked', {
      detail: 'Too many failed sign-in attempts; the account is temporarily locked.',
      headers: { 'Retry-After': String(seconds) },
      extensions: { locked_until: lockedUntil.toISOString() },
    });
  }

  /** Clears count and level: successful sign-in, password reset, admin unlock. */
  async reset(projectId: string, ...identifiers: (string | null | undefined)[]): Promise<void> {
    const keys = identifiers.filter((i): i is string => Boolean(i)).flatMap((i) => this.keys(projectId, i));
    await this.cache.del(...keys);
  }
}
