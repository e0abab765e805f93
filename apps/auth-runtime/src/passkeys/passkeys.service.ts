import { Inject, Injectable } from '@nestjs/common';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { isId, uniqueViolation } from '@gatehouse/entities';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { hmacSha256 } from '@gatehouse/crypto';
import type { User } from '@gatehouse/entities';
import {
  authOriginOf,
  EventRecorder,
  normalizeIdentifier,
  UsersRepository,
  type RequestMeta,
  type ResolvedProject,
  PasskeysRepository,
} from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { UserEvents } from '../sign-in/user-events';
import { SessionsService } from '../sessions/sessions.service';
import type { BeginPasskeyAuthenticationDto } from './dto/begin-passkey-authentication.dto';
import type { CompletePasskeyRegistrationDto } from './dto/complete-passkey-registration.dto';
import { PASSKEY_CHALLENGE_TTL_MS, PasskeyChallenges } from './passkey-challenges.service';
import {
  toPasskeyResponse,
  type PasskeyListResponse,
  type PasskeyResponse,
} from './passkey.response';
import {
  assertAuthenticationResponseJson,
  attestationFormatAccepted,
  challengeOf,
  cleanTransports,
  parseAuthenticationResponse,
  parseRegistrationResponse,
  relyingPartyOf,
  userHandleMatches,
  userHandleOf,
  type RelyingParty,
} from './webauthn-responses';
import { activeUser } from '../users/active-user';

/** The caller of a session-authenticated endpoint (access-token claims). */
export interface PasskeyOwner {
  sub: string;
  sid: string;
  aud: string;
  tid: string;
}

/** COSE ES256, EdDSA, RS256. */
const ALGORITHMS = [-7, -8, -257];
const DEFAULT_NAME = 'Passkey';
const DECOY_TRANSPORTS: AuthenticatorTransportFuture[] = ['hybrid', 'internal'];

/**
 * Passkeys (WebAuthn) with @simplewebauthn/server: registration for a signed-in user, sign-in with
 * or without an email (discoverable credentials), and the user's list. RP ID, RP name and origins
 * come from the project. Every challenge is consumed before its response is verified, so a
 * replayed or failed response never gets a second try.
 */
@Injectable()
export class PasskeysService {
  private readonly decoyKey: Buffer;
  private readonly authOrigin: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly passkeys: PasskeysRepository,
    private readonly users: UsersRepository,
    private readonly challenges: PasskeyChallenges,
    private readonly events: EventRecorder,
    private readonly userEvents: UserEvents,
    private readonly sessions: SessionsService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.decoyKey = hmacSha256(config.auth.encryptionKey, 'gatehouse:passkey-decoy-credentials');
    this.authOrigin = authOriginOf(config.http.publicAuthUrl);
  }

  private rp(project: ResolvedProject): RelyingParty {
    const rp = relyingPartyOf(project, this.authOrigin);
    if (!rp) {
      throw new ProblemError('conflict', {
        detail:
          'Passkeys are not configured for this project: set settings.rp_id and allowed_origins.',
      });
    }
    return rp;
  }

  /** Issues a fresh random challenge (32 bytes) and stores it with what it was issued for. */
  private async newChallenge(
    issued: Parameters<PasskeyChallenges['store']>[1],
  ): Promise<Uint8Array<ArrayBuffer>> {
    for (let i = 0; i < 3; i++) {
      const bytes = new Uint8Array(randomBytes(32));
      if (await this.challenges.store(Buffer.from(bytes).toString('base64url'), issued))
        return bytes;
    }
    throw new Error('could not store a unique passkey challenge');
  }

  async beginRegistration(
    project: ResolvedProject,
    owner: PasskeyOwner,
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const rp = this.rp(project);
    const user = await activeUser(this.users, project.id, owner.sub);
    const existing = await this.passkeys.listByUser(user.id);
    const challenge = await this.newChallenge({
      purpose: 'register',
      projectId: project.id,
      userId: user.id,
    });
    return generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.email,
      userDisplayName: user.email,
      userID: userHandleOf(user.id),
      challenge,
      timeout: PASSKEY_CHALLENGE_TTL_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({
        id: p.credentialId,
        transports: cleanTransports(p.transports),
      })),
      authenticatorSelection: {
        residentKey: 'required',
        requireResidentKey: true,
        userVerification: 'required',
      },
      supportedAlgorithmIDs: ALGORITHMS,
    });
  }

  async completeRegistration(
    project: ResolvedProject,
    owner: PasskeyOwner,
    dto: CompletePasskeyRegistrationDto,
    meta: RequestMeta,
  ): Promise<PasskeyResponse> {
    const rp = this.rp(project);
    const refuse = (message: string) =>
      ProblemError.validation(
        { credential: [message] },
        'The passkey registration response could not be verified.',
      );
    const response = parseRegistrationResponse(dto.credential);
    if (!response)
      throw refuse(
        'must be a WebAuthn attestation response (id, rawId, type, response.clientDataJSON, response.attestationObject)',
      );
    const challenge = challengeOf(response.response.clientDataJSON);
    const stored = challenge ? await this.challenges.consume(challenge) : null;
    if (
      !challenge ||
      !stored ||
      stored.purpose !== 'register' ||
      stored.projectId !== project.id ||
      stored.userId !== owner.sub
    ) {
      throw refuse('does not answer a current registration challenge of this session');
    }
    if (!attestationFormatAccepted(response.response.attestationObject))
      throw refuse('has an unreadable or unsupported attestation');

    let info;
    try {
      const verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        requireUserPresence: true,
        requireUserVerification: true,
        supportedAlgorithmIDs: ALGORITHMS,
      });
      info = verified.verified ? verified.registrationInfo : undefined;
    } catch {
      info = undefined;
    }
    if (!info || info.credential.id !== response.id)
      throw refuse('could not be verified (origin, RP ID, user verification or signature)');

    const credentialId = info.credential.id;
    const duplicate = () => refuse('is already registered');
    if (await this.passkeys.credentialIdExists(credentialId)) throw duplicate();
    const user = await activeUser(this.users, project.id, owner.sub);
    try {
      const passkey = await this.dataSource.transaction(async (manager) => {
        // Written while the user's row is held and the session is live: a claim in progress wins.
        await this.sessions.lockForCredentialChange(manager, owner);
        const created = await this.passkeys.insert(manager, {
          tenantId: project.tenantId,
          projectId: project.id,
          userId: user.id,
          credentialId,
          publicKey: Buffer.from(info.credential.publicKey),
          counter: String(info.credential.counter),
          transports: response.response.transports ?? [],
          deviceType: info.credentialDeviceType,
          backedUp: info.credentialBackedUp,
          name: dto.name?.trim() || DEFAULT_NAME,
        });
        await this.events.record(manager, {
          tenantId: project.tenantId,
          projectId: project.id,
          actorType: 'user',
          actorId: user.id,
          action: 'passkey.registered',
          resourceType: 'passkey',
          resourceId: created.id,
          meta,
          data: {
            passkey: {
              id: created.id,
              user_id: user.id,
              name: created.name,
              device_type: created.deviceType,
              backed_up: created.backedUp,
            },
          },
        });
        return created;
      });
      return toPasskeyResponse(passkey);
    } catch (err) {
      if (uniqueViolation(err) === 'passkeys_credential_id_key') throw duplicate();
      throw err;
    }
  }

  /**
   * Request options. With an email, `allowCredentials` lists that user's passkeys; an unknown email
   * (or a user without passkeys) gets one decoy credential derived from an HMAC of the email, so
   * the answer has the same shape and stays stable across calls. Without an email, it is empty.
   */
  async beginAuthentication(
    project: ResolvedProject,
    dto: BeginPasskeyAuthenticationDto,
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const rp = this.rp(project);
    let allowCredentials: { id: string; transports: AuthenticatorTransportFuture[] }[] = [];
    if (dto.email !== undefined) {
      const email = normalizeIdentifier(dto.email);
      const user = await this.users.findByEmail(project.id, email);
      const own = user && user.status === 'active' ? await this.passkeys.listByUser(user.id) : [];
      allowCredentials = own.length
        ? own.map((p) => ({ id: p.credentialId, transports: cleanTransports(p.transports) }))
        : [
            {
              id: hmacSha256(this.decoyKey, `${project.id}\u0000${email}`).toString('base64url'),
              transports: DECOY_TRANSPORTS,
            },
          ];
    }
    const challenge = await this.newChallenge({ purpose: 'authenticate', projectId: project.id });
    return generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials,
      challenge,
      timeout: PASSKEY_CHALLENGE_TTL_MS,
      userVerification: 'required',
    });
  }

  /**
   * Verifies an assertion and returns its user. Malformed (400 `validation-error` on dotted paths,
   * nothing consumed or recorded): a member missing or of the wrong JSON type. Refused (401
   * `invalid-credentials`): values of the right type that are not a valid response (not base64url,
   * `type` not `public-key`), an unknown/used/expired challenge, a credential unknown or of another project, a user
   * handle that is not the owner's, a wrong origin or RP ID, no user verification, a bad signature
   * and a counter that did not move forward. Password lockout is not consulted (docs/api-contract.md §3).
   */
  async authenticate(
    project: ResolvedProject,
    credential: unknown,
    meta: RequestMeta,
  ): Promise<User> {
    assertAuthenticationResponseJson(credential);
    const rp = this.rp(project);
    const response = parseAuthenticationResponse(credential);
    const challenge = response ? challengeOf(response.response.clientDataJSON) : null;
    const stored = challenge ? await this.challenges.consume(challenge) : null;
    if (
      !response ||
      !challenge ||
      !stored ||
      stored.purpose !== 'authenticate' ||
      stored.projectId !== project.id
    ) {
      return this.refuse(project, meta, null, 'challenge');
    }
    const passkey = await this.passkeys.findByCredentialId(response.id);
    if (!passkey || passkey.projectId !== project.id)
      return this.refuse(project, meta, null, 'unknown_credential');
    const handle = response.response.userHandle;
    if (handle !== undefined && !userHandleMatches(handle, passkey.userId))
      return this.refuse(project, meta, passkey.userId, 'user_handle_mismatch');
    // Read before the passkey is proven and used: its security stamp then predates the proof, so a
    // claim that deletes the passkey meanwhile leaves this sign-in without a session.
    const user = await this.users.findById(project.id, passkey.userId);
    if (!user) return this.refuse(project, meta, null, 'unknown_credential');

    let info;
    try {
      const verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(passkey.publicKey),
          counter: Number(passkey.counter),
          transports: cleanTransports(passkey.transports),
        },
        requireUserVerification: true,
      });
      info = verified.verified ? verified.authenticationInfo : undefined;
    } catch {
      info = undefined;
    }
    if (!info) return this.refuse(project, meta, passkey.userId, 'invalid_assertion');
    if (
      !(await this.passkeys.recordUse(
        passkey.id,
        info.newCounter,
        info.credentialBackedUp,
        this.clock.now(),
      ))
    ) {
      return this.refuse(project, meta, passkey.userId, 'counter_regression');
    }
    if (user.status !== 'active')
      throw new ProblemError('account-disabled', { detail: 'This account has been disabled.' });
    return user;
  }

  /** A refused assertion: recorded as docs/api-contract.md §13's `invalid_credentials`, with its cause as `error`. */
  private async refuse(
    project: ResolvedProject,
    meta: RequestMeta,
    userId: string | null,
    error: string,
  ): Promise<never> {
    await this.dataSource.transaction((manager) =>
      this.userEvents.signInFailed(manager, project, {
        userId,
        meta,
        data: { method: 'passkey', reason: 'invalid_credentials', error },
      }),
    );
    throw new ProblemError('invalid-credentials', { detail: 'The passkey could not be verified.' });
  }

  async list(owner: PasskeyOwner): Promise<PasskeyListResponse> {
    return { passkeys: (await this.passkeys.listByUser(owner.sub)).map(toPasskeyResponse) };
  }

  /** Removes one of the caller's passkeys; another user's or an unknown id is 404. */
  async remove(owner: PasskeyOwner, id: string, meta: RequestMeta): Promise<void> {
    const removed = isId(id)
      ? await this.dataSource.transaction(async (manager) => {
          const passkey = await this.passkeys.deleteOwn(manager, owner.sub, id);
          if (!passkey) return false;
          await this.events.record(manager, {
            tenantId: owner.tid,
            projectId: owner.aud,
            actorType: 'user',
            actorId: owner.sub,
            action: 'passkey.deleted',
            resourceType: 'passkey',
            resourceId: passkey.id,
            meta,
            data: { passkey: { id: passkey.id, user_id: owner.sub, name: passkey.name } },
          });
          return true;
        })
      : false;
    if (!removed) throw new ProblemError('not-found', { detail: 'No such passkey.' });
  }
}
