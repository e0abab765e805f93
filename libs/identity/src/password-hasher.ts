import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { hashPassword, makeDummyHash, needsRehash, verifyPassword, type PasswordScheme } from '@gatehouse/crypto';

/** bcrypt at BCRYPT_COST with the SHA-256 pre-hash; one hash per sign-in, even for unknown users. */
@Injectable()
export class PasswordHasher {
  private dummy: Promise<string> | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  hash(password: string) {
    return hashPassword(password, this.config.auth.bcryptCost);
  }

  verify(password: string, hash: string, scheme: PasswordScheme): Promise<boolean> {
    return verifyPassword(password, hash, scheme);
  }

  needsRehash(hash: string, scheme: PasswordScheme): boolean {
    return needsRehash(hash, scheme, this.config.auth.bcryptCost);
  }

  /** Spends the same time as a real check, for identifiers that match no user. Always false. */
  async verifyDummy(password: string): Promise<false> {
    this.dummy ??= makeDummyHash(this.config.auth.bcryptCost);
    await verifyPassword(password, await this.dummy, 'bcrypt-sha256');
    return false;
  }
}
