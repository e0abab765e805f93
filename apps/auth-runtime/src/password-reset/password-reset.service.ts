import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sha256Hex } from '@gatehouse/crypto';
import {
  EventRecorder,
  LockoutService,
  mailedToCurrentAddress,
  OneTimeTokensRepository,
  PasswordHasher,
  SecondFactorLockout,
  SessionRevocation,
  UsersRepository,
  type RequestMeta,
  type ResolvedProject,
} from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { MailQueue } from '@gatehouse/queue';
import { AccountClaimsService } from '../claims/account-claims.service';
import { BackgroundTasks } from '../common/background-tasks';
import { applicationLink, projectMail } from '../common/mail-links';
import { withQuery } from '../common/redirect-urls';
import { isTokenShape } from '../one-time-tokens/token.dto';
import { PasswordPolicy } from '../accounts/password-policy';
import type { ResetTokenValidResponse } from './reset-token.response';

export const RESET_TTL_MS = 3600_000;

/**
 * Forgot / validate / reset (docs/api-contract.md §5). `forgot` answers before it looks anything up, so known
 * and unknown emails take the same time; a reset revokes every session, clears the lockouts and
 * does not sign in (a user with MFA still meets the second factor at the next sign-in). On an
 * account whose email was never verified, the reset is a claim (AccountClaimsService).
 */
@Injectable()
export class PasswordResetService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly tokens: OneTimeTokensRepository,
    private readonly revocation: SessionRevocation,
    private readonly claims: AccountClaimsService,
    private readonly hasher: PasswordHasher,
    private readonly policy: PasswordPolicy,
    private readonly lockout: LockoutService,
    private readonly mfaLockout: SecondFactorLockout,
    private readonly events: EventRecorder,
    private readonly mail: MailQueue,
    private readonly background: BackgroundTasks,
    private readonly clock: Clock,
  ) {}

  /** `target`: a registered redirect URL the link goes to (the hosted sign-in page), else the project's reset page. */
  forgot(project: ResolvedProject, email: string, target: string | null = null): void {
    this.background.run('password-forgot', async () => {
      const user = await this.users.findByEmail(project.id, email);
      if (!user || user.status !== 'active') return;
      const token = await this.tokens.issue(
        this.dataSource.manager,
        user,
        'password-reset',
        new Date(this.clock.nowMs() + RESET_TTL_MS),
        { email: user.email },
      );
      await this.mail.send(
        projectMail(project, user.email, 'password-reset', {
          link: target
            ? withQuery(target, { token })
            : applicationLink(project, 'password_reset_url', token),
          expires_in_minutes: '60',
        }),
      );
    });
  }

  async validate(project: ResolvedProject, token: string): Promise<ResetTokenValidResponse> {
    const found = isTokenShape(token)
      ? await this.tokens.findUsable(
          sha256Hex(token),
          'password-reset',
          project.id,
          this.clock.now(),
        )
      : null;
    const owner = found?.userId ? await this.users.findById(project.id, found.userId) : null;
    if (!found || !owner || !mailedToCurrentAddress(found, owner))
      throw new ProblemError('invalid-token', {
        detail: 'The reset link is invalid, used or expired.',
      });
    return { valid: true, expires_at: found.expiresAt.toISOString() };
  }

  async reset(
    project: ResolvedProject,
    token: string,
    password: string,
    meta: RequestMeta,
  ): Promise<void> {
    const invalid = new ProblemError('invalid-token', {
      detail: 'The reset link is invalid, used or expired.',
    });
    const hash = isTokenShape(token) ? sha256Hex(token) : null;
    const pending = hash
      ? await this.tokens.findUsable(hash, 'password-reset', project.id, this.clock.now())
      : null;
    const owner = pending?.userId ? await this.users.findById(project.id, pending.userId) : null;
    if (!hash || !pending || !owner || !mailedToCurrentAddress(pending, owner)) throw invalid;
    const problems = this.policy.problems(password, {
      email: owner.email,
      username: owner.username,
    });
    if (problems.length) throw ProblemError.validation({ password: problems });
    const { hash: passwordHash, scheme } = await this.hasher.hash(password);

    await this.dataSource.transaction(async (manager) => {
      const used = await this.tokens.consume(
        manager,
        hash,
        'password-reset',
        project.id,
        this.clock.now(),
      );
      if (!used || used.userId !== owner.id) throw invalid;
      // The address, read again under the row lock: an email change confirmed meanwhile ends the link.
      const current = await this.users.lockById(manager, project.id, owner.id);
      if (!current || !mailedToCurrentAddress(used, current)) throw invalid;
      // The reset proves the address: an account nobody had verified loses what was set up on it.
      await this.claims.claimIfUnverified(
        manager,
        project,
        owner,
        { method: 'password_reset' },
        meta,
      );
      await this.users.setPassword(manager, owner.id, passwordHash, scheme);
      await this.users.bumpSecurityStamp(manager, owner.id);
      await this.tokens.consumeAllOfUser(manager, owner.id, 'password-reset', this.clock.now());
      const revoked = await this.revocation.revokeAll(
        manager,
        owner.id,
        {
          tenantId: owner.tenantId,
          projectId: project.id,
          actorType: 'user',
          actorId: owner.id,
          meta,
        },
        'password_reset',
      );
      await this.events.record(manager, {
        tenantId: owner.tenantId,
        projectId: project.id,
        actorType: 'user',
        actorId: owner.id,
        action: 'password.reset',
        resourceType: 'user',
        resourceId: owner.id,
        meta,
        data: { user: { id: owner.id, email: owner.email }, sessions_revoked: revoked.length },
      });
    });
    await this.lockout.reset(project.id, owner.email, owner.username);
    await this.mfaLockout.reset(project.id, owner.id);
  }
}
