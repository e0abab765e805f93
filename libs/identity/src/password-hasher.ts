import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import {
  bcryptCostOf,
  hashPassword,
  importedHashOverBudget,
  lowPriorityVerifier,
  makeDummyHash,
  needsRehash,
  sha256Hex,
  verifyPassword,
  type LowPriorityVerifier,
  type PasswordScheme,
} from '@gatehouse/crypto';
import { HashQueue, hashQueueFull } from './hash-queue';

/** Imported-hash checks of one project that may wait; one more is refused at once. */
const IMPORTED_WAITING_PER_PROJECT = 32;
/** How long our own hashes must have been idle before the low-priority child goes on. */
const RESUME_AFTER_IDLE_MS = 50;
/** Over-budget hashes remembered as logged (then forgotten all at once: logged again, never unbounded). */
const OVER_BUDGET_LOGGED_MAX = 10_000;

/** Whose hash is checked: imported hashes wait in their project's queue. */
export interface HashOwner {
  projectId: string;
  userId?: string;
}

/**
 * bcrypt at BCRYPT_COST with the SHA-256 pre-hash; one hash per sign-in, even for unknown users.
 *
 * Two queues of turns (HashQueue), each answering 503 `service-unavailable` with `Retry-After: 1`
 * to a check that waited PASSWORD_HASH_QUEUE_TIMEOUT_MS (default 10 s) for its turn, at that
 * moment: under a flood the queues shed load rather than grow, and a password attempt never
 * outlives its lockout slot (LockoutService) while it waits.
 * - Ours (bcrypt-sha256 at most at BCRYPT_COST, and the dummy check): at most
 *   PASSWORD_HASH_CONCURRENCY at once (default: one per core), the rest in order. bcrypt runs on
 *   libuv's thread pool, four threads by default: on a machine with fewer cores, four hashes at
 *   once would crowd the event loop off the CPU, and every other request with it.
 * - Imported hashes (any other scheme or cost, up to the work budget of docs/api-contract.md §12: 64 MiB and
 *   about a second): beside ours, one at a time per project and at most half of
 *   PASSWORD_HASH_CONCURRENCY (at least one) at once, projects taking turns, at most
 *   IMPORTED_WAITING_PER_PROJECT waiting per project. One project's expensive hashes therefore
 *   never take another project's turn. In a compiled build they run in a child process at the
 *   lowest CPU priority (LowPriorityVerifier), so under load they get only the CPU our own sign-ins
 *   leave; under ts-jest, in this process.
 * A stored hash over the budget (written before it existed) is never computed: it is refused as a
 * wrong password, after the dummy check a wrong password's timing class costs, and logged once.
 */
@Injectable()
export class PasswordHasher {
  private dummy: Promise<string> | null = null;
  private readonly ours: HashQueue;
  private readonly imported: HashQueue;
  private readonly log = new Logger('PasswordHasher');
  private readonly overBudgetLogged = new Set<string>();
  /** Imported checks at the lowest CPU priority, in a child process (compiled builds); else here. */
  private readonly lowPriority = lowPriorityVerifier();
  /** Our own hashes queued or running (the low-priority child is stopped while any is). */
  private oursInFlight = 0;
  /** Lets the child go on once ours have been idle for RESUME_AFTER_IDLE_MS. */
  private resumeTimer: NodeJS.Timeout | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const { passwordHashConcurrency: concurrency, passwordHashQueueTimeoutMs: timeoutMs } =
      config.auth;
    this.ours = new HashQueue({
      concurrency,
      perKey: concurrency,
      maxWaitingPerKey: Number.POSITIVE_INFINITY,
      timeoutMs,
    });
    this.imported = new HashQueue({
      concurrency: Math.max(1, Math.floor(concurrency / 2)),
      perKey: 1,
      maxWaitingPerKey: IMPORTED_WAITING_PER_PROJECT,
      timeoutMs,
    });
  }

  hash(password: string) {
    return this.runOurs(() => hashPassword(password, this.config.auth.bcryptCost));
  }

  /**
   * One of our own hashes, in its queue. While any is queued or running, the low-priority child
   * that checks imported hashes is stopped (LowPriorityVerifier.pause): imported hashes get only
   * the time our sign-ins leave, on every hardware thread.
   */
  private runOurs<T>(work: () => Promise<T>): Promise<T> {
    if (this.oursInFlight++ === 0) {
      // Still stopped while its resumption waits: keep it so.
      if (this.resumeTimer) clearTimeout(this.resumeTimer);
      else this.lowPriority?.pause();
      this.resumeTimer = null;
    }
    return this.ours.run('', work).finally(() => {
      if (--this.oursInFlight > 0 || !this.lowPriority) return;
      // Not between two sign-ins: the rest of a sign-in (its statements, its token) runs between
      // its hash and the next one, and the child's threads and memory there slowed it (bench).
      this.resumeTimer = setTimeout(() => {
        this.resumeTimer = null;
        this.lowPriority?.resume();
      }, RESUME_AFTER_IDLE_MS);
      this.resumeTimer.unref();
    });
  }

  /**
   * An imported check in the low-priority child, answered 503 (as a queue that is full) when it is
   * not done PASSWORD_HASH_QUEUE_TIMEOUT_MS after it started: stopped while our own hashes run, it
   * could otherwise wait for as long as they keep coming.
   */
  private verifyImported(
    password: string,
    hash: string,
    scheme: PasswordScheme,
    verifier: LowPriorityVerifier,
  ): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(hashQueueFull()),
        this.config.auth.passwordHashQueueTimeoutMs,
      );
      verifier.verify(password, hash, scheme).then(
        (ok) => {
          clearTimeout(timer);
          resolve(ok);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  /** `owner`: the project (and user) the hash belongs to; imported hashes wait in that project's turn. */
  verify(
    password: string,
    hash: string,
    scheme: PasswordScheme,
    owner?: HashOwner,
  ): Promise<boolean> {
    if (scheme === 'bcrypt-sha256' && bcryptCostOf(hash) <= this.config.auth.bcryptCost)
      return this.runOurs(() => verifyPassword(password, hash, scheme));
    const over = importedHashOverBudget(hash, scheme);
    if (over) {
      this.logOverBudget(hash, scheme, over, owner);
      return this.verifyDummy(password);
    }
    const verifier = this.lowPriority;
    return this.imported.run(owner?.projectId ?? '', () =>
      verifier
        ? this.verifyImported(password, hash, scheme, verifier)
        : verifyPassword(password, hash, scheme),
    );
  }

  needsRehash(hash: string, scheme: PasswordScheme): boolean {
    return needsRehash(hash, scheme, this.config.auth.bcryptCost);
  }

  /** Spends the same time as a real check, for identifiers that match no user. Always false. */
  async verifyDummy(password: string): Promise<false> {
    this.dummy ??= this.runOurs(() => makeDummyHash(this.config.auth.bcryptCost));
    // A refused first attempt (queue full) must not stay cached.
    void this.dummy.catch(() => (this.dummy = null));
    const dummy = await this.dummy;
    await this.runOurs(() => verifyPassword(password, dummy, 'bcrypt-sha256'));
    return false;
  }

  private logOverBudget(
    hash: string,
    scheme: PasswordScheme,
    reason: string,
    owner?: HashOwner,
  ): void {
    const key = sha256Hex(`${owner?.userId ?? ''}\n${hash}`);
    if (this.overBudgetLogged.has(key)) return;
    if (this.overBudgetLogged.size >= OVER_BUDGET_LOGGED_MAX) this.overBudgetLogged.clear();
    this.overBudgetLogged.add(key);
    this.log.warn(
      `Stored ${scheme} password hash over the work budget refused without computing it (project ${owner?.projectId ?? 'unknown'}, user ${owner?.userId ?? 'unknown'}): ${reason}. The user signs in after a password reset.`,
    );
  }
}
