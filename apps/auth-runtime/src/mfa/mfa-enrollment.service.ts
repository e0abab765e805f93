import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { decryptSecretString, encryptSecret, randomDigits, safeEqual } from '@gatehouse/crypto';
import {
  EventRecorder,
  MfaFactorsRepository,
  totpSecretAad,
  UsersRepository,
  type RequestMeta,
  type ResolvedProject,
} from '@gatehouse/identity';
import { RateLimitsService } from '@gatehouse/http';
import { CacheStore, Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { SmsQueue } from '@gatehouse/queue';
import { SessionsService } from '../sessions/sessions.service';
import {
  codeHash,
  matchTotpStep,
  newBackupCodes,
  newTotpSecret,
  normalizeBackupCode,
  totpUri,
} from './mfa-codes';
import { assertSmsCountry, enforceSmsLimits } from './sms-policy';
import { activeUser } from '../users/active-user';

export const SMS_CODE_TTL_MS = 10 * 60_000;
const MAX_CODE_ATTEMPTS = 5;

interface PendingSms {
  phone: string;
  hash: string;
  attempts: number;
}

/** The signed-in user and their session (access-token claims). */
type Caller = { sub: string; sid: string };

/**
 * Enrolling and removing factors for a signed-in user (TOTP with backup codes, SMS). What adds a
 * factor or codes is written while the user's row is held and the caller's session is live, so a
 * claim of the account in progress cannot be outlived by a factor its creator was adding.
 */
@Injectable()
export class MfaEnrollmentService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly factors: MfaFactorsRepository,
    private readonly users: UsersRepository,
    private readonly sessions: SessionsService,
    private readonly events: EventRecorder,
    private readonly cache: CacheStore,
    private readonly sms: SmsQueue,
    private readonly rateLimits: RateLimitsService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private async user(project: ResolvedProject, userId: string) {
    const user = await activeUser(this.users, project.id, userId);
    return user;
  }

  async setupTotp(project: ResolvedProject, caller: Caller) {
    const user = await this.user(project, caller.sub);
    const existing = await this.factors.find(user.id, 'totp');
    if (existing?.status === 'enabled')
      throw new ProblemError('conflict', {
        detail: 'TOTP is already enabled; remove it first to enrol again.',
      });
    const secret = newTotpSecret();
    const codes = newBackupCodes();
    await this.dataSource.transaction(async (manager) => {
      await this.sessions.lockForCredentialChange(manager, caller);
      await this.factors.upsertPending(manager, {
        tenantId: user.tenantId,
        projectId: project.id,
        userId: user.id,
        type: 'totp',
        secretEncrypted: encryptSecret(
          this.config.auth.encryptionKey,
          secret,
          totpSecretAad(user.id),
        ),
        phoneNumber: null,
      });
      await this.factors.replaceBackupCodes(
        manager,
        user.id,
        codes.map((c) =>
          codeHash(this.config.auth.encryptionKey, user.id, normalizeBackupCode(c)!),
        ),
      );
    });
    return { secret, qr_code_url: totpUri(project.name, user.email, secret), backup_codes: codes };
  }

  async verifyTotp(project: ResolvedProject, caller: Caller, code: string, meta: RequestMeta) {
    const user = await this.user(project, caller.sub);
    const factor = await this.factors.find(user.id, 'totp');
    if (!factor || factor.status !== 'pending' || !factor.secretEncrypted) {
      throw new ProblemError('conflict', {
        detail: 'There is no pending TOTP setup; call /v1/auth/mfa/totp/setup first.',
      });
    }
    const secret = decryptSecretString(
      this.config.auth.encryptionKey,
      factor.secretEncrypted,
      totpSecretAad(user.id),
    );
    const step = matchTotpStep(secret, code, Math.floor(this.clock.nowMs() / 1000));
    if (step === null)
      throw new ProblemError('invalid-code', { detail: 'The code is wrong or expired.' });
    await this.dataSource.transaction(async (manager) => {
      await this.sessions.lockForCredentialChange(manager, caller);
      const enabled = await this.factors.enable(
        manager,
        user.id,
        'totp',
        this.clock.now(),
        String(step),
      );
      if (!enabled)
        throw new ProblemError('conflict', { detail: 'There is no pending TOTP setup.' });
      await this.recordChange(manager, user, 'mfa.enabled', 'totp', meta);
    });
    return { factor: 'totp', enabled: true };
  }

  async setupSms(
    project: ResolvedProject,
    userId: string,
    phone: string,
    res: Response,
  ): Promise<void> {
    const user = await this.user(project, userId);
    assertSmsCountry(project, phone, false);
    const existing = await this.factors.find(user.id, 'sms');
    if (existing?.status === 'enabled')
      throw new ProblemError('conflict', {
        detail: 'SMS is already enabled; remove it first to change the number.',
      });
    await enforceSmsLimits(this.rateLimits, res, project, phone, user.id);
    const code = randomDigits(6);
    const pending: PendingSms = {
      phone,
      hash: codeHash(this.config.auth.encryptionKey, user.id, code),
      attempts: 0,
    };
    await this.cache.set(`mfa:sms-setup:${user.id}`, JSON.stringify(pending), SMS_CODE_TTL_MS);
    await this.sms.send({
      to: phone,
      body: `Your ${project.name} verification code is ${code}. It expires in 10 minutes.`,
    });
  }

  async verifySms(project: ResolvedProject, caller: Caller, code: string, meta: RequestMeta) {
    const user = await this.user(project, caller.sub);
    const key = `mfa:sms-setup:${user.id}`;
    const raw = await this.cache.get(key);
    if (!raw) throw new ProblemError('invalid-code', { detail: 'The code is wrong or expired.' });
    const pending = JSON.parse(raw) as PendingSms;
    if (!safeEqual(pending.hash, codeHash(this.config.auth.encryptionKey, user.id, code))) {
      pending.attempts += 1;
      if (pending.attempts >= MAX_CODE_ATTEMPTS) await this.cache.del(key);
      else await this.cache.set(key, JSON.stringify(pending), SMS_CODE_TTL_MS);
      throw new ProblemError('invalid-code', { detail: 'The code is wrong or expired.' });
    }
    if ((await this.cache.getDel(key)) === null)
      throw new ProblemError('invalid-code', { detail: 'The code is wrong or expired.' });
    await this.dataSource.transaction(async (manager) => {
      await this.sessions.lockForCredentialChange(manager, caller);
      await this.factors.upsertPending(manager, {
        tenantId: user.tenantId,
        projectId: project.id,
        userId: user.id,
        type: 'sms',
        secretEncrypted: null,
        phoneNumber: pending.phone,
      });
      await this.factors.enable(manager, user.id, 'sms', this.clock.now(), null);
      await this.recordChange(manager, user, 'mfa.enabled', 'sms', meta);
    });
    return { factor: 'sms', enabled: true };
  }

  /** Ten new backup codes for a user with an enabled factor (409 otherwise); the old ones stop working. */
  async regenerateBackupCodes(
    project: ResolvedProject,
    caller: Caller,
    meta: RequestMeta,
  ): Promise<{ backup_codes: string[] }> {
    const user = await this.user(project, caller.sub);
    const codes = newBackupCodes();
    await this.dataSource.transaction(async (manager) => {
      await this.sessions.lockForCredentialChange(manager, caller);
      if ((await this.factors.listEnabled(user.id, manager)).length === 0) {
        throw new ProblemError('conflict', {
          detail: 'Backup codes need an enabled second factor (TOTP or SMS).',
        });
      }
      await this.factors.replaceBackupCodes(
        manager,
        user.id,
        codes.map((c) =>
          codeHash(this.config.auth.encryptionKey, user.id, normalizeBackupCode(c)!),
        ),
      );
      await this.recordChange(manager, user, 'mfa.backup_codes.regenerated', 'backup_code', meta);
    });
    return { backup_codes: codes };
  }

  async remove(
    project: ResolvedProject,
    userId: string,
    factor: string,
    meta: RequestMeta,
  ): Promise<void> {
    const user = await this.user(project, userId);
    if (factor !== 'totp' && factor !== 'sms')
      throw new ProblemError('not-found', { detail: 'No such factor.' });
    await this.dataSource.transaction(async (manager) => {
      const removed = await this.factors.remove(manager, user.id, factor);
      if (!removed) throw new ProblemError('not-found', { detail: 'This factor is not set up.' });
      await this.factors.deleteBackupCodesIfNoFactor(manager, user.id);
      await this.recordChange(manager, user, 'mfa.disabled', factor, meta);
    });
  }

  private recordChange(
    manager: Parameters<EventRecorder['record']>[0],
    user: { id: string; tenantId: string; projectId: string },
    action: string,
    factor: string,
    meta: RequestMeta,
  ) {
    return this.events.record(manager, {
      tenantId: user.tenantId,
      projectId: user.projectId,
      actorType: 'user',
      actorId: user.id,
      action,
      resourceType: 'user',
      resourceId: user.id,
      meta,
      data: { user: { id: user.id }, factor },
    });
  }
}
