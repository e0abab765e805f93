import { Inject, Injectable } from '@nestjs/common';
import pLimit from 'p-limit';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { hashPassword, makeDummyHash, needsRehash, verifyPassword, type PasswordScheme } from '@gatehouse/crypto';

/**
 * bcrypt at BCRYPT_COST with the SHA-256 pre-hash; one hash per sign-in, even for unknown users.
 * At most PASSWORD_HASH_CONCURRENCY hashes run at once (default: one per core; the rest wait
 * their turn here, in order). bcrypt runs on libuv's thread pool, four threads by default: on a
 * machine with fewer cores, four hashes at once would crowd the event loop off the CPU, and every
 * other request with it, during a burst of sign-ins.
 */
@Injectable()
export class PasswordHasher {
  private dummy: Promise<string> | null = null;
  private readonly slot: pLimit.Limit;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.slot = pLimit(config.auth.passwordHashConcurrency);
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
