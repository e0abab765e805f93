import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { uniqueViolation } from '@gatehouse/entities';
import { sha256Hex } from '@gatehouse/crypto';
import {
  EventRecorder,
  OneTimeTokensRepository,
  UsersRepository,
  type RequestMeta,
  type ResolvedProject,
} from '@gatehouse/identity';
import { RateLimitsService } from '@gatehouse/http';
import { RATE_LIMITS } from '../common/rate-limits';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { MailQueue } from '@gatehouse/queue';
import { OrganizationDomainsRepository } from '@gatehouse/organizations';
import { applicationLink, projectMail } from '../common/mail-links';
import { isTokenShape } from '../one-time-tokens/token.dto';
import { SessionsService } from '../sessions/sessions.service';
import type { EmailConfirmedResponse } from './email-confirmed.response';
import { activeUser } from '../users/active-user';
import { enrolmentOf, recordDomainJoins } from '../users/domain-enrollment';
import { byUser } from '../users/user-actor';

export const VERIFICATION_TTL_MS = 24 * 3600_000;

/**
 * Proving an email address: verifying the account's own (`verify-email`), and changing it to a new
 * one (`email-change`: the change applies only once the new address confirms it). Both mails link
 * to the application's `email_verification_url` and either token is confirmed by the same call.
 */
@Injectable()
export class EmailVerificationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly tokens: OneTimeTokensRepository,
    private readonly sessions: SessionsService,
    private readonly events: EventRecorder,
    private readonly domains: OrganizationDomainsRepository,
    private readonly rateLimits: RateLimitsService,
    private readonly mail: MailQueue,
    private readonly clock: Clock,
  ) {}

  /** Mails a 24-hour verification link to the signed-in user (nothing when already verified). */
  async send(project: ResolvedProject, userId: string): Promise<void> {
    const user = await this.users.findById(project.id, userId);
    if (!user)
      throw new ProblemError('unauthenticated', { detail: 'A valid session is required.' });
    if (user.emailVerified) return;
    const token = await this.tokens.issue(
      this.dataSource.manager,
      user,
      'verify-email',
      new Date(this.clock.nowMs() + VERIFICATION_TTL_MS),
      { email: user.email },
    );
    await this.mail.send(
      projectMail(project, user.email, 'verify-email', {
        link: applicationLink(project, 'email_verification_url', token),
        expires_in_hours: '24',
      }),
    );
  }

  /**
   * Starts an email change of the signed-in user (a sensitive action: recent authentication
   * required by the route): a 24-hour link to the new address; the account keeps its address until
   * the link is confirmed. Answers the same whether or not the new address is taken (the
   * confirmation says so, to the address's owner only). Three a hour per user.
   */
  async requestChange(
    project: ResolvedProject,
    caller: { sub: string; sid: string },
    newEmail: string,
    res: Response,
  ): Promise<void> {
    const user = await activeUser(this.users, project.id, caller.sub);
    if (newEmail.toLowerCase() === user.email.toLowerCase())
      throw ProblemError.validation({ email: ['is already the email address of this account'] });
    await this.rateLimits.enforce(res, RATE_LIMITS.emailChange, [project.id, user.id]);
    // Issued while the user's row is held and the session is live: a claim of the account in
    // progress cannot be outlived by a change its creator was requesting.
    const token = await this.dataSource.transaction(async (manager) => {
      await this.sessions.lockForCredentialChange(manager, caller);
      return this.tokens.issue(
        manager,
        user,
        'email-change',
        new Date(this.clock.nowMs() + VERIFICATION_TTL_MS),
        { email: newEmail, previous: user.email },
      );
    });
    await this.mail.send(
      projectMail(project, newEmail, 'email-change', {
        link: applicationLink(project, 'email_verification_url', token),
        expires_in_hours: '24',
      }),
    );
  }

  /**
   * Confirms a verification token (the account's email becomes verified) or an email-change token
   * (the account's email becomes the new, verified address; 409 when another account took it
   * meanwhile, and the token stays usable; the old address is told).
   */
  async confirm(
    project: ResolvedProject,
    token: string,
    meta: RequestMeta,
  ): Promise<EmailConfirmedResponse> {
    const invalid = new ProblemError('invalid-token', {
      detail: 'The verification link is invalid, used or expired.',
    });
    if (!isTokenShape(token)) throw invalid;
    const outcome = await this.dataSource
      .transaction(async (manager) => {
        const used = await this.tokens.consume(
          manager,
          sha256Hex(token),
          ['verify-email', 'email-change'],
          project.id,
          this.clock.now(),
        );
        const user = used?.userId
          ? await this.users.lockById(manager, project.id, used.userId)
          : null;
        const change = used?.purpose === 'email-change';
        // A verification names the address it was sent to; a change, the address it replaces.
        if (!used || !user || (change ? used.payload.previous : used.payload.email) !== user.email)
          throw invalid;
        const by = byUser(user.tenantId, project.id, user.id, meta);
        const previous = user.email;
        if (change) {
          const email = String(used.payload.email);
          const taken = await this.users.findByEmail(project.id, email, manager);
          if (taken && taken.id !== user.id) throw this.emailTaken();
          await this.users.changeEmail(manager, user.id, email);
          user.email = email;
          // Every link mailed to the old address (reset, magic link, verification) ends with it.
          await this.tokens.consumeAllOfUser(manager, user.id, 'any', this.clock.now());
          await this.events.record(manager, {
            ...by,
            action: 'user.updated',
            resourceType: 'user',
            resourceId: user.id,
            data: {
              user: { id: user.id, email },
              reason: 'email_changed',
              changes: { email: { from: previous, to: email }, email_verified: true },
            },
          });
        } else {
          await this.users.setEmailVerified(manager, user.id);
        }
        await this.tokens.consumeAllOfUser(manager, user.id, 'verify-email', this.clock.now());
        await this.events.record(manager, {
          ...by,
          action: 'email.verified',
          resourceType: 'user',
          resourceId: user.id,
          data: { user: { id: user.id, email: user.email } },
        });
        // The verified address may be at an auto-join domain of the project (§14).
        user.emailVerified = true;
        const enrol = enrolmentOf(user);
        if (enrol) {
          const joined = await this.domains.autoJoin(manager, { userId: user.id, ...enrol });
          await recordDomainJoins(this.events, manager, user, joined, meta, enrol.domain);
        }
        return { user, previous: change ? previous : null };
      })
      .catch((err: unknown) => {
        const constraint = uniqueViolation(err);
        throw constraint === 'users_project_email_uq' ? this.emailTaken() : err;
      });
    if (outcome.previous !== null) {
      await this.mail.send(
        projectMail(project, outcome.previous, 'email-changed', { new_email: outcome.user.email }),
      );
    }
    return { user: { id: outcome.user.id, email: outcome.user.email, email_verified: true } };
  }

  private emailTaken() {
    return new ProblemError('conflict', {
      detail: 'Another account has this email address.',
      errors: { email: ['is already registered'] },
    });
  }
}
