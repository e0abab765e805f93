import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { peekKid, signAccessToken, verifyAccessToken, type AccessTokenClaims } from '@gatehouse/crypto';
import { CacheStore, Clock } from '@gatehouse/platform';
import { SigningKeysService, MAX_ACCESS_TOKEN_TTL_SECONDS } from './signing-keys.service';

export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 900;

const revokedKey = (sessionId: string) => `revoked:session:${sessionId}`;
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
}

/**
 * Access tokens (CONTRACT §2): ES256 JWTs with our own keys only, and a revocation check in the
 * shared cache on every verification so a revoked session is refused on the next request anywhere.
 * The hot path touches no database once the key is cached.
 */
@Injectable()
export class AccessTokensService {
  /**
   * Claims of tokens whose signature and audience were verified, by exact token text. A hit still
   * goes through every other check: the key is still accepted, not expired, project, issuer,
   * revocation.
   */
  private readonly verified = new LRUCache<string, { kid: string; claims: AccessTokenClaims }>({ max: VERIFIED_TOKENS_MAX });

  constructor(
    private readonly keys: SigningKeysService,
    private readonly cache: CacheStore,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  issuer(projectId: string): string {
    return `${this.config.http.publicAuthUrl}/v1/projects/${projectId}`;
  }

  /** Signs an access token; pass the transaction's manager when called inside one. */
  async issue(input: IssueTokenInput, manager?: EntityManager): Promise<{ token: string; expiresIn: number; expiresAt: Date }> {
    const ttl = input.ttlSeconds ?? DEFAULT_ACCESS_TOKEN_TTL_SECONDS;
    const iat = Math.floor(this.clock.nowMs() / 1000);
    const claims: AccessTokenClaims = {
      iss: this.issuer(input.projectId),
      aud: input.projectId,
      sub: input.userId,
      sid: input.sessionId,
      tid: input.tenantId,
      adm: input.isAdmin,
      iat,
      exp: iat + ttl,
    };
    const { kid, key } = await this.keys.activeKey(input.projectId, manager);
    return { token: signAccessToken(claims, key, kid), expiresIn: ttl, expiresAt: new Date((iat + ttl) * 1000) };
  }

  /**
   * Returns the claims of a valid, unrevoked token, or null. `projectId`, when given, must be the
   * token's audience. Throws DependencyUnavailableError when the revocation store is down (fail closed).
   */
  async verify(token: string, projectId?: string): Promise<AccessTokenClaims | null> {
    const claims = await this.verifySignedClaims(token, projectId);
    if (!claims) return null;
    const [revoked, loaded] = await this.cache.mget([revokedKey(claims.sid), LOADED_SENTINEL]);
    if (loaded === null) {
      await this.reloadRevocations();
      if ((await this.cache.get(revokedKey(claims.sid))) !== null) return null;
    } else if (revoked !== null) return null;
    return claims;
  }

  /**
   * Every check of `verify` but revocation: signature, key still accepted, expiry, audience,
   * tenant, issuer. Only for a caller that reads the session row from PostgreSQL anyway and
   * refuses it there when revoked (`/me` does, in its one query).
   */
  async verifySignedClaims(token: string, projectId?: string): Promise<AccessTokenClaims | null> {
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
    return claims;
  }

  private reloading: Promise<void> | null = null;

  /** Marks again every session revoked within the longest token lifetime, then sets the sentinel. */
  reloadRevocations(): Promise<void> {
    this.reloading ??= (async () => {
      const since = new Date(this.clock.nowMs() - (MAX_ACCESS_TOKEN_TTL_SECONDS + 60) * 1000);
      const rows: { id: string }[] = await this.dataSource.query(`SELECT id FROM sessions WHERE revoked_at IS NOT NULL AND revoked_at > $1`, [since]);
      await this.markRevoked(rows.map((r) => r.id));
      await this.cache.set(LOADED_SENTINEL, '1');
    })().finally(() => {
      this.reloading = null;
    });
    return this.reloading;
  }

  /** Marks sessions revoked for every instance; kept as long as any of their tokens could live. */
  async markRevoked(sessionIds: string[]): Promise<void> {
    await Promise.all(sessionIds.map((id) => this.cache.set(revokedKey(id), '1', (MAX_ACCESS_TOKEN_TTL_SECONDS + 60) * 1000)));
  }
}
