import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { decryptSecretString, encryptSecret, sha256Hex } from '@gatehouse/crypto';
import {
  OAuthClientsRepository,
  SessionsRepository,
  type ResolvedProject,
} from '@gatehouse/identity';
import { CacheStore, Clock } from '@gatehouse/platform';
import { SessionsService } from '../sessions/sessions.service';
import { OAuthGrantsRepository } from './oauth-grants.repository';
import { oidcClientMetadata } from './oidc-client-metadata';
import { boundGrantId, resumeDecision, SINGLE_USE_MODELS } from './oidc-grant-policy';
import { oidcLibrary, providerRequestContext } from './oidc-library';
import { OidcRegistration } from './oidc-registration';
import { oidcRequestState, type OidcRequestState } from './oidc-request-state';

/** How long a consumed mark outlives anything it marks (the longest refresh-token lifetime). */
const CONSUMED_MARK_MS = 31 * 86_400_000;

/**
 * Keys name a record by the SHA-256 of its id (an id is a token, a code or a cookie value), and
 * records are sealed with AES-GCM under ENCRYPTION_KEY: no token, code or cookie value is kept in
 * the clear.
 */
const key = (projectId: string, model: string, id: string) =>
  `oidc:${projectId}:${model}:${sha256Hex(id)}`;
const sessionUidKey = (projectId: string, uid: string) =>
  `oidc:${projectId}:Session:uid:${sha256Hex(uid)}`;
/** The Gatehouse session behind a provider session (by the provider session's stable `uid`). */
const gatehouseSessionKey = (projectId: string, uid: string) =>
  `oidc:${projectId}:Session:gh:${sha256Hex(uid)}`;
/**
 * Which project an interaction belongs to (an interaction of another project is 404, not 400) and
 * when it began, in milliseconds (`prompt=login` needs a proof made after it: the provider's own
 * `iat` is whole seconds, too coarse to order a sign-in in the same second).
 */
export const interactionOriginKey = (uid: string) => `oidc:interaction-origin:${sha256Hex(uid)}`;

export interface InteractionOrigin {
  projectId: string;
  startedMs: number;
}

function requestState(): OidcRequestState | undefined {
  return oidcRequestState.getStore();
}

/**
 * oidc-provider's storage, per project: its short-lived records (sessions, interactions, codes,
 * tokens, grants) in the shared cache store (Redis, or in-process in standalone mode) under the
 * project's prefix, clients from `oauth_clients`, grants mirrored in `oauth_grants`. Every lookup
 * of a grant-bound record checks, in PostgreSQL, that its grant is not revoked, the Gatehouse
 * session behind it is live and its user active: revoking the session or disabling the user ends
 * every code and token at once, on every instance.
 */
@Injectable()
export class OidcStore {
  private readonly logger = new Logger('OidcStore');

  constructor(
    private readonly cache: CacheStore,
    private readonly grants: OAuthGrantsRepository,
    private readonly clients: OAuthClientsRepository,
    private readonly sessions: SessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    readonly registration: OidcRegistration,
    private readonly sessionRows: SessionsRepository,
    private readonly clock: Clock,
  ) {}

  adapterFor(project: ResolvedProject): (name: string) => Adapter {
    return (model: string) => new ProjectAdapter(this, project, model);
  }

  /** The grant's user when it may be used (checked once per request and grant). */
  async grantUser(projectId: string, grantId: string) {
    const state = requestState();
    if (state?.checkedGrants.has(grantId)) return state.checkedGrants.get(grantId) ?? null;
    const user = await this.grants.activeGrantUser(projectId, grantId);
    state?.checkedGrants.set(grantId, user);
    if (user) {
      state?.users.set(user.id, user);
      state?.liveSessions.add(user.session_id);
    }
    return user;
  }

  /** The organization an authorization request named becomes the grant's (kept only for a member, OAuthGrantsRepository.setOrganization). */
  async nameOrganization(
    projectId: string,
    grantId: string,
    organizationId: string | null,
  ): Promise<void> {
    await this.grants.setOrganization(projectId, grantId, organizationId);
    requestState()?.checkedGrants.delete(grantId);
  }

  async liveSession(projectId: string, sid: string, userId: string) {
    const state = requestState();
    const known = state?.users.get(userId);
    if (known && state?.liveSessions.has(sid)) return known;
    const user = await this.sessionRows.liveSessionUser(projectId, sid, userId, this.clock.now());
    if (user) requestState()?.users.set(user.id, user);
    return user;
  }

  /** An interaction as stored (its result included), read without the provider and without any check; undefined when there is none. */
  async storedInteraction(projectId: string, uid: string): Promise<AdapterPayload | undefined> {
    if (uid.length === 0 || uid.length > 512) return undefined;
    const raw = await this.cache.get(key(projectId, 'Interaction', uid));
    const opened = raw ? this.open(raw) : null;
    return opened ? (JSON.parse(opened) as AdapterPayload) : undefined;
  }

  async clientMetadata(projectId: string, clientId: string): Promise<AdapterPayload | undefined> {
    const row = await this.clients.findByClientId(clientId);
    // A client of another project is unknown here (invalid_client), exactly as a client that does not exist.
    if (!row || row.projectId !== projectId) return undefined;
    return oidcClientMetadata(row);
  }

  async recordGrant(
    project: ResolvedProject,
    payload: AdapterPayload,
    grantId: string,
  ): Promise<void> {
    const state = requestState();
    const accountId = payload.accountId;
    const clientId = payload.clientId;
    if (!state?.sid || typeof accountId !== 'string' || typeof clientId !== 'string') {
      // A grant not tied to a Gatehouse session is never honoured (GRANT_BOUND lookups find no row).
      this.logger.warn(
        `grant ${grantId} saved without a Gatehouse session; it will not be honoured`,
      );
      return;
    }
    const openid = (payload as { openid?: { scope?: string } }).openid;
    const scopes = (openid?.scope ?? '').split(' ').filter(Boolean);
    // What the user granted for each API resource (the consent to its scopes), for the grant's event.
    const granted = (payload as { resources?: Record<string, unknown> }).resources ?? {};
    const resources = Object.fromEntries(
      Object.entries(granted).flatMap(([identifier, value]) =>
        typeof value === 'string' ? [[identifier, value.split(' ').filter(Boolean)]] : [],
      ),
    );
    await this.grants.save(
      {
        tenantId: project.tenantId,
        projectId: project.id,
        userId: accountId,
        grantId,
        clientId,
        sessionId: state.sid,
        scopes,
        resources,
      },
      state.meta,
    );
    state.checkedGrants.delete(grantId);
  }

  revokeGrant(projectId: string, grantId: string, reason: string): Promise<boolean> {
    const state = requestState();
    state?.checkedGrants.set(grantId, null);
    return this.grants.revoke(
      projectId,
      grantId,
      reason,
      state?.meta ?? { ip: null, userAgent: null },
    );
  }

  async endGatehouseSession(project: ResolvedProject, userId: string, sid: string): Promise<void> {
    const meta = requestState()?.meta ?? { ip: null, userAgent: null };
    // Already ended (revoked elsewhere): nothing left to end.
    await this.sessions.endOwn(
      { tid: project.tenantId, aud: project.id, sub: userId },
      sid,
      meta,
      'oidc_logout',
    );
  }

  seal(value: string): string {
    return encryptSecret(this.config.auth.encryptionKey, value, 'oidc-record');
  }

  open(sealed: string): string | null {
    try {
      return decryptSecretString(this.config.auth.encryptionKey, sealed, 'oidc-record');
    } catch {
      return null;
    }
  }

  get store(): CacheStore {
    return this.cache;
  }
}

class ProjectAdapter implements Adapter {
  constructor(
    private readonly owner: OidcStore,
    private readonly project: ResolvedProject,
    private readonly model: string,
  ) {}

  private key(id: string): string {
    return key(this.project.id, this.model, id);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const cache = this.owner.store;
    const ttlMs = expiresIn ? expiresIn * 1000 : undefined;
    if (this.model === 'Client') {
      // Only dynamic registration writes clients through the provider (the admin API writes the rest).
      const existing = await this.owner.clientMetadata(this.project.id, id);
      if (existing)
        throw new (oidcLibrary().errors.InvalidClientMetadata)(
          'clients are changed through the admin API',
        );
      await this.owner.registration.register(
        this.project,
        id,
        payload,
        requestState()?.meta ?? { ip: null, userAgent: null },
      );
      return;
    }
    if (this.model === 'Session') {
      const state = requestState();
      if (payload.uid && payload.accountId && state?.sid)
        await cache.set(gatehouseSessionKey(this.project.id, payload.uid), state.sid, ttlMs);
      if (payload.uid)
        await cache.set(sessionUidKey(this.project.id, payload.uid), this.owner.seal(id), ttlMs);
    }
    if (this.model === 'Grant') await this.owner.recordGrant(this.project, payload, id);
    if (this.model === 'Interaction') {
      const origin: InteractionOrigin = { projectId: this.project.id, startedMs: Date.now() };
      await cache.setIfAbsent(interactionOriginKey(id), JSON.stringify(origin), ttlMs ?? 3_600_000);
    }
    await cache.set(this.key(id), this.owner.seal(JSON.stringify(payload)), ttlMs);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (typeof id !== 'string' || id.length === 0 || id.length > 512) return undefined;
    if (this.model === 'Client') return this.owner.clientMetadata(this.project.id, id);
    const cache = this.owner.store;
    const [raw, consumed] = SINGLE_USE_MODELS.has(this.model)
      ? await cache.mget([this.key(id), `${this.key(id)}:consumed`])
      : [await cache.get(this.key(id)), null];
    if (!raw) return undefined;
    const opened = this.owner.open(raw);
    if (!opened) return undefined;
    const payload = JSON.parse(opened) as AdapterPayload;
    if (consumed) payload.consumed = Number(consumed);
    const state = requestState();
    const request = providerRequestContext();
    if (this.model === 'Interaction' && request) {
      // A request the provider answers (whatever the path or method it came by; the interaction API
      // reads interactions outside any): the completion binding decides (resumeDecision).
      const presented = request.query.completion;
      const decision = resumeDecision(
        payload.result,
        typeof presented === 'string' ? presented : null,
      );
      if (decision.kind === 'refused') return undefined;
      if (decision.kind === 'accepted' && state) {
        state.sid = decision.sid;
        state.freshSession = decision.fresh;
      }
    }
    if (this.model === 'Session' && state?.freshSession) return undefined;
    const grantId = boundGrantId(this.model, id, payload);
    if (grantId !== null && !(await this.owner.grantUser(this.project.id, grantId)))
      return undefined;
    if (this.model === 'Session' && payload.accountId) {
      // A provider session lives only as long as the Gatehouse session that signed the user in.
      const sid = payload.uid
        ? await cache.get(gatehouseSessionKey(this.project.id, payload.uid))
        : null;
      if (!sid || !(await this.owner.liveSession(this.project.id, sid, payload.accountId)))
        return undefined;
      if (state && !state.sid) state.sid = sid;
    }
    return payload;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const sealed = await this.owner.store.get(sessionUidKey(this.project.id, uid));
    const id = sealed ? this.owner.open(sealed) : null;
    return id ? this.find(id) : undefined;
  }

  findByUserCode(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  async consume(id: string): Promise<void> {
    const cache = this.owner.store;
    const first = await cache.setIfAbsent(
      `${this.key(id)}:consumed`,
      String(Math.floor(Date.now() / 1000)),
      CONSUMED_MARK_MS,
    );
    if (first) return;
    // Two requests raced with the same code or refresh token: the loser is a replay, and a replay
    // ends the grant (and every token it issued), as a sequential one does.
    const opened = await cache.get(this.key(id)).then((raw) => (raw ? this.owner.open(raw) : null));
    const grantId = opened ? (JSON.parse(opened) as AdapterPayload).grantId : undefined;
    if (typeof grantId === 'string')
      await this.owner.revokeGrant(this.project.id, grantId, 'replay');
    throw new (oidcLibrary().errors.InvalidGrant)('grant request is invalid');
  }

  async destroy(id: string): Promise<void> {
    const state = requestState();
    // The provider's confirmation of an RP-initiated logout (its `end_session_confirm` route) destroys the session.
    const endingSession = providerRequestContext()?.oidc.route === 'end_session_confirm';
    if (this.model === 'Session' && endingSession && state?.sid) {
      // RP-initiated logout signs the user out of Gatehouse too: their session (and with it every grant it backs) ends.
      const opened = await this.owner.store
        .get(this.key(id))
        .then((raw) => (raw ? this.owner.open(raw) : null));
      const accountId = opened ? (JSON.parse(opened) as AdapterPayload).accountId : undefined;
      if (typeof accountId === 'string')
        await this.owner.endGatehouseSession(this.project, accountId, state.sid);
    }
    await this.owner.store.del(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.owner.revokeGrant(this.project.id, grantId, 'revoked');
  }
}
