import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sha256Hex } from '@gatehouse/crypto';
import { EventRecorder, type RequestMeta, type ResolvedProject } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { MailQueue } from '@gatehouse/queue';
import { applicationLink } from '../common/mail-links';
import { OneTimeTokensRepository } from '../one-time-tokens/one-time-tokens.repository';
import { isTokenShape } from '../one-time-tokens/token.dto';
import { UsersRepository } from '../users/users.repository';

export const VERIFICATION_TTL_MS = 24 * 3600_000;

@Injectable()
export class EmailVerificationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly tokens: OneTimeTokensRepository,
    private readonly events: EventRecorder,
    private readonly mail: MailQueue,
    private readonly clock: Clock,
  ) {}

  /** Mails a 24-hour verification link to the signed-in user (nothing when already verified). */
  async send(project: ResolvedProject, userId: string): Promise<void> {
    const user = await this.users.findById(project.id, userId);
    if (!user) throw new ProblemError('unauthenticated', { detail: 'A valid session is required.' });
    if (user.emailVerified) return;
    const token = await this.tokens.issue(this.dataSource.manager, user, 'verify-email', new Date(this.clock.nowMs() + VERIFICATION_TTL_MS), { email: user.email });
    await this.mail.send({
      template: 'verify-email',
      to: user.email,
      projectId: project.id,
      projectName: project.name,
      variables: { link: applicationLink(project, 'email_verification_url', token), expires_in_hours: '24' },
    });
  }

  async confirm(project: ResolvedProject, token: string, meta: RequestMeta) {
    const invalid = new ProblemError('invalid-token', { detail: 'The verification link is invalid, used or expired.' });
    if (!isTokenShape(token)) throw invalid;
    return this.dataSource.transaction(async (manager) => {
      const used = await this.tokens.consume(manager, sha256Hex(token), 'verify-email', project.id, this.clock.now());
      const user = used?.userId ? await this.users.findById(project.id, used.userId, manager) : null;
      if (!used || !user || used.payload.email !== user.email) throw invalid;
      await this.users.setEmailVerified(manager, user.id);
      await this.events.record(manager, {
        tenantId: user.tenantId,
        projectId: project.id,
        actorType: 'user',
        actorId: user.id,
        action: 'email.verified',
        resourceType: 'user',
        resourceId: user.id,
        meta,
        data: { user: { id: user.id, email: user.email } },
      });
      return { user: { id: user.id, email: user.email, email_verified: true } };
    });
  }
}
