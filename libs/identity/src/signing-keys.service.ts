import { Inject, Injectable } from '@nestjs/common';
import type { JsonWebKey, KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import {
  decryptSecretString,
  encryptSecret,
  generateSigningKey,
  privateJwkOf,
  privateKeyFromPem,
  publicKeyFromJwk,
} from '@gatehouse/crypto';
import { SigningKey, type SigningKeyAlgorithm } from '@gatehouse/entities';
import { Clock } from '@gatehouse/platform';
import { MAX_ACCESS_TOKEN_TTL_SECONDS } from './access-token-lifetime';

const CACHE_MS = 30_000;

interface CachedPublicKey {
  key: KeyObject;
  projectId: string;
  tenantId: string;
  algorithm: SigningKeyAlgorithm;
  status: SigningKey['status'];
  retireAfter: Date | null;
  loadedAt: number;
}

/** An opened private key: the kid that goes in the JWS header, its algorithm and the key. */
export interface ActiveSigningKey {
  kid: string;
  algorithm: SigningKeyAlgorithm;
  key: KeyObject;
}

/**
 * SQL for statements of other tables that read the signing keys in the same round trip: the kid
 * of the active ES256 key of the project `projectRef` (it signs the next access token), and
 * whether the key `kidRef` has been revoked.
 */
export const activeKidSql = (projectRef: string) =>
  `(SELECT k.kid FROM signing_keys k WHERE k.project_id = ${projectRef} AND k.status = 'active' AND k.algorithm = 'ES256')`;
export const revokedKidSql = (kidRef: string) =>
  `EXISTS (SELECT 1 FROM signing_keys k WHERE k.kid = ${kidRef} AND k.status = 'revoked')`;

/**
 * Signing keys per project and algorithm: ES256 keys sign our access tokens (and ID tokens by
 * default); RS256 keys only the OpenID Connect provider's tokens for clients that ask for RS256.
 * Each algorithm has at most one active key (partial unique index). Private keys are sealed with
 * AES-GCM under ENCRYPTION_KEY (the kid is the AAD). Which key signs is read from PostgreSQL for
 * every token (in the caller's own statement where it has one), so a rotation applies to the next
 * token any instance signs; the opened private keys are kept per kid. Public keys are cached per
 * process for 30 s: a rotated-out key keeps verifying until `retire_after`, and a revoked one is
 * refused at once through the shared revocation marks (AccessTokensService), so a stale cache
 * never accepts it.
 */
@Injectable()
export class SigningKeysService {
  private readonly publicKeys = new Map<string, CachedPublicKey>();
  /** Opened private keys by kid (a key's content never changes). */
  private readonly privateKeys = new LRUCache<
    string,
    { key: KeyObject; algorithm: SigningKeyAlgorithm }
  >({ max: 1000 });
  /** `ensureActive` calls of this process making a key, by project and algorithm: one key pair generated, not one per caller. */
  private readonly ensuring = new Map<string, Promise<ActiveSigningKey>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(
    manager: EntityManager,
    tenantId: string,
    projectId: string,
    algorithm: SigningKeyAlgorithm = 'ES256',
  ): Promise<SigningKey> {
    const generated = generateSigningKey(algorithm);
    const row = manager.create(SigningKey, {
      tenantId,
      projectId,
      kid: generated.kid,
      algorithm,
      status: 'active',
      publicJwk: generated.publicJwk as Record<string, unknown>,
      privateKeyEncrypted: encryptSecret(
        this.config.auth.encryptionKey,
        generated.privateKeyPem,
        generated.kid,
      ),
      retireAfter: null,
    });
    return manager.save(row);
  }

  /**
   * Makes a new active key of `algorithm`; the previous active key of that algorithm becomes
   * `retiring` until the longest token lifetime passes. Keys of the other algorithm are untouched.
   * The caller serialises changes of one project's keys (a lock on its row).
   */
  async rotate(
    manager: EntityManager,
    tenantId: string,
    projectId: string,
    algorithm: SigningKeyAlgorithm = 'ES256',
  ): Promise<SigningKey> {
    const retireAfter = new Date(this.clock.nowMs() + MAX_ACCESS_TOKEN_TTL_SECONDS * 1000);
    await manager
      .createQueryBuilder()
      .update(SigningKey)
      .set({ status: 'retired' })
      .where(
        'project_id = :projectId AND algorithm = :algorithm AND status = :s AND retire_after <= :now',
        { projectId, algorithm, s: 'retiring', now: this.clock.now() },
      )
      .execute();
    await manager.update(
      SigningKey,
      { projectId, algorithm, status: 'active' },
      { status: 'retiring', retireAfter },
    );
    return this.create(manager, tenantId, projectId, algorithm);
  }

  /**
   * Revokes a key of the project that is not the active one (null when there is no such key;
   * `'active'` when it is the active one). Already revoked: returned unchanged. The caller marks
   * its kid revoked for every instance (AccessTokensService.markKeyRevoked).
   */
  async revoke(
    manager: EntityManager,
    tenantId: string,
    projectId: string,
    keyId: string,
  ): Promise<{ key: SigningKey; changed: boolean } | 'active' | null> {
    const key = await manager
      .getRepository(SigningKey)
      .findOne({ where: { id: keyId, tenantId, projectId } });
    if (!key) return null;
    if (key.status === 'active') return 'active';
    if (key.status === 'revoked') return { key, changed: false };
    key.status = 'revoked';
    key.revokedAt = this.clock.now();
    await manager
      .getRepository(SigningKey)
      .update({ id: key.id }, { status: 'revoked', revokedAt: key.revokedAt });
    return { key, changed: true };
  }

  /** The kids of keys revoked after `since` (the revocation list every instance keeps). */
  async revokedKidsSince(since: Date): Promise<string[]> {
    const rows: { kid: string }[] = await this.dataSource.query(
      `SELECT kid FROM signing_keys WHERE status = 'revoked' AND revoked_at > $1`,
      [since],
    );
    return rows.map((r) => r.kid);
  }

  /** A project's keys for the admin list, newest first (every status). */
  list(
    tenantId: string,
    projectId: string,
    page: { limit: number; offset: number },
  ): Promise<[SigningKey[], number]> {
    return this.dataSource.getRepository(SigningKey).findAndCount({
      where: { tenantId, projectId },
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: page.offset,
      take: page.limit,
    });
  }

  /**
   * Keys whose tokens may still verify, of both algorithms: active and retiring ones not yet past
   * `retire_after` (never revoked ones), newest first.
   */
  async listVerifying(projectId: string): Promise<SigningKey[]> {
    const keys = await this.dataSource
      .getRepository(SigningKey)
      .find({ where: { projectId }, order: { createdAt: 'DESC', id: 'ASC' } });
    const now = this.clock.nowMs();
    return keys.filter(
      (k) =>
        k.status === 'active' ||
        (k.status === 'retiring' && k.retireAfter !== null && k.retireAfter.getTime() > now),
    );
  }

  /**
   * The private JWKs (RFC 7517: `d`, and for RSA `p`, `q`, `dp`, `dq`, `qi`, with kid, alg and
   * `use: sig`) of the keys `listVerifying` returns, active keys first: the OpenID Connect provider
   * signs with the first key of an algorithm and still verifies with the retiring ones. Never
   * serve these; `jwks.json` serves the public members only.
   */
  async privateJwks(projectId: string): Promise<JsonWebKey[]> {
    const keys = await this.listVerifying(projectId);
    const ordered = [
      ...keys.filter((k) => k.status === 'active'),
      ...keys.filter((k) => k.status !== 'active'),
    ];
    return ordered.map((row) => privateJwkOf(this.openPrivateKey(row), row.kid, row.algorithm));
  }

  /**
   * The private key that signs the project's next token of `algorithm` (default ES256, the one of
   * our access tokens): the active one, read from PostgreSQL, or the one `activeKid` names when the
   * caller read the active kid in its own statement (`activeKidSql`, ES256). Pass the
   * transaction's manager when called inside one.
   */
  async activeKey(
    projectId: string,
    opts: {
      manager?: EntityManager;
      activeKid?: string | null;
      algorithm?: SigningKeyAlgorithm;
    } = {},
  ): Promise<ActiveSigningKey> {
    const m = opts.manager ?? this.dataSource.manager;
    const algorithm = opts.algorithm ?? 'ES256';
    const kid = opts.activeKid ?? (await this.activeKid(m, projectId, algorithm));
    if (!kid) throw new Error(`project ${projectId} has no active ${algorithm} signing key`);
    return this.openKey(m, projectId, kid, algorithm);
  }

  /**
   * The active key of `algorithm`, made when the project has none yet (a project has an ES256 key
   * from its creation; an RS256 key is made the first time the OpenID Connect provider needs one).
   * Safe under concurrency: the insert yields to the partial unique index (one active key per
   * project and algorithm) and the winner's key is read back, so concurrent callers on any
   * instance get the same key; within one process they also share one key generation.
   */
  async ensureActive(
    projectId: string,
    algorithm: SigningKeyAlgorithm,
    opts: { manager?: EntityManager } = {},
  ): Promise<ActiveSigningKey> {
    const m = opts.manager ?? this.dataSource.manager;
    const kid = await this.activeKid(m, projectId, algorithm);
    if (kid) return this.openKey(m, projectId, kid, algorithm);
    // Inside a caller's transaction the shared promise would run on another connection; only share outside one.
    if (opts.manager) return this.insertActive(m, projectId, algorithm);
    const flight = `${projectId}:${algorithm}`;
    let pending = this.ensuring.get(flight);
    if (!pending) {
      pending = this.insertActive(m, projectId, algorithm).finally(() =>
        this.ensuring.delete(flight),
      );
      this.ensuring.set(flight, pending);
    }
    return pending;
  }

  /** Inserts an active key unless one exists (ON CONFLICT on the partial unique index), then reads the active one back. */
  private async insertActive(
    m: EntityManager,
    projectId: string,
    algorithm: SigningKeyAlgorithm,
  ): Promise<ActiveSigningKey> {
    const generated = generateSigningKey(algorithm);
    const sealed = encryptSecret(
      this.config.auth.encryptionKey,
      generated.privateKeyPem,
      generated.kid,
    );
    const inserted: { kid: string }[] = await m.query(
      `INSERT INTO signing_keys (tenant_id, project_id, kid, algorithm, status, public_jwk, private_key_encrypted)
       SELECT p.tenant_id, p.id, $2, $3, 'active', $4::jsonb, $5 FROM projects p WHERE p.id = $1
       ON CONFLICT (project_id, algorithm) WHERE status = 'active' DO NOTHING
       RETURNING kid`,
      [projectId, generated.kid, algorithm, JSON.stringify(generated.publicJwk), sealed],
    );
    if (inserted[0]) {
      const key = privateKeyFromPem(generated.privateKeyPem);
      this.privateKeys.set(generated.kid, { key, algorithm });
      return { kid: generated.kid, algorithm, key };
    }
    // Another caller's key won (or there is no such project).
    const kid = await this.activeKid(m, projectId, algorithm);
    if (!kid)
      throw new Error(
        `project ${projectId} has no active ${algorithm} signing key and none could be made`,
      );
    return this.openKey(m, projectId, kid, algorithm);
  }

  private async activeKid(
    m: EntityManager,
    projectId: string,
    algorithm: SigningKeyAlgorithm,
  ): Promise<string | null> {
    const rows: { kid: string }[] = await m.query(
      `SELECT kid FROM signing_keys WHERE project_id = $1 AND algorithm = $2 AND status = 'active'`,
      [projectId, algorithm],
    );
    return rows[0]?.kid ?? null;
  }

  /** The private key `kid` of the project, opened once per process; it must be of `algorithm`. */
  private async openKey(
    m: EntityManager,
    projectId: string,
    kid: string,
    algorithm: SigningKeyAlgorithm,
  ): Promise<ActiveSigningKey> {
    let cached = this.privateKeys.get(kid);
    if (!cached) {
      const row = await m.getRepository(SigningKey).findOne({ where: { kid, projectId } });
      if (!row) throw new Error(`project ${projectId} has no signing key ${kid}`);
      cached = { key: this.openPrivateKey(row), algorithm: row.algorithm };
    }
    if (cached.algorithm !== algorithm)
      throw new Error(`signing key ${kid} is ${cached.algorithm}, not ${algorithm}`);
    return { kid, algorithm, key: cached.key };
  }

  private openPrivateKey(row: SigningKey): KeyObject {
    const cached = this.privateKeys.get(row.kid);
    if (cached) return cached.key;
    const key = privateKeyFromPem(
      decryptSecretString(this.config.auth.encryptionKey, row.privateKeyEncrypted, row.kid),
    );
    this.privateKeys.set(row.kid, { key, algorithm: row.algorithm });
    return key;
  }

  /**
   * The public key for `kid` if it may still verify one of our access tokens, else null. Those
   * are ES256 only: a key of another algorithm (RS256, for the OpenID Connect provider's ID
   * tokens) never verifies an access token, whatever the token's header says.
   */
  async verifyingKey(kid: string): Promise<CachedPublicKey | null> {
    let entry = this.publicKeys.get(kid);
    if (!entry || this.clock.nowMs() - entry.loadedAt >= CACHE_MS) {
      const row = await this.dataSource.getRepository(SigningKey).findOne({ where: { kid } });
      if (!row) {
        this.publicKeys.delete(kid);
        return null;
      }
      entry = {
        key: publicKeyFromJwk(row.publicJwk),
        projectId: row.projectId,
        tenantId: row.tenantId,
        algorithm: row.algorithm,
        status: row.status,
        retireAfter: row.retireAfter,
        loadedAt: this.clock.nowMs(),
      };
      this.publicKeys.set(kid, entry);
    }
    if (entry.algorithm !== 'ES256') return null;
    if (entry.status === 'active') return entry;
    if (
      entry.status === 'retiring' &&
      entry.retireAfter &&
      entry.retireAfter.getTime() > this.clock.nowMs()
    )
      return entry;
    return null;
  }
}
