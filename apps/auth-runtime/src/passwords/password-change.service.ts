import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  EventRecorder,
  OneTimeTokensRepository,
  PasswordHasher,
  SessionRevocation,
  UsersRepository,
  type RequestMeta,
  type ResolvedProject,
} from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { AccountsService } from '../accounts/accounts.service';
import { SessionsService } from '../sessions/sessions.service';
import { PasswordPolicy } from '../accounts/password-policy';
import { activeUser } from '../users/active-user';
import { byUser } from '../users/user-actor';

/**
 * `POST /v1/auth/password/change` (a sensitive action: the route needs a recent authentication):
 * the current password is proven again (it counts toward the lockout like a sign-in), the new one
 * meets the policy, and every other session of the user ends, as do outstanding reset links.
 */
@Injectable()
export class PasswordChangeService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly accounts: AccountsService,
    private readonly sessions: SessionsService,
    private readonly revocation: SessionRevocation,
    private readonly tokens: OneTimeTokensRepository,
    private readonly hasher: PasswordHasher,
    private readonly policy: PasswordPolicy,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  async change(
    project: ResolvedProject,
    caller: { sub: string; sid: string },
    current: string,
    next: string,
    meta: RequestMeta,
  ): Promise<void> {
    const user = await activeUser(this.users, project.id, caller.sub);
    const problems = this.policy.problems(next, { email: user.email, username: user.username });
    if (problems.length) throw ProblemError.validation({ new_password: problems });
    await this.accounts.verifyOwnPassword(project, user, current, meta);
    const { hash, scheme } = await this.hasher.hash(next);
    await this.dataSource.transaction(async (manager) => {
      await this.sessions.lockForCredentialChange(manager, caller);
      await this.users.setPassword(manager, user.id, hash, scheme);
      await this.users.bumpSecurityStamp(manager, user.id);
      await this.tokens.consumeAllOfUser(manager, user.id, 'password-reset', this.clock.now());
      const by = byUser(user.tenantId, project.id, user.id, meta);
      const revoked = await this.revocation.revokeAll(
        manager,
        user.id,
        by,
        'password_changed',
        caller.sid,
      );
      await this.events.record(manager, {
        ...by,
        action: 'password.changed',
        resourceType: 'user',
        resourceId: user.id,
        data: { user: { id: user.id, email: user.email }, sessions_revoked: revoked.length },
      });
    });
  }
}
