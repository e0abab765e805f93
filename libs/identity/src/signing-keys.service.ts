import { Inject, Injectable } from '@nestjs/common';
import type { KeyObject } from 'node:crypto';
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

interface CachedPrivateKey {
  kid: string;
  key: KeyObject;
  loadedAt: number;
}

/**
 * ES256 signing keys per project. Private keys are sealed with AES-GCM under ENCRYPTION_KEY (the
 * kid is the AAD). Keys are cached per process for 30 s; a rotated-out key keeps verifying until
 * `retire_after`, so a stale cache never refuses a valid token nor signs with a retired key for long.
 */
@Injectable()
export class SigningKeysService {
  private readonly publicKeys = new Map<string, CachedPublicKey>();
  private readonly activeKeys = new Map<string, CachedPrivateKey>();

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
    const created = await this.create(manager, tenantId, projectId);
    this.activeKeys.delete(projectId);
    return created;
  }

  /** Keys whose tokens may still verify: active and retiring ones not yet past `retire_after`. */
  async listVerifying(projectId: string): Promise<SigningKey[]> {
    const keys = await this.dataSource.getRepository(SigningKey).find({ where: { projectId }, order: { createdAt: 'DESC' } });
    const now = this.clock.nowMs();
    return keys.filter((k) => k.status === 'active' || (k.status === 'retiring' && k.retireAfter !== null && k.retireAfter.getTime() > now));
  }

  /** The active private key; pass the transaction's manager when called inside one. */
  async activeKey(projectId: string, manager?: EntityManager): Promise<{ kid: string; key: KeyObject }> {
    const cached = this.activeKeys.get(projectId);
    if (cached && this.clock.nowMs() - cached.loadedAt < CACHE_MS) return cached;
    const row = await (manager ?? this.dataSource.manager).getRepository(SigningKey).findOne({ where: { projectId, status: 'active' } });
    if (!row) throw new Error(`project ${projectId} has no active signing key`);
    const pem = decryptSecretString(this.config.auth.encryptionKey, row.privateKeyEncrypted, row.kid);
    const entry = { kid: row.kid, key: privateKeyFromPem(pem), loadedAt: this.clock.nowMs() };
    this.activeKeys.set(projectId, entry);
    return entry;
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
