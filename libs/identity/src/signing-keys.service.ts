import { Inject, Injectable } from '@nestjs/common';
import type { KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { decryptSecretString, encryptSecret, generateSigningKey, privateKeyFromPem, publicKeyFromJwk } from '@gatehouse/crypto';
import { SigningKey } from '@gatehouse/entities';
import { Clock } from '@gatehouse/platform';

/** The longest access-token lifetime a project may configure; a retiring key verifies this long. */
export const MAX_ACCESS_TOKEN_TTL_SECONDS = 86_400;
const CACHE_MS = 30_000;

interface CachedPublicKey {
  key: KeyObject;
  projectId: string;
  tenantId: string;
  status: SigningKey['status'];
  retireAfter: Date | null;
  loadedAt: number;
}


/**
 * ES256 signing keys per project. Private keys are sealed with AES-GCM under ENCRYPTION_KEY (the
 * kid is the AAD). Which key signs is read from PostgreSQL for every token (in the caller's own
 * statement where it has one), so a rotation applies to the next token any instance signs; the
 * opened private keys are kept per kid. Public keys are cached per process for 30 s: a rotated-out
 * key keeps verifying until `retire_after`, and a revoked one is refused at once through the shared
 * revocation marks (AccessTokensService), so a stale cache never accepts it.
 */
/**
 * SQL for statements of other tables that read the signing keys in the same round trip: the kid
 * of the active key of the project `projectRef` (it signs the next access token), and whether the
 * key `kidRef` has been revoked.
 */
export const activeKidSql = (projectRef: string) => `(SELECT k.kid FROM signing_keys k WHERE k.project_id = ${projectRef} AND k.status = 'active')`;
export const revokedKidSql = (kidRef: string) => `EXISTS (SELECT 1 FROM signing_keys k WHERE k.kid = ${kidRef} AND k.status = 'revoked')`;

@Injectable()
export class SigningKeysService {
  private readonly publicKeys = new Map<string, CachedPublicKey>();
  /** Opened private keys by kid (a key's content never changes). */
  private readonly privateKeys = new LRUCache<string, KeyObject>({ max: 1000 });

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(manager: EntityManager, tenantId: string, projectId: string): Promise<SigningKey> {
    const generated = generateSigningKey();
    const row = manager.create(SigningKey, {
      tenantId,
      projectId,
      kid: generated.kid,
      algorithm: 'ES256',
      status: 'active',
      publicJwk: generated.publicJwk as Record<string, unknown>,
      privateKeyEncrypted: encryptSecret(this.config.auth.encryptionKey, generated.privateKeyPem, generated.kid),
      retireAfter: null,
    });
    return manager.save(row);
  }

  /** Makes a new active key; the previous active key becomes `retiring` until the longest token lifetime passes. */
  async rotate(manager: EntityManager, tenantId: string, projectId: string): Promise<SigningKey> {
    const retireAfter = new Date(this.clock.nowMs() + MAX_ACCESS_TOKEN_TTL_SECONDS * 1000);
    await manager
      .createQueryBuilder()
      .update(SigningKey)
      .set({ status: 'retired' })
      .where('project_id = :projectId AND status = :s AND retire_after <= :now', { projectId, s: 'retiring', now: this.clock.now() })
      .execute();
    await manager.update(SigningKey, { projectId, status: 'active' }, { status: 'retiring', retireAfter });
    return this.create(manager, tenantId, projectId);
  }

  /**
   * Revokes a key of the project that is not the active one (null when there is no such key;
   * `'active'` when it is the active one). Already revoked: returned unchanged. The caller marks
   * its kid revoked for every instance (AccessTokensService.markKeyRevoked).
   */
  async revoke(manager: EntityManager, tenantId: string, projectId: string, keyId: string): Promise<{ key: SigningKey; changed: boolean } | 'active' | null> {
    const key = await manager.getRepository(SigningKey).findOne({ where: { id: keyId, tenantId, projectId } });
    if (!key) return null;
    if (key.status === 'active') return 'active';
    if (key.status === 'revoked') return { key, changed: false };
    key.status = 'revoked';
    key.revokedAt = this.clock.now();
    await manager.getRepository(SigningKey).update({ id: key.id }, { status: 'revoked', revokedAt: key.revokedAt });
    return { key, changed: true };
  }

  /** The kids of keys revoked after `since` (the revocation list every instance keeps). */
  async revokedKidsSince(since: Date): Promise<string[]> {
    const rows: { kid: string }[] = await this.dataSource.query(`SELECT kid FROM signing_keys WHERE status = 'revoked' AND revoked_at > $1`, [since]);
    return rows.map((r) => r.kid);
  }

  /** A project's keys for the admin list, newest first (every status). */
  list(tenantId: string, projectId: string, page: { limit: number; offset: number }): Promise<[SigningKey[], number]> {
    return this.dataSource.getRepository(SigningKey).findAndCount({
      where: { tenantId, projectId },
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: page.offset,
      take: page.limit,
    });
  }

  /** Keys whose tokens may still verify: active and retiring ones not yet past `retire_after` (never revoked ones). */
  async listVerifying(projectId: string): Promise<SigningKey[]> {
    const keys = await this.dataSource.getRepository(SigningKey).find({ where: { projectId }, order: { createdAt: 'DESC' } });
    const now = this.clock.nowMs();
    return keys.filter((k) => k.status === 'active' || (k.status === 'retiring' && k.retireAfter !== null && k.retireAfter.getTime() > now));
  }

  /**
   * The private key that signs the project's next token: the active one, read from PostgreSQL, or
   * the one `activeKid` names when the caller read the active kid in its own statement. Pass the
   * transaction's manager when called inside one.
   */
  async activeKey(projectId: string, opts: { manager?: EntityManager; activeKid?: string | null } = {}): Promise<{ kid: string; key: KeyObject }> {
    const m = opts.manager ?? this.dataSource.manager;
    let kid = opts.activeKid ?? null;
    if (!kid) {
      const rows: { kid: string }[] = await m.query(`SELECT kid FROM signing_keys WHERE project_id = $1 AND status = 'active'`, [projectId]);
      kid = rows[0]?.kid ?? null;
      if (!kid) throw new Error(`project ${projectId} has no active signing key`);
    }
    let key = this.privateKeys.get(kid);
    if (!key) {
      const row = await m.getRepository(SigningKey).findOne({ where: { kid, projectId } });
      if (!row) throw new Error(`project ${projectId} has no signing key ${kid}`);
      key = privateKeyFromPem(decryptSecretString(this.config.auth.encryptionKey, row.privateKeyEncrypted, row.kid));
      this.privateKeys.set(kid, key);
    }
    return { kid, key };
  }

  /** The public key for `kid` if it may still verify tokens, else null. */
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
        status: row.status,
        retireAfter: row.retireAfter,
        loadedAt: this.clock.nowMs(),
      };
      this.publicKeys.set(kid, entry);
    }
    if (entry.status === 'active') return entry;
    if (entry.status === 'retiring' && entry.retireAfter && entry.retireAfter.getTime() > this.clock.nowMs()) return entry;
    return null;
  }
}
