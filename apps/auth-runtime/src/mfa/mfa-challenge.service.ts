import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { decryptSecretString, randomDigits, safeEqual, sha256Hex } from '@gatehouse/crypto';
import type { User } from '@gatehouse/entities';
import {
  lockoutRefusalReason,
  MfaFactorsRepository,
  OneTimeTokensRepository,
  SecondFactorLockout,
  UsersRepository,
  type RequestMeta,
  type ResolvedProject,
} from '@gatehouse/identity';
import { RateLimitsService } from '@gatehouse/http';
import { CacheStore, Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { SmsQueue } from '@gatehouse/queue';
import { SignInCompletionService } from '../sign-in/sign-in-completion.service';
import { UserEvents } from '../sign-in/user-events';
import { isTokenShape } from '../one-time-tokens/token.dto';
import type { IssuedSession } from '../sessions/sessions.service';
import { codeHash, matchTotpStep, normalizeBackupCode } from './mfa-codes';
import { SMS_CODE_TTL_MS } from './mfa-enrollment.service';
import type { MfaFactorName } from './mfa.dto';
import { assertSmsCountry, enforceSmsLimits } from './sms-policy';

/** Wrong codes an mfa_token survives; the fifth kills it (docs/api-contract.md §5). */
export const MAX_WRONG_CODES = 5;

const smsChallengeKey = (mfaTokenHash: string) => `mfa:sms-code:${mfaTokenHash}`;
const smsReauthenticationKey = (sessionId: string) => `mfa:sms-reauth:${sessionId}`;

/** The code as checked (a backup code normalised), or 400 on `code` when it cannot be one of the factor's. */
function normalizedCode(factor: MfaFactorName, code: string): string {
  if (factor === 'backup_code') {
    const backup = normalizeBackupCode(code);
    if (backup) return backup;
  } else if (/^\d{6}$/.test(code)) return code;
  throw ProblemError.validation({
    code: [
      factor === 'backup_code'
        ? 'must be a backup code such as abcde-fghij'
        : 'must be a string of 6 digits',
    ],
  });
}

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
    private readonly lockout: SecondFactorLockout,
    private readonly userEvents: UserEvents,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private invalidToken() {
    return new ProblemError('invalid-token', {
      detail: 'The MFA token is invalid, used or expired.',
    });
  }

  private async pending(
    project: ResolvedProject,
    mfaToken: string,
  ): Promise<{ hash: string; user: User }> {
    const hash = isTokenShape(mfaToken) ? sha256Hex(mfaToken) : null;
    const token = hash
      ? await this.tokens.findUsable(hash, 'mfa', project.id, this.clock.now())
      : null;
    if (!hash || !token?.userId || token.attempts >= MAX_WRONG_CODES) throw this.invalidToken();
    const user = await this.users.findById(project.id, token.userId);
    if (!user || user.status !== 'active') throw this.invalidToken();
    // The session is due to the password checked at sign-in: it is started only if nothing ended
    // that credential since (the stamp read then, carried by the token).
    if (typeof token.payload.stamp === 'number') user.securityStamp = token.payload.stamp;
    return { hash, user };
  }

  async sendSms(project: ResolvedProject, mfaToken: string, res: Response): Promise<void> {
    const { hash, user } = await this.pending(project, mfaToken);
    await this.textCode(project, user, smsChallengeKey(hash), res, 'mfa_token', 'sign-in');
  }

  /** Re-authentication by SMS: texts a code for the session to present to `POST /v1/auth/reauthenticate`. */
  async sendReauthenticationSms(
    project: ResolvedProject,
    user: User,
    sessionId: string,
    res: Response,
  ): Promise<void> {
    await this.textCode(
      project,
      user,
      smsReauthenticationKey(sessionId),
      res,
      'factor',
      'verification',
    );
  }

  /** Texts a fresh code to the user's enabled SMS factor, kept under `cacheKey` for 10 minutes. */
  private async textCode(
    project: ResolvedProject,
    user: User,
    cacheKey: string,
    res: Response,
    field: string,
    kind: string,
  ): Promise<void> {
    const factor = await this.factors.find(user.id, 'sms');
    if (factor?.status !== 'enabled' || !factor.phoneNumber) {
      throw ProblemError.validation({ [field]: ['SMS is not enabled for this account'] });
    }
    assertSmsCountry(project, factor.phoneNumber, true);
    await enforceSmsLimits(this.rateLimits, res, project, factor.phoneNumber, user.id);
    const code = randomDigits(6);
    await this.cache.set(
      cacheKey,
      codeHash(this.config.auth.encryptionKey, user.id, code),
      SMS_CODE_TTL_MS,
    );
    await this.sms.send({
      to: factor.phoneNumber,
      body: `Your ${project.name} ${kind} code is ${code}. It expires in 10 minutes.`,
    });
  }

  async verify(
    project: ResolvedProject,
    mfaToken: string,
    factor: MfaFactorName,
    code: string,
    meta: RequestMeta,
  ): Promise<{ user: User; session: IssuedSession }> {
    const normalized = normalizedCode(factor, code);
    const { hash, user } = await this.pending(project, mfaToken);
    await this.assertAvailable(user, factor);
    await this.underLockout(project, user, factor, meta, async () => {
      // The attempt is counted against the token before its code is checked (one atomic UPDATE), so
      // concurrent guesses get five checks between them, not five each.
      const attempts = await this.tokens.addAttempt(hash, 'mfa', this.clock.now());
      if (attempts === 0 || attempts > MAX_WRONG_CODES) throw this.invalidToken();
      return this.check(user, smsChallengeKey(hash), factor, normalized);
    });
    const used = await this.dataSource.transaction((manager) =>
      this.tokens.consume(manager, hash, 'mfa', project.id, this.clock.now()),
    );
    // Our own attempt was within the allowance; later concurrent ones may have raised the count since.
    if (!used) throw this.invalidToken();
    const session = await this.completion.startSession(project, user, meta, 'mfa');
    return { user, session };
  }

  /**
   * Re-authentication with a second factor of the signed-in user (`POST /v1/auth/reauthenticate`):
   * the same codes, the same account lockout; an SMS code must have been sent for this session.
   */
  async reauthenticate(
    project: ResolvedProject,
    user: User,
    sessionId: string,
    factor: MfaFactorName,
    code: string,
    meta: RequestMeta,
  ): Promise<void> {
    const normalized = normalizedCode(factor, code);
    await this.assertAvailable(user, factor);
    await this.underLockout(project, user, factor, meta, () =>
      this.check(user, smsReauthenticationKey(sessionId), factor, normalized),
    );
  }

  private async assertAvailable(user: User, factor: MfaFactorName): Promise<void> {
    const available = await this.factors.availableFactors(user.id);
    if (!available.includes(factor))
      throw ProblemError.validation({ factor: [`${factor} is not available for this account`] });
  }

  /**
   * Runs `check` under the account's second-factor lockout: while a lock holds even a right code
   * is refused (429); a wrong one is counted, recorded and answered 401 `invalid-code`.
   */
  private async underLockout(
    project: ResolvedProject,
    user: User,
    factor: MfaFactorName,
    meta: RequestMeta,
    check: () => Promise<boolean>,
  ): Promise<void> {
    const attempt = await this.lockout
      .beginAttempt(project.id, user.id)
      .catch(async (err: unknown) => {
        // Refused before the code is checked: recorded with its reason word (docs/api-contract.md §13).
        const reason = lockoutRefusalReason(err);
        if (reason)
          await this.dataSource.transaction((manager) =>
            this.userEvents.signInFailed(manager, project, {
              userId: user.id,
              meta,
              data: { method: 'mfa', factor, reason },
            }),
          );
        throw err;
      });
    try {
      if (!(await check())) {
        await this.wrongCode(project, user, factor, await attempt.failed(), meta);
        throw new ProblemError('invalid-code', { detail: 'The code is wrong, used or expired.' });
      }
      await attempt.succeeded();
    } finally {
      await attempt.release();
    }
  }

  /** Audit and outbox: a wrong second-factor code, and the lock it started. */
  private async wrongCode(
    project: ResolvedProject,
    user: User,
    factor: string,
    lockStarted: Date | null,
    meta: RequestMeta,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const failure = { userId: user.id, meta };
      await this.userEvents.signInFailed(manager, project, {
        ...failure,
        data: { method: 'mfa', factor, reason: 'mfa_failed' },
      });
      if (lockStarted) {
        await this.userEvents.signInFailed(
          manager,
          project,
          { ...failure, data: { method: 'mfa', locked_until: lockStarted.toISOString() } },
          'user.locked',
        );
      }
    });
  }

  /** Checks and spends the code: a TOTP step, an SMS code (kept under `smsKey`) or a backup code each works once. */
  private async check(
    user: User,
    smsKey: string,
    factor: MfaFactorName,
    code: string,
  ): Promise<boolean> {
    const key = this.config.auth.encryptionKey;
    if (factor === 'backup_code')
      return this.factors.useBackupCode(user.id, codeHash(key, user.id, code), this.clock.now());
    if (factor === 'sms') {
      const cacheKey = smsKey;
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
