import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { uniqueViolation, type User } from '@gatehouse/entities';
import {
  EventRecorder,
  OAuthIdentitiesRepository,
  UsersRepository,
  type RequestMeta,
  type ResolvedProject,
} from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { AccountClaimsService } from '../claims/account-claims.service';
import { UserEvents } from '../sign-in/user-events';
import { OAuthFailure } from './oauth-failure';
import type { ProviderIdentity } from './provider-identity';

/**
 * Whose account a provider's identity signs in to (docs/oauth.md): the user it is linked to; else
 * the user with the same email, linked only when the provider asserts the email verified (which
 * claims an unverified account); else a new user. Concurrent callbacks of one identity end on one
 * user.
 */
@Injectable()
export class OAuthAccountsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly identities: OAuthIdentitiesRepository,
    private readonly users: UsersRepository,
    private readonly claims: AccountClaimsService,
    private readonly events: EventRecorder,
    private readonly userEvents: UserEvents,
    private readonly clock: Clock,
  ) {}

  /** Find by (provider, subject), else link by a provider-verified email, else create. */
  async resolveUser(
    project: ResolvedProject,
    identity: ProviderIdentity,
    meta: RequestMeta,
  ): Promise<User> {
    try {
      return await this.dataSource.transaction((m) =>
        this.resolveUserIn(m, project, identity, meta),
      );
    } catch (err) {
      // A concurrent callback created the same user or identity first: the second pass finds it.
      if (uniqueViolation(err) === null) throw err;
      return this.dataSource.transaction((m) => this.resolveUserIn(m, project, identity, meta));
    }
  }

  private async resolveUserIn(
    m: EntityManager,
    project: ResolvedProject,
    id: ProviderIdentity,
    meta: RequestMeta,
  ): Promise<User> {
    const now = this.clock.now();
    const known = await this.identities.find(m, project.id, id.provider, id.subject);
    if (known) {
      const user = await this.users.findById(project.id, known.userId, m);
      if (!user) throw new Error('OAuth identity without its user');
      if (user.status !== 'active')
        throw new OAuthFailure('account_disabled', 'the user is disabled');
      await this.identities.touch(m, known.id, id.email, now);
      if (
        !user.emailVerified &&
        id.emailVerified &&
        id.email?.toLowerCase() === user.email.toLowerCase()
      ) {
        await this.claims.verifyForCreator(m, project, user, id.provider, meta);
      }
      return user;
    }
    if (!id.email) throw new OAuthFailure('provider_error', 'the provider gave no email address');

    const existing = await this.users.findByEmail(project.id, id.email, m);
    if (existing) {
      if (!id.emailVerified)
        throw new OAuthFailure(
          'account_exists',
          'an account has this email and the provider does not assert it is verified',
        );
      if (existing.status !== 'active')
        throw new OAuthFailure('account_disabled', 'the user is disabled');
      const linked = await this.link(m, project, existing, id, meta, now, false);
      // The provider proved the address: an account nobody had verified loses what was set up on it.
      await this.claims.claimIfUnverified(
        m,
        project,
        existing,
        { method: 'oauth', provider: id.provider, identityId: linked },
        meta,
      );
      return existing;
    }

    const user = await this.users.create(m, {
      tenantId: project.tenantId,
      projectId: project.id,
      email: id.email,
      username: null,
      metadata: {},
      emailVerified: id.emailVerified,
    });
    await this.userEvents.created(m, project, user, meta, {
      method: 'oauth',
      provider: id.provider,
    });
    await this.link(m, project, user, id, meta, now, true);
    return user;
  }

  /** Links the identity to the user; returns the identity's id. */
  private async link(
    m: EntityManager,
    project: ResolvedProject,
    user: User,
    id: ProviderIdentity,
    meta: RequestMeta,
    now: Date,
    newUser: boolean,
  ): Promise<string> {
    const identity = await this.identities.create(m, {
      tenantId: project.tenantId,
      projectId: project.id,
      userId: user.id,
      provider: id.provider,
      subject: id.subject,
      email: id.email,
      lastUsedAt: now,
    });
    await this.events.record(m, {
      tenantId: project.tenantId,
      projectId: project.id,
      actorType: 'user',
      actorId: user.id,
      action: 'oauth.linked',
      resourceType: 'user',
      resourceId: user.id,
      meta,
      data: {
        user: { id: user.id, email: user.email },
        identity: {
          id: identity.id,
          provider: id.provider,
          subject: id.subject,
          email: id.email,
          email_verified: id.emailVerified,
        },
        new_user: newUser,
      },
    });
    return identity.id;
  }
}
