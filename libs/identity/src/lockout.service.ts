import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { sha256Hex } from '@gatehouse/crypto';
import { CacheStore, Clock, type CacheScript, type LocalKeys } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';

/** Consecutive wrong passwords that lock an identifier (docs/api-contract.md §3). */
export const LOCK_AFTER_FAILURES = 5;
/** Consecutive wrong second-factor codes (TOTP, SMS, backup codes) that lock an account's second factor. */
export const MFA_LOCK_AFTER_FAILURES = 10;
/** First lock 15 min, then 30 min, 1 h, and 2 h for every further lock (docs/api-contract.md §3). */
export const LOCK_DURATIONS_MS = [15 * 60_000, 30 * 60_000, 60 * 60_000, 120 * 60_000];
/** A password streak is forgotten a day after its first failure (docs/api-contract.md §3). */
const PASSWORD_FAILURE_WINDOW_MS = 24 * 3600_000;
/**
 * A second-factor streak is remembered for 30 days: with a one-day window, nine guesses a day
 * would never lock, and a million six-digit codes fall in about 300 years at that pace, but
 * thousands of accounts guessed in parallel would yield some; 30 days keeps the total per account
 * to ten guesses per lock cycle.
 */
const MFA_FAILURE_WINDOW_MS = 30 * 24 * 3600_000;
const LEVEL_MEMORY_MS = 30 * 24 * 3600_000;

/**
 * The reason word of docs/api-contract.md §13 for an attempt the lockout refused before any secret was
 * checked (`beginAttempt`): `locked` while the account is locked, `rate_limited` when it found no
 * free slot in time; null for anything else.
 */
export function lockoutRefusalReason(err: unknown): 'locked' | 'rate_limited' | null {
  if (!(err instanceof ProblemError)) return null;
  return err.slug === 'account-locked'
    ? 'locked'
    : err.slug === 'rate-limited'
      ? 'rate_limited'
      : null;
}

export function normalizeIdentifier(identifier: string): string {
  return identifier.trim().toLowerCase();
}

/**
 * An attempt holds its slot this long at most, so a crashed instance's slots free themselves. An
 * attempt ends well within it: its hash waits at most 10 s for its turn (PasswordHasher answers
 * 503 after that), its queries at most DEPENDENCY_TIMEOUT_MS.
 */
const SLOT_TTL_MS = 60_000;
/** How long an attempt waits for one of its slots before 429 `rate-limited`. */
const SLOT_WAIT_MS = 10_000;

/**
 * The lockout's atomic steps, on four keys per identifier: the failures of the current streak,
 * the lock level, the time the lock ends (compared with the injected clock, passed in as `now`),
 * and the attempts being checked right now (their slots, each with the time it expires).
 *
 * - `begin`: refused while locked. Otherwise the attempt takes a slot, but only while failures
 *   and attempts in progress add up to fewer than the limit (five for passwords): a sixth
 *   concurrent guess cannot be checked before the first five have failed (and locked), and must
 *   wait for a slot instead.
 * - `fail`: frees the slot and counts the failure; the one that reaches the limit locks, clearing
 *   the streak and raising the level once.
 * - `succeed`: frees the slot and ends the streak and the level, unless a lock began meanwhile
 *   (which the slots prevent; the check makes sure a late right guess never lifts a lock).
 * - `release`: frees the slot of an attempt that ended otherwise (an error).
 *
 * Each answers `[state, locked until (ms, 0 when open), this call started the lock (1|0)]`, state
 * 0 locked, 1 open, 2 no slot free yet.
 */
const COMMON_LUA = `local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local held = tonumber(redis.call('GET', KEYS[3]) or '0')`;

const BEGIN: CacheScript = {
  lua: `${COMMON_LUA}
if held > now then return {0, held, 0} end
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now)
if tonumber(redis.call('GET', KEYS[1]) or '0') + redis.call('ZCARD', KEYS[4]) >= limit then return {2, 0, 0} end
redis.call('ZADD', KEYS[4], string.format('%d', now + tonumber(ARGV[5])), ARGV[6])
redis.call('PEXPIRE', KEYS[4], ARGV[5])
return {1, 0, 0}`,
  local: (kv, keys, args) => {
    const locked = heldLock(kv, keys, args);
    if (locked) return locked;
    const slots = liveSlots(kv, keys[3], args);
    if (Number(kv.get(keys[0]) ?? 0) + Object.keys(slots).length >= Number(args[1]))
      return [2, 0, 0];
    slots[args[5]] = Number(args[0]) + Number(args[4]);
    kv.set(keys[3], JSON.stringify(slots), Number(args[4]));
    return [1, 0, 0];
  },
};

const FAIL: CacheScript = {
  lua: `${COMMON_LUA}
redis.call('ZREM', KEYS[4], ARGV[6])
if held > now then return {0, held, 0} end
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
if n < limit then return {1, 0, 0} end
redis.call('DEL', KEYS[1])
local level = redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
local untilMs = now + tonumber(ARGV[6 + math.min(level, #ARGV - 6)])
redis.call('SET', KEYS[3], string.format('%d', untilMs), 'PX', ARGV[4])
return {0, untilMs, 1}`,
  local: (kv, keys, args) => {
    freeSlot(kv, keys[3], args);
    const locked = heldLock(kv, keys, args);
    if (locked) return locked;
    if (kv.incr(keys[0], Number(args[2])) < Number(args[1])) return [1, 0, 0];
    kv.del(keys[0]);
    const level = kv.incr(keys[1], Number(args[3]));
    const durations = args.slice(6).map(Number);
    const lockedUntil = Number(args[0]) + durations[Math.min(level, durations.length) - 1];
    kv.set(keys[2], String(lockedUntil), Number(args[3]));
    return [0, lockedUntil, 1];
  },
};

const SUCCEED: CacheScript = {
  lua: `${COMMON_LUA}
redis.call('ZREM', KEYS[4], ARGV[6])
if held > now then return {0, held, 0} end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return {1, 0, 0}`,
  local: (kv, keys, args) => {
    freeSlot(kv, keys[3], args);
    const locked = heldLock(kv, keys, args);
    if (locked) return locked;
    keys.slice(0, 3).forEach((k) => kv.del(k));
    return [1, 0, 0];
  },
};

const RELEASE: CacheScript = {
  lua: `redis.call('ZREM', KEYS[4], ARGV[6])
return {1, 0, 0}`,
  local: (kv, keys, args) => {
    freeSlot(kv, keys[3], args);
    return [1, 0, 0];
  },
};

/** The in-process twin of `held > now`: the locked answer while a lock holds, else null. */
function heldLock(kv: LocalKeys, keys: string[], args: string[]): number[] | null {
  const held = Number(kv.get(keys[2]) ?? 0);
  return held > Number(args[0]) ? [0, held, 0] : null;
}

/** The in-process twin of the slots' sorted set: a JSON object of attempt id → expiry (ms). */
function liveSlots(kv: LocalKeys, key: string, args: string[]): Record<string, number> {
  const all = JSON.parse(kv.get(key) ?? '{}') as Record<string, number>;
  return Object.fromEntries(Object.entries(all).filter(([, expires]) => expires > Number(args[0])));
}

function freeSlot(kv: LocalKeys, key: string, args: string[]): void {
  const slots = liveSlots(kv, key, args);
  delete slots[args[5]];
  kv.set(key, JSON.stringify(slots), Number(args[4]));
}

/** An attempt that holds one of its subject's slots until it is settled. */
export interface PasswordAttempt {
  /** The secret was wrong: the failure is counted; the lock's end when this failure started it. */
  failed(): Promise<Date | null>;
  /**
   * The secret was right: the streak and the level end (also for the other subjects given, such as
   * the account's other identifiers). Throws 429 `account-locked` if a lock began meanwhile.
   */
  succeeded(...otherSubjects: (string | null | undefined)[]): Promise<void>;
  /** Frees the slot if the attempt was neither (an error came first); harmless after either. */
  release(): Promise<void>;
}

/** What one kind of guessable secret locks: its cache keys, how many failures, what the lock says. */
interface LockoutPolicy {
  prefix: string;
  failuresToLock: number;
  /** A streak is forgotten this long after its first failure. */
  failureWindowMs: number;
  lockedDetail: string;
}

/**
 * Progressive lockout per (project, subject), counted in the shared cache whether or not the
 * account exists, atomically: of 20 concurrent wrong guesses only as many as the policy allows are
 * checked and the rest find the lock they earned, while 20 concurrent right ones all pass. Lock
 * times are compared with the injected clock. (Decorated so that its constructor's parameter types
 * are recorded for Nest's injection into the subclasses.)
 */
@Injectable()
abstract class AttemptLockout {
  constructor(
    private readonly cache: CacheStore,
    private readonly clock: Clock,
  ) {}

  protected abstract readonly policy: LockoutPolicy;

  /** How long an attempt waits for a slot (a field so that a unit test can shorten it). */
  protected readonly slotWaitMs: number = SLOT_WAIT_MS;

  private keys(projectId: string, subject: string): string[] {
    const id = sha256Hex(`${projectId}\u0000${normalizeIdentifier(subject)}`);
    const p = this.policy.prefix;
    return [`${p}:failures:${id}`, `${p}:level:${id}`, `${p}:until:${id}`, `${p}:slots:${id}`];
  }

  private run(script: CacheScript, keys: string[], attemptId: string): Promise<number[]> {
    const args = [
      this.clock.nowMs(),
      this.policy.failuresToLock,
      this.policy.failureWindowMs,
      LEVEL_MEMORY_MS,
      SLOT_TTL_MS,
      attemptId,
      ...LOCK_DURATIONS_MS,
    ];
    return this.cache.runScript(script, keys, args);
  }

  /**
   * Starts an attempt before its secret is checked: 429 `account-locked` while locked; otherwise
   * it waits (briefly, in real time) for a slot, or answers 429 `rate-limited`.
   */
  async beginAttempt(projectId: string, subject: string): Promise<PasswordAttempt> {
    const keys = this.keys(projectId, subject);
    const id = randomUUID();
    const giveUpAt = Date.now() + this.slotWaitMs;
    for (;;) {
      const [state, lockedUntil] = await this.run(BEGIN, keys, id);
      if (state === 0) throw this.lockedError(new Date(lockedUntil));
      if (state === 1) break;
      if (Date.now() >= giveUpAt) {
        throw new ProblemError('rate-limited', {
          detail: 'Too many attempts for this account at once; try again shortly.',
          headers: { 'Retry-After': '1' },
        });
      }
      await sleep(20 + Math.random() * 20);
    }
    let settled = false;
    const settle = async (script: CacheScript) => {
      if (settled) return [1, 0, 0];
      const answer = await this.run(script, keys, id);
      settled = true;
      return answer;
    };
    return {
      failed: async () => {
        const [, lockedUntil, started] = await settle(FAIL);
        return started === 1 ? new Date(lockedUntil) : null;
      },
      succeeded: async (...others) => {
        const [open, lockedUntil] = await settle(SUCCEED);
        if (!open) throw this.lockedError(new Date(lockedUntil));
        await this.reset(projectId, ...others);
      },
      release: async () => void (await settle(RELEASE)),
    };
  }

  /** 429 `account-locked` with Retry-After and `locked_until`. */
  lockedError(lockedUntil: Date): ProblemError {
    const seconds = Math.max(1, Math.ceil((lockedUntil.getTime() - this.clock.nowMs()) / 1000));
    return new ProblemError('account-locked', {
      detail: this.policy.lockedDetail,
      headers: { 'Retry-After': String(seconds) },
      extensions: { locked_until: lockedUntil.toISOString() },
    });
  }

  /**
   * When the latest lock of these subjects ends, or null while none holds (the admin user
   * resource's `locked_until`, so the console offers Unlock only while it would unlock something).
   */
  async lockedUntil(
    projectId: string,
    ...subjects: (string | null | undefined)[]
  ): Promise<Date | null> {
    const keys = subjects
      .filter((i): i is string => Boolean(i))
      .map((i) => this.keys(projectId, i)[2]);
    if (!keys.length) return null;
    const latest = Math.max(0, ...(await this.cache.mget(keys)).map((v) => Number(v ?? 0) || 0));
    return latest > this.clock.nowMs() ? new Date(latest) : null;
  }

  /** Clears streak, level and lock (not the slots of attempts in progress): password reset, admin unlock. */
  async reset(projectId: string, ...subjects: (string | null | undefined)[]): Promise<void> {
    const keys = subjects
      .filter((i): i is string => Boolean(i))
      .flatMap((i) => this.keys(projectId, i).slice(0, 3));
    if (keys.length) await this.cache.del(...keys);
  }
}

/**
 * Password lockout per (project, normalised identifier), whether or not the account exists
 * (docs/api-contract.md §3): five consecutive failures lock it on the progressive schedule.
 */
@Injectable()
export class LockoutService extends AttemptLockout {
  protected readonly policy: LockoutPolicy = {
    prefix: 'lockout',
    failuresToLock: LOCK_AFTER_FAILURES,
    failureWindowMs: PASSWORD_FAILURE_WINDOW_MS,
    lockedDetail: 'Too many failed sign-in attempts; the account is temporarily locked.',
  };
}

/**
 * Second-factor lockout per (project, user id), across every mfa_token and every way a code is
 * checked (sign-in challenge, re-authentication): ten consecutive wrong TOTP, SMS or backup codes
 * lock the account's second factor on the same progressive schedule. A new password sign-in does
 * not end the streak; a right code (once no lock holds), a password reset or an admin unlock does.
 */
@Injectable()
export class SecondFactorLockout extends AttemptLockout {
  protected readonly policy: LockoutPolicy = {
    prefix: 'mfa-lockout',
    failuresToLock: MFA_LOCK_AFTER_FAILURES,
    failureWindowMs: MFA_FAILURE_WINDOW_MS,
    lockedDetail: "Too many wrong codes; the account's second factor is temporarily locked.",
  };
}
