import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { User } from '@gatehouse/entities';
import {
  EventRecorder,
  LockoutService,
  MfaFactorsRepository,
  OAuthIdentitiesRepository,
  OneTimeTokensRepository,
  SecondFactorLockout,
  SessionRevocation,
  UsersRepository,
  type RequestMeta,
  type ResolvedProject,
  PasskeysRepository,
} from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { byUser } from '../users/user-actor';

/** How the owner of the address proved it: a completed reset, a magic link, or a provider's word. */
export type OwnershipProof =
  | { method: 'password_reset' }
  | { method: 'magic_link' }
  | { method: 'oauth'; provider: string; identityId: string };

/** What a claim removed, as the `user.updated` event reports it. */
export interface ClaimRemovals {
  password: boolean;
  passkeys: number;
  identities: { provider: string; subject: string }[];
  mfa_factors: string[];
  backup_codes: number;
  sessions: number;
}

export const ACCOUNT_CLAIMED = 'account_claimed';

/**
 * Pre-account takeover (Sudhodanan & Paverd, USENIX Security 2022): anyone can sign up with an
 * address they do not own and set up credentials before its owner arrives. Whatever was set up on
 * an account whose email nobody has proven belongs to whoever set it up, not to the owner. So when
 * the owner proves the address (a completed password reset, a magic link, a social sign-in whose
 * provider asserts the email verified), every credential set up before the proof ends in the same
 * transaction: the password, passkeys, other social identities, TOTP, SMS, backup codes, every
 * session and every outstanding one-time token (a pending email change or verification included).
 * The email becomes verified. The proof's own credential stays: the reset's new password (set by
 * the caller afterwards) or the proving identity. A verified account is never claimed.
 */
@Injectable()
export class AccountClaimsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly passkeys: PasskeysRepository,
    private readonly identities: OAuthIdentitiesRepository,
    private readonly factors: MfaFactorsRepository,
    private readonly tokens: OneTimeTokensRepository,
    private readonly revocation: SessionRevocation,
    private readonly events: EventRecorder,
    private readonly lockout: LockoutService,
    private readonly mfaLockout: SecondFactorLockout,
    private readonly clock: Clock,
  ) {}

  /**
   * Claims the account for the proof when its email is not verified, on the user's locked row, in
   * the caller's transaction (after the proof's own token is spent). Returns what was removed, or
   * null when the account was verified already (nothing changes). `user.emailVerified` is updated.
   */
  async claimIfUnverified(
    manager: EntityManager,
    project: ResolvedProject,
    user: User,
    proof: OwnershipProof,
    meta: RequestMeta,
  ): Promise<ClaimRemovals | null> {
    const locked = await this.users.lockById(manager, project.id, user.id);
    if (!locked || locked.emailVerified) return null;
    const now = this.clock.now();
    const by = byUser(project.tenantId, project.id, user.id, meta);
    // Sessions end first; then the credentials. Requests of the creator in flight meet the row lock
    // held until commit: a sign-in that checked the old password gets no session (the stamp moved),
    // a change made through a session finds the session revoked (SessionsService).
    const revoked = await this.revocation.revokeAll(manager, user.id, by, ACCOUNT_CLAIMED);
    const password = await this.users.removePassword(manager, user.id);
    const passkeys = await this.passkeys.deleteAllOfUser(manager, user.id);
    const identities = await this.identities.deleteAllOfUser(
      manager,
      user.id,
      proof.method === 'oauth' ? proof.identityId : null,
    );
    const mfa = await this.factors.removeAll(manager, user.id);
    await this.tokens.consumeAllOfUser(manager, user.id, 'any', now);
    await this.users.bumpSecurityStamp(manager, user.id);
    await this.users.setEmailVerified(manager, user.id);
    user.emailVerified = true;
    user.securityStamp = locked.securityStamp + 1;
    // The creator's guesses must not lock the owner out of what they now own.
    await this.lockout.reset(project.id, user.email, user.username);
    await this.mfaLockout.reset(project.id, user.id);

    const removed: ClaimRemovals = {
      password,
      passkeys,
      identities,
      mfa_factors: mfa.factors,
      backup_codes: mfa.backupCodes,
      sessions: revoked.length,
    };
    const how =
      proof.method === 'oauth'
        ? { method: proof.method, provider: proof.provider }
        : { method: proof.method };
    await this.events.record(manager, {
      ...by,
      action: 'user.updated',
      resourceType: 'user',
      resourceId: user.id,
      data: {
        user: { id: user.id, email: user.email },
        reason: ACCOUNT_CLAIMED,
        proof: how,
        changes: { email_verified: true },
        removed,
      },
    });
    await this.events.record(manager, {
      ...by,
      action: 'email.verified',
      resourceType: 'user',
      resourceId: user.id,
      data: { user: { id: user.id, email: user.email }, ...how },
    });
    return removed;
  }

  /**
   * A provider now vouches for the address of an account that the signing-in identity itself
   * created while its email was unverified. Only that identity's holder could set anything up on
   * such an account (a password or a claim would have needed the mailbox), so the address becomes
   * verified and nothing is removed: a later reset must not wipe the owner's own passkeys.
   */
  async verifyForCreator(
    manager: EntityManager,
    project: ResolvedProject,
    user: User,
    provider: string,
    meta: RequestMeta,
  ): Promise<void> {
    const locked = await this.users.lockById(manager, project.id, user.id);
    if (!locked || locked.emailVerified) return;
    await this.users.setEmailVerified(manager, user.id);
    user.emailVerified = true;
    await this.events.record(manager, {
      tenantId: project.tenantId,
      projectId: project.id,
      actorType: 'user',
      actorId: user.id,
      action: 'email.verified',
      resourceType: 'user',
      resourceId: user.id,
      meta,
      data: { user: { id: user.id, email: user.email }, method: 'oauth', provider },
    });
  }
}
