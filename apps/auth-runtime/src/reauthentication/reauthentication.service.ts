import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { User } from '@gatehouse/entities';
import { UsersRepository, type RequestMeta, type ResolvedProject } from '@gatehouse/identity';
import { ProblemError } from '@gatehouse/problem-details';
import { AccountsService } from '../accounts/accounts.service';
import { MfaChallengeService } from '../mfa/mfa-challenge.service';
import { PasskeysService } from '../passkeys/passkeys.service';
import { SessionsService } from '../sessions/sessions.service';
import type { ReauthenticateDto } from './reauthenticate.dto';
import { activeUser } from '../users/active-user';

/** The signed-in caller: their session's claims. */
export interface Reauthenticating {
  sub: string;
  sid: string;
}

type Proof =
  | { kind: 'password'; password: string }
  | { kind: 'mfa'; factor: NonNullable<ReauthenticateDto['factor']>; code: string }
  | { kind: 'passkey'; credential: Record<string, unknown> };

const PROOF_FIELDS = ['password', 'factor', 'code', 'credential'] as const;

/** Exactly one proof, or 400 naming what is missing or extra. */
function proofOf(dto: ReauthenticateDto): Proof {
  const forms = [
    dto.password !== undefined,
    dto.factor !== undefined || dto.code !== undefined,
    dto.credential !== undefined,
  ].filter(Boolean).length;
  if (forms === 0)
    throw ProblemError.validation({
      password: ['is required, unless factor and code, or credential, are given'],
    });
  if (forms > 1) {
    const given = PROOF_FIELDS.filter((f) => dto[f] !== undefined);
    throw ProblemError.validation(
      Object.fromEntries(
        given.map((f) => [f, ['give one proof only: password, factor and code, or credential']]),
      ),
    );
  }
  if (dto.password !== undefined) return { kind: 'password', password: dto.password };
  if (dto.credential !== undefined) return { kind: 'passkey', credential: dto.credential };
  if (dto.factor === undefined)
    throw ProblemError.validation({ factor: ['is required with code'] });
  if (dto.code === undefined) throw ProblemError.validation({ code: ['is required with factor'] });
  return { kind: 'mfa', factor: dto.factor, code: dto.code };
}

/**
 * Step-up (docs/security.md): a signed-in user proves a credential again and the session's
 * `auth_time` becomes now, so sensitive actions (`@RequiresRecentAuthentication()`) are allowed
 * for the project's `reauthentication_max_age_seconds`. Wrong proofs count where they would at
 * sign-in: a password toward the password lockout, a code toward the second-factor lockout; a
 * refused passkey is recorded as at sign-in.
 */
@Injectable()
export class ReauthenticationService {
  constructor(
    private readonly users: UsersRepository,
    private readonly accounts: AccountsService,
    private readonly mfa: MfaChallengeService,
    private readonly passkeys: PasskeysService,
    private readonly sessions: SessionsService,
  ) {}

  private async user(project: ResolvedProject, caller: Reauthenticating): Promise<User> {
    const user = await activeUser(this.users, project.id, caller.sub);
    return user;
  }

  async reauthenticate(
    project: ResolvedProject,
    caller: Reauthenticating,
    dto: ReauthenticateDto,
    meta: RequestMeta,
  ) {
    const proof = proofOf(dto);
    const user = await this.user(project, caller);
    if (proof.kind === 'password')
      await this.accounts.verifyOwnPassword(project, user, proof.password, meta);
    else if (proof.kind === 'mfa')
      await this.mfa.reauthenticate(project, user, caller.sid, proof.factor, proof.code, meta);
    else {
      const owner = await this.passkeys.authenticate(project, proof.credential, meta);
      if (owner.id !== user.id)
        throw new ProblemError('invalid-credentials', {
          detail: 'The passkey could not be verified.',
        });
    }
    return this.sessions.reauthenticated(project, user, caller.sid, proof.kind, meta);
  }

  /** Texts a code to the user's SMS factor for `{factor: "sms", code}`. */
  async sendSms(project: ResolvedProject, caller: Reauthenticating, res: Response): Promise<void> {
    await this.mfa.sendReauthenticationSms(
      project,
      await this.user(project, caller),
      caller.sid,
      res,
    );
  }
}
