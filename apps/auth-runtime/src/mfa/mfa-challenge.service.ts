import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { decryptSecretString, randomDigits, safeEqual, sha256Hex } from '@gatehouse/crypto';
import type { User } from '@gatehouse/entities';
import { RateLimitsService, type RequestMeta, type ResolvedProject } from '@gatehouse/identity';
import { CacheStore, Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { SmsQueue } from '@gatehouse/queue';
import { SignInCompletionService } from '../auth/sign-in-completion.service';
import { OneTimeTokensRepository } from '../one-time-tokens/one-time-tokens.repository';
import { isTokenShape } from '../one-time-tokens/token.dto';
import type { IssuedSession } from '../sessions/sessions.service';
import { UsersRepository } from '../users/users.repository';
import { codeHash, matchTotpStep, normalizeBackupCode } from './mfa-codes';
import { SMS_CODE_TTL_MS } from './mfa-enrollment.service';
import { MfaFactorsRepository } from './mfa-factors.repository';
import type { MfaFactorName } from './mfa.dto';
import { assertSmsCountry, enforceSmsLimits } from './sms-policy';

/** Wrong codes an mfa_token survives; the fifth kills it (CONTRACT §5). */
export const MAX_WRONG_CODES = 5;

/**
 * The second step of a sign-in that answered `mfa_required`: the opaque mfa_token (5 minutes,
 * single use, never a bearer token) plus one TOTP, SMS or backup code yields the session.
 */
@Injectable()
export class MfaChallengeService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tokens: OneTimeTokensRepository,
    private readonly factors: MfaFactorsRepository,
    private readonly users: UsersRepository,
    private readonly completion: SignInCompletionService,
    private readonly cache: CacheStore,
    private readonly sms: SmsQueue,
    private readonly rateLimits: RateLimitsService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private invalidToken() {
    return new ProblemError('invalid-token', { detail: 'The MFA token is invalid, used or expired.' });
  }

  private async pending(project: ResolvedProject, mfaToken: string): Promise<{ hash: string; user: User }> {
    const hash = isTokenShape(mfaToken) ? sha256Hex(mfaToken) : null;
    const token = hash ? await this.tokens.findUsable(hash, 'mfa', project.id, this.clock.now()) : null;
    if (!hash || !token?.userId || token.attempts >= MAX_WRONG_CODES) throw this.invalidToken();
    const user = await this.users.findById(project.id, token.userId);
    if (!user || user.status !== 'active') throw this.invalidToken();
    return { hash, user };
  }

  async sendSms(project: ResolvedProject, mfaToken: string, res: Response): Promise<void> {
    const { hash, user } = await this.pending(project, mfaToken);
    const factor = await this.factors.find(user.id, 'sms');
    if (factor?.status !== 'enabled' || !factor.phoneNumber) {
      throw ProblemError.validation({ mfa_token: ['SMS is not enabled for this account'] });
    }
    assertSmsCountry(project, factor.phoneNumber, true);
    await enforceSmsLimits(this.rateLimits, res, project, factor.phoneNumber, user.id);
    const code = randomDigits(6);
    await this.cache.set(`mfa:sms-code:${hash}`, codeHash(this.config.auth.encryptionKey, user.id, code), SMS_CODE_TTL_MS);
    await this.sms.send({ to: factor.phoneNumber, body: `Your ${project.name} sign-in code is ${code}. It expires in 10 minutes.` });
  }

  async verify(project: ResolvedProject, mfaToken: string, factor: MfaFactorName, code: string, meta: RequestMeta): Promise<{ user: User; session: IssuedSession }> {
    const backup = factor === 'backup_code' ? normalizeBackupCode(code) : null;
    if (factor === 'backup_code' ? !backup : !/^\d{6}$/.test(code)) {
      throw ProblemError.validation({ code: [factor === 'backup_code' ? 'must be a backup code such as abcde-fghij' : 'must be a string of 6 digits'] });
    }
    const { hash, user } = await this.pending(project, mfaToken);
    const available = await this.factors.availableFactors(user.id);
    if (!available.includes(factor)) throw ProblemError.validation({ factor: [`${factor} is not available for this account`] });

    // The attempt is counted before its code is checked (one atomic UPDATE), so concurrent guesses
    // get five checks between them, not five each: the sixth attempt is refused whatever its code.
    const attempts = await this.tokens.addAttempt(hash, 'mfa', this.clock.now());
    if (attempts === 0 || attempts > MAX_WRONG_CODES) throw this.invalidToken();
    if (!(await this.check(user, hash, factor, backup ?? code))) {
      throw new ProblemError('invalid-code', { detail: 'The code is wrong, used or expired.' });
    }
    const used = await this.dataSource.transaction((manager) => this.tokens.consume(manager, hash, 'mfa', project.id, this.clock.now()));
    // Our own attempt was within the allowance; later concurrent ones may have raised the count since.
    if (!used) throw this.invalidToken();
    const session = await this.completion.startSession(project, user, meta, 'mfa');
    return { user, session };
  }

  /** Checks and spends the code: a TOTP step, an SMS code or a backup code each works once. */
  private async check(user: User, tokenHash: string, factor: MfaFactorName, code: string): Promise<boolean> {
    const key = this.config.auth.encryptionKey;
    if (factor === 'backup_code') return this.factors.useBackupCode(user.id, codeHash(key, user.id, code), this.clock.now());
    if (factor === 'sms') {
      const cacheKey = `mfa:sms-code:${tokenHash}`;
      const expected = await this.cache.get(cacheKey);
      if (!expected || !safeEqual(expected, codeHash(key, user.id, code))) return false;
      return (await this.cache.getDel(cacheKey)) !== null;
    }
    const factorRow = await this.factors.find(user.id, 'totp');
    if (factorRow?.status !== 'enabled' || !factorRow.secretEncrypted) return false;
    const secret = decryptSecretString(key, factorRow.secretEncrypted, `totp:${user.id}`);
    const step = matchTotpStep(secret, code, Math.floor(this.clock.nowMs() / 1000));
    return step !== null && this.factors.claimTotpStep(user.id, step);
  }
}
