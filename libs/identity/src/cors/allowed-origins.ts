import type { CacheStore } from '@gatehouse/platform';
import type { ProjectsRepository } from '../projects/projects.repository';

/** Cache keys of the origin sets; ProjectsCache.invalidateProject drops them with the project. */
export const CORS_ORIGIN_SET_KEYS = {
  all: 'cors:origins:all',
  console: 'cors:origins:console',
} as const;
const TTL_MS = 30_000;

/**
 * The union of the projects' allowed origins (all projects, or only console projects), read from
 * PostgreSQL and kept for 30 s in the shared cache. Preflights are answered from these sets.
 */
export class AllowedOrigins {
  constructor(
    private readonly projects: ProjectsRepository,
    private readonly cache: CacheStore,
  ) {}

  ofAnyProject(): Promise<ReadonlySet<string>> {
    return this.load(CORS_ORIGIN_SET_KEYS.all, false);
  }

  ofConsoleProjects(): Promise<ReadonlySet<string>> {
    return this.load(CORS_ORIGIN_SET_KEYS.console, true);
  }

  private async load(key: string, consoleOnly: boolean): Promise<ReadonlySet<string>> {
    const cached = await this.cache.get(key);
    if (cached) return new Set(JSON.parse(cached) as string[]);
    const origins = await this.projects.allowedOrigins(consoleOnly);
    await this.cache.set(key, JSON.stringify(origins), TTL_MS);
    return new Set(origins);
  }
}
