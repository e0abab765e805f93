import { Inject, Injectable } from '@nestjs/common';
import pLimit from 'p-limit';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { hashPassword, makeDummyHash, needsRehash, verifyPassword, type PasswordScheme } from '@gatehouse/crypto';
import { ProblemError } from '@gatehouse/problem-details';

/** A hash that could not start within this long is refused (503) instead of queueing on. */
const MAX_QUEUE_WAIT_MS = 10_000;

/**
 * bcrypt at BCRYPT_COST with the SHA-256 pre-hash; one hash per sign-in, even for unknown users.
 * At most PASSWORD_HASH_CONCURRENCY hashes run at once (default: one per core; the rest wait
 * their turn here, in order). bcrypt runs on libuv's thread pool, four threads by default: on a
 * machine with fewer cores, four hashes at once would crowd the event loop off the CPU, and every
 * other request with it, during a burst of sign-ins. A hash that has waited MAX_QUEUE_WAIT_MS
 * for its turn is answered 503 `service-unavailable` with `Retry-After: 1` instead: under a flood
 * the queue sheds load rather than growing without bound, and a password attempt never outlives
 * its lockout slot (LockoutService) while it waits.
 */
@Injectable()
export class PasswordHasher {
  private dummy: Promise<string> | null = null;
  private readonly limit: pLimit.Limit;
  /** A field so that a unit test can shorten it. */
  protected readonly maxQueueWaitMs: number = MAX_QUEUE_WAIT_MS;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.limit = pLimit(config.auth.passwordHashConcurrency);
  }

  /** Runs `work` when a hash may start; refused if that took longer than `maxQueueWaitMs`. */
  private slot<T>(work: () => Promise<T>): Promise<T> {
    const queuedAt = Date.now();
    return this.limit(() => {
      if (Date.now() - queuedAt > this.maxQueueWaitMs) {
        throw new ProblemError('service-unavailable', { detail: 'Too many password checks at once; try again shortly.', headers: { 'Retry-After': '1' } });
      }
      return work();
    });
  }

  hash(password: string) {
    return this.slot(() => hashPassword(password, this.config.auth.bcryptCost));
  }

  verify(password: string, hash: string, scheme: PasswordScheme): Promise<boolean> {
    return this.slot(() => verifyPassword(password, hash, scheme));
  }

  needsRehash(hash: string, scheme: PasswordScheme): boolean {
    return needsRehash(hash, scheme, this.config.auth.bcryptCost);
  }

  /** Spends the same time as a real check, for identifiers that match no user. Always false. */
  async verifyDummy(password: string): Promise<false> {
    this.dummy ??= this.slot(() => makeDummyHash(this.config.auth.bcryptCost));
    const dummy = await this.dummy;
    await this.slot(() => verifyPassword(password, dummy, 'bcrypt-sha256'));
    return false;
  }
}
