import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { User } from '@gatehouse/entities';
import type { RequestMeta, ResolvedProject } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { MfaFactorsRepository, OneTimeTokensRepository } from '@gatehouse/identity';
import { SessionsService, type AuthMethod, type IssuedSession } from '../sessions/sessions.service';

export const MFA_TOKEN_TTL_MS = 5 * 60_000;

export interface MfaChallenge {
  mfa_required: true;
  mfa_token: string;
  available_factors: string[];
}

export type SignInOutcome =
  | { kind: 'session'; user: User; session: IssuedSession }
  | { kind: 'mfa'; user: User; challenge: MfaChallenge };

/**
 * Every way in ends here once the first factor is proven (password, magic link, OAuth). A user
 * with an enabled MFA factor gets a challenge (an opaque 5-minute `mfa_token`), never a session;
 * passkeys and a completed MFA step satisfy MFA themselves and go straight to a session.
 */
@Injectable()
export class SignInCompletionService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sessions: SessionsService,
    private readonly factors: MfaFactorsRepository,
    private readonly tokens: OneTimeTokensRepository,
    private readonly clock: Clock,
  ) {}

  async complete(
    project: ResolvedProject,
    user: User,
    meta: RequestMeta,
    method: AuthMethod,
  ): Promise<SignInOutcome> {
    if (method !== 'passkey' && method !== 'mfa') {
      const available = await this.factors.availableFactors(user.id);
      if (available.some((f) => f === 'totp' || f === 'sms')) {
        const mfaToken = await this.tokens.issue(
          this.dataSource.manager,
          user,
          'mfa',
          new Date(this.clock.nowMs() + MFA_TOKEN_TTL_MS),
          { method, stamp: user.securityStamp ?? 0 },
        );
        return {
          kind: 'mfa',
          user,
          challenge: { mfa_required: true, mfa_token: mfaToken, available_factors: available },
        };
      }
    }
    return { kind: 'session', user, session: await this.startSession(project, user, meta, method) };
  }

  async startSession(
    project: ResolvedProject,
    user: User,
    meta: RequestMeta,
    method: AuthMethod,
  ): Promise<IssuedSession> {
    return this.dataSource.transaction((manager) =>
      this.sessions.start(manager, project, user, meta, method),
    );
  }
}
