import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { uniqueViolation } from '@gatehouse/entities';
import type { PasswordCredential, User } from '@gatehouse/entities';
import {
  LockoutService,
  lockoutRefusalReason,
  normalizeIdentifier,
  PasswordHasher,
  UsersRepository,
  type ProjectKeyMatch,
  type RequestMeta,
  type ResolvedProject,
  type VerifiedAccessToken,
} from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { UserEvents } from '../sign-in/user-events';
import { PasswordMigrationService } from './password-migration.service';
import { PasswordPolicy } from './password-policy';
import { SessionsService, type IssuedSession } from '../sessions/sessions.service';
import type { SignInDto } from './dto/sign-in.dto';
import type { SignUpDto } from './dto/sign-up.dto';
import type { MeResponse, NoCurrentUserResponse } from './me.response';

const METADATA_MAX_BYTES = 8 * 1024;

export interface SignedIn {
  user: User;
  session: IssuedSession;
}

/** The order `user.mfa_factors` of `/me` lists the enabled factors in. */
const MFA_FACTOR_ORDER = ['totp', 'sms', 'passkey', 'backup_code'];

/** Sign-up and password sign-in (docs/api-contract.md §3) and the current-user view. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
    private readonly policy: PasswordPolicy,
    private readonly lockout: LockoutService,
    private readonly userEvents: UserEvents,
    private readonly clock: Clock,
    private readonly migration: PasswordMigrationService,
  ) {}

  async signUp(project: ResolvedProject, dto: SignUpDto, meta: RequestMeta): Promise<SignedIn> {
    const email = dto.email.trim();
    const username = dto.username?.toLowerCase() ?? null;
    const errors: Record<string, string[]> = {};
    const pw = this.policy.problems(dto.password, { email, username });
    if (pw.length) errors.password = pw;
    if (
      dto.metadata !== undefined &&
      Buffer.byteLength(JSON.stringify(dto.metadata)) > METADATA_MAX_BYTES
    ) {
      errors.metadata = ['must be at most 8 KiB as JSON'];
    }
    if (Object.keys(errors).length) throw ProblemError.validation(errors);

    const { hash, scheme } = await this.hasher.hash(dto.password);
    try {
      return await this.dataSource.transaction(async (manager) => {
        const user = await this.users.create(manager, {
          tenantId: project.tenantId,
          projectId: project.id,
          email,
          username,
          metadata: dto.metadata ?? {},
        });
        await this.users.setPassword(manager, user.id, hash, scheme);
        await this.userEvents.created(manager, project, user, meta);
        const session = await this.sessions.start(manager, project, user, meta, 'password');
        return { user, session };
      });
    } catch (err) {
      const constraint = uniqueViolation(err);
      if (constraint === 'users_project_email_uq')
        throw new ProblemError('conflict', {
          detail: 'An account with this email already exists.',
          errors: { email: ['is already registered'] },
        });
      if (constraint === 'users_project_username_uq')
        throw new ProblemError('conflict', {
          detail: 'This username is taken.',
          errors: { username: ['is already taken'] },
        });
      throw err;
    }
  }

  /**
   * Password sign-in after the rate limit: lockout, then credentials. Unknown identifiers cost the
   * same bcrypt comparison and get the same answer as a wrong password.
   */
  async verifyPassword(project: ResolvedProject, dto: SignInDto, meta: RequestMeta): Promise<User> {
    const identifier = normalizeIdentifier(dto.identifier);
    const { user, credential } = await this.checkPassword(project, identifier, dto.password, meta);
    if (user.status !== 'active') {
      await this.recordSignInFailures(project, identifier, user.id, meta, null, 'disabled');
      throw new ProblemError('account-disabled', { detail: 'This account has been disabled.' });
    }
    if (project.settings.require_email_verification === true && !user.emailVerified) {
      throw new ProblemError('forbidden', {
        detail: 'Verify your email address before signing in with a password.',
      });
    }
    await this.upgradeHash(user.id, credential, dto.password);
    return user;
  }

  /**
   * The signed-in user proves their password again (re-authentication, password change): the same
   * lockout, counted under their email, and the same answers as sign-in (401, 429).
   */
  async verifyOwnPassword(
    project: ResolvedProject,
    user: User,
    password: string,
    meta: RequestMeta,
  ): Promise<void> {
    const { user: found, credential } = await this.checkPassword(
      project,
      normalizeIdentifier(user.email),
      password,
      meta,
    );
    if (found.id !== user.id)
      throw new ProblemError('invalid-credentials', {
        detail: 'The identifier or password is incorrect.',
      });
    await this.upgradeHash(user.id, credential, password);
  }

  /** A right password whose stored hash is of an older scheme or cost is hashed again (docs/api-contract.md §3). */
  private async upgradeHash(
    userId: string,
    credential: Pick<PasswordCredential, 'passwordHash' | 'scheme'> | null,
    password: string,
  ): Promise<void> {
    if (!credential || !this.hasher.needsRehash(credential.passwordHash, credential.scheme)) return;
    const { hash, scheme } = await this.hasher.hash(password);
    await this.users.setPassword(this.dataSource.manager, userId, hash, scheme);
  }

  /**
   * The attempt takes one of the identifier's five slots before its password is checked, so
   * concurrent guesses cannot all slip past the lock that the first five of them earn. The right
   * password ends the streak of failures, whatever is refused next.
   */
  private async checkPassword(
    project: ResolvedProject,
    identifier: string,
    password: string,
    meta: RequestMeta,
  ) {
    const attempt = await this.lockout
      .beginAttempt(project.id, identifier)
      .catch(async (err: unknown) => {
        // Refused before the password is checked: recorded with its reason word (docs/api-contract.md §13), as
        // often as a wrong password would be (the route's rate limit comes first).
        const reason = lockoutRefusalReason(err);
        if (reason)
          await this.recordSignInFailures(
            project,
            identifier,
            (await this.users.findByIdentifier(project.id, identifier))?.user.id ?? null,
            meta,
            null,
            reason,
          );
        throw err;
      });
    try {
      let found = await this.users.findByIdentifier(project.id, identifier);
      let ok = found?.credential
        ? await this.hasher.verify(
            password,
            found.credential.passwordHash,
            found.credential.scheme,
            { projectId: project.id, userId: found.user.id },
          )
        : await this.hasher.verifyDummy(password);
      if (!ok && identifier.includes('@') && this.migration.applies(project)) {
        if (!found || (found.user.needsMigration && !found.credential)) {
          // Lazy migration: an email we do not know, or an imported user whose password is still in the old system.
          const migrated = await this.migration.migrate(
            project,
            identifier,
            password,
            found?.user ?? null,
            meta,
          );
          if (migrated) {
            // As the migration read them under its lock: a claim committed since moved the stamp, and no session is written.
            found = migrated;
            ok = true;
          }
        } else {
          // A known email's wrong password takes as long as the call an unknown one makes.
          await this.migration.waitAsLongAsACall(project);
        }
      }
      if (!found || !ok) {
        const lockStarted = await attempt.failed();
        await this.recordSignInFailures(
          project,
          identifier,
          found?.user.id ?? null,
          meta,
          lockStarted,
          'invalid_credentials',
        );
        throw new ProblemError('invalid-credentials', {
          detail: 'The identifier or password is incorrect.',
        });
      }
      await attempt.succeeded(found.user.email, found.user.username);
      return found;
    } finally {
      await attempt.release();
    }
  }

  /** Audit and outbox: a refused password sign-in (`reason`) and/or the lock it started. */
  private async recordSignInFailures(
    project: ResolvedProject,
    identifier: string,
    userId: string | null,
    meta: RequestMeta,
    lockStarted: Date | null,
    reason: string | null,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const failure = { userId, meta };
      if (reason)
        await this.userEvents.signInFailed(manager, project, {
          ...failure,
          data: { identifier, reason },
        });
      if (lockStarted)
        await this.userEvents.signInFailed(
          manager,
          project,
          { ...failure, data: { identifier, locked_until: lockStarted.toISOString() } },
          'user.locked',
        );
    });
  }

  /** `/me` for a token whose signature and claims were checked; revocation and the key are checked here. */
  async me(
    { claims, kid }: VerifiedAccessToken,
    key: ProjectKeyMatch,
  ): Promise<MeResponse | NoCurrentUserResponse> {
    const row = await this.users.me({
      userId: claims.sub,
      projectId: claims.aud,
      sessionId: claims.sid,
      kid,
      ...key,
      now: this.clock.now(),
    });
    if (!row) return { user: null };
    return {
      user: {
        id: row.id,
        email: row.email,
        is_admin: row.is_admin,
        mfa_factors: MFA_FACTOR_ORDER.filter((f) => row.mfa_factors.includes(f)),
      },
      active_sessions: row.active_sessions,
      organizations: row.organizations,
      active_organization: row.active_organization,
      ...(row.impersonator ? { impersonator: row.impersonator } : {}),
    };
  }
}
