import { Injectable } from '@nestjs/common';
import { sha256Hex } from '@gatehouse/crypto';
import type { ProjectSettings } from '@gatehouse/entities';
import { CacheStore } from '@gatehouse/platform';
import { ApiKeyUsage } from './api-key-usage.service';
import { CORS_ORIGIN_SET_KEYS } from './cors/allowed-origins';
import { ProjectsRepository, type ProjectRow } from './projects/projects.repository';

/** What request handling needs to know about a project; cached in the shared store. */
export interface ResolvedProject {
  id: string;
  tenantId: string;
  name: string;
  isConsole: boolean;
  allowedOrigins: string[];
  redirectUrls: string[];
  settings: ProjectSettings;
  publishableKey: string;
  /** Set when the request authenticated with an API key secret rather than the publishable key. */
  apiKeyId?: string;
}

const TTL_MS = 60_000;
const byKey = (key: string) => `project:key:${sha256Hex(key)}`;
const byId = (id: string) => `project:id:${id}`;

const toResolved = (r: ProjectRow): ResolvedProject => ({
  id: r.id,
  tenantId: r.tenant_id,
  name: r.name,
  isConsole: r.is_console,
  allowedOrigins: r.allowed_origins,
  redirectUrls: r.redirect_urls,
  settings: r.settings,
  publishableKey: r.publishable_key,
  ...(r.api_key_id ? { apiKeyId: r.api_key_id } : {}),
});

/** How a presented project key finds its project: exactly one of the two is set. */
export interface ProjectKeyMatch {
  publishableKey: string | null;
  secretHash: string | null;
}

/**
 * How a presented `X-Service-Project-Key` finds its project: a publishable key by itself, an API
 * key secret by its SHA-256 (the form stored); null when the text cannot be a key at all.
 */
export function projectKeyLookup(key: string): ProjectKeyMatch | null {
  if (!/^(pk|sk)_[A-Za-z0-9_-]{16,128}$/.test(key)) return null;
  return key.startsWith('pk_')
    ? { publishableKey: key, secretHash: null }
    : { publishableKey: null, secretHash: sha256Hex(key) };
}

/**
 * Resolves `X-Service-Project-Key` (publishable `pk_…` or live API key `sk_…`) and project ids,
 * through a 60 s cache shared by every instance. Writers call `invalidate*` in the same request
 * as their change, so a revoked key or a changed origin list applies on the very next call.
 */
@Injectable()
export class ProjectsCache {
  constructor(
    private readonly projects: ProjectsRepository,
    private readonly cache: CacheStore,
    private readonly apiKeyUsage: ApiKeyUsage,
  ) {}

  /** The key's project; an API key secret also has its use recorded (`last_used_at`). */
  async byKey(key: string): Promise<ResolvedProject | null> {
    const lookup = projectKeyLookup(key);
    if (!lookup) return null;
    const resolved = await this.resolveKey(key, lookup);
    if (resolved) this.apiKeyUsage.touch(lookup.secretHash);
    return resolved;
  }

  private async resolveKey(key: string, lookup: ProjectKeyMatch): Promise<ResolvedProject | null> {
    const cached = await this.cache.get(byKey(key));
    if (cached) return JSON.parse(cached) as ResolvedProject;
    const row = await this.projects.byKey(lookup.publishableKey, lookup.secretHash);
    if (!row) return null;
    const resolved = toResolved(row);
    await this.cache.set(byKey(key), JSON.stringify(resolved), TTL_MS);
    return resolved;
  }

  async byId(id: string): Promise<ResolvedProject | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const cached = await this.cache.get(byId(id));
    if (cached) return JSON.parse(cached) as ResolvedProject;
    const row = await this.projects.byId(id);
    if (!row) return null;
    const resolved = toResolved(row);
    await this.cache.set(byId(id), JSON.stringify(resolved), TTL_MS);
    return resolved;
  }

  /** After a project is created or its settings, origins or redirects change (also drops the CORS origin sets). */
  async invalidateProject(project: { id: string; publishableKey: string }): Promise<void> {
    await this.cache.del(
      byId(project.id),
      byKey(project.publishableKey),
      CORS_ORIGIN_SET_KEYS.all,
      CORS_ORIGIN_SET_KEYS.console,
    );
  }

  /** After an API key is revoked (the raw secret is unknown then, so callers pass its hash). */
  async invalidateApiKeyHash(secretHash: string): Promise<void> {
    await this.cache.del(`project:key:${secretHash}`);
  }
}
