import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import {
  peekKid,
  signAccessToken,
  verifyAccessToken,
  type AccessTokenClaims,
} from '@gatehouse/crypto';
import type { OrganizationClaim } from '@gatehouse/organizations';
import { CacheStore, Clock } from '@gatehouse/platform';
import { SessionsRepository } from './sessions/sessions.repository';
import {
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  MAX_ACCESS_TOKEN_TTL_SECONDS,
} from './access-token-lifetime';
import { SigningKeysService } from './signing-keys.service';

const revokedKey = (sessionId: string) => `revoked:session:${sessionId}`;
const revokedSigningKey = (kid: string) => `revoked:kid:${kid}`;
/**
 * Present while the cache holds every revocation. A cache that lost its data (a Redis restarted
 * without persistence, a standalone process restarted) lacks it: revocations are reloaded from
 * PostgreSQL before any token is accepted again.
 */
const LOADED_SENTINEL = 'revoked:loaded';
/** Tokens whose signature this process has checked; an ES256 verification is the costliest step of `/me`. */
const VERIFIED_TOKENS_MAX = 10_000;

export interface IssueTokenInput {
  tenantId: string;
  projectId: string;
  userId: string;
  sessionId: string;
  isAdmin: boolean;
  ttlSeconds?: number;
  /** When the user last proved a credential (`auth_time`); default: now. */
  authTime?: Date;
  /** The instant of issue (`iat`); default: now. A token minted for a proof just made takes the proof's instant, so `auth_time` = `iat`. */
  issuedAt?: Date;
  /** The project's active kid when the caller read it in its own statement (else it is read here). */
  activeKid?: string | null;
  /** The admin acting as the user (an impersonated session): the token carries `act: {sub}` (RFC 8693 §4.1). */
  impersonatorId?: string | null;
  /** The session's active organization (`org` claim); absent or null: none. */
  organization?: OrganizationClaim | null;
  /** The project's custom claims, rendered (`renderTokenClaims`); registered claims win over them. */
  claims?: Record<string, unknown>;
}

/** A token whose signature and claims checked out, with the kid that signed it. */
export interface VerifiedAccessToken {
  claims: AccessTokenClaims;
  kid: string;
}

/**
 * Access tokens (docs/api-contract.md §2): ES256 JWTs with our own keys only, and a revocation check in the
 * shared cache on every verification so a revoked session or signing key is refused on the next
 * request anywhere. The hot path touches no database once the key is cached.
 */
@Injectable()
export class AccessTokensService {
  /**
   * Claims of tokens whose signature and audience were verified, by exact token text. A hit still
   * goes through every other check: the key is still accepted, not expired, project, issuer,
   * revocation.
   */
  private readonly verified = new LRUCache<string, { kid: string; claims: AccessTokenClaims }>({
    max: VERIFIED_TOKENS_MAX,
  });

  constructor(
    private readonly keys: SigningKeysService,
    private readonly cache: CacheStore,
    private readonly sessions: SessionsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  issuer(projectId: string): string {
    return `${this.config.http.publicAuthUrl}/v1/projects/${projectId}`;
  }

  /** Signs an access token; pass the transaction's manager when called inside one. */
  async issue(
    input: IssueTokenInput,
    manager?: EntityManager,
  ): Promise<{ token: string; expiresIn: number; expiresAt: Date }> {
    const ttl = input.ttlSeconds ?? DEFAULT_ACCESS_TOKEN_TTL_SECONDS;
    const iat = Math.floor((input.issuedAt?.getTime() ?? this.clock.nowMs()) / 1000);
    const claims: AccessTokenClaims = {
      ...input.claims,
      iss: this.issuer(input.projectId),
      aud: input.projectId,
      sub: input.userId,
      sid: input.sessionId,
      tid: input.tenantId,
      adm: input.isAdmin,
      auth_time: input.authTime ? Math.floor(input.authTime.getTime() / 1000) : iat,
      ...(input.impersonatorId ? { act: { sub: input.impersonatorId } } : {}),
      ...(input.organization ? { org: input.organization } : {}),
      iat,
      exp: iat + ttl,
    };
    const { kid, key } = await this.keys.activeKey(input.projectId, {
      manager,
      activeKid: input.activeKid,
    });
    return {
      token: signAccessToken(claims, key, kid),
      expiresIn: ttl,
      expiresAt: new Date((iat + ttl) * 1000),
    };
  }

  /**
   * Returns the claims of a valid, unrevoked token, or null. `projectId`, when given, must be the
   * token's audience. Throws DependencyUnavailableError when the revocation store is down (fail closed).
   */
  async verify(token: string, projectId?: string): Promise<AccessTokenClaims | null> {
    const verified = await this.verifySignedClaims(token, projectId);
    if (!verified) return null;
    const { claims, kid } = verified;
    const marks = [revokedKey(claims.sid), revokedSigningKey(kid)];
    const [revokedSession, revokedKid, loaded] = await this.cache.mget([...marks, LOADED_SENTINEL]);
    if (loaded === null) {
      await this.reloadRevocations();
      if ((await this.cache.mget(marks)).some((v) => v !== null)) return null;
    } else if (revokedSession !== null || revokedKid !== null) return null;
    return claims;
  }

  /**
   * Every check of `verify` but revocation: signature, key still accepted, expiry, audience,
   * tenant, issuer. Only for a caller that reads the session row and the signing key from
   * PostgreSQL anyway and refuses them there when revoked (`/me` does, in its one query).
   */
  async verifySignedClaims(token: string, projectId?: string): Promise<VerifiedAccessToken | null> {
    if (token.length > 4096) return null;
    const hit = this.verified.get(token);
    const kid = hit?.kid ?? peekKid(token);
    if (!kid) return null;
    const entry = await this.keys.verifyingKey(kid);
    if (!entry) return null;
    if (projectId !== undefined && entry.projectId !== projectId) return null;
    const nowSeconds = Math.floor(this.clock.nowMs() / 1000);
    let claims = hit?.claims ?? null;
    if (claims && (claims.aud !== entry.projectId || claims.exp <= nowSeconds)) return null;
    if (!claims) {
      claims = verifyAccessToken(token, entry.key, { nowSeconds, audience: entry.projectId });
      // Frozen: every request presenting this token shares the object.
      if (claims) this.verified.set(token, { kid, claims: Object.freeze(claims) });
    }
    if (!claims || claims.tid !== entry.tenantId) return null;
    if (claims.iss !== this.issuer(entry.projectId)) return null;
    return { claims, kid };
  }

  private reloading: Promise<void> | null = null;

  /** Marks again every session and signing key revoked within the longest token lifetime, then sets the sentinel. */
  reloadRevocations(): Promise<void> {
    this.reloading ??= (async () => {
      const since = new Date(this.clock.nowMs() - (MAX_ACCESS_TOKEN_TTL_SECONDS + 60) * 1000);
      await this.markRevoked(await this.sessions.revokedSince(since));
      await Promise.all(
        (await this.keys.revokedKidsSince(since)).map((kid) => this.markKeyRevoked(kid)),
      );
      await this.cache.set(LOADED_SENTINEL, '1');
    })().finally(() => {
      this.reloading = null;
    });
    return this.reloading;
  }

  /** Marks a signing key revoked for every instance: tokens it signed are refused from the next request. */
  async markKeyRevoked(kid: string): Promise<void> {
    await this.cache.set(revokedSigningKey(kid), '1', (MAX_ACCESS_TOKEN_TTL_SECONDS + 60) * 1000);
  }

  /** Marks sessions revoked for every instance; kept as long as any of their tokens could live. */
  async markRevoked(sessionIds: string[]): Promise<void> {
    await Promise.all(
      sessionIds.map((id) =>
        this.cache.set(revokedKey(id), '1', (MAX_ACCESS_TOKEN_TTL_SECONDS + 60) * 1000),
      ),
    );
  }
}
