import type { DataSource } from 'typeorm';
import type { CacheStore } from '@gatehouse/platform';

/** Cache keys of the origin sets; ProjectsCache.invalidateProject drops them with the project. */
export const CORS_ORIGIN_SET_KEYS = { all: 'cors:origins:all', console: 'cors:origins:console' } as const;
const TTL_MS = 30_000;

/**
 * The union of the projects' allowed origins (all projects, or only console projects), read from
 * PostgreSQL and kept for 30 s in the shared cache. Preflights are answered from these sets.
 */
export class AllowedOrigins {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cache: CacheStore,
  ) {}

  ofAnyProject(): Promise<ReadonlySet<string>> {
    return this.load(CORS_ORIGIN_SET_KEYS.all, '');
  }

  ofConsoleProjects(): Promise<ReadonlySet<string>> {
    return this.load(CORS_ORIGIN_SET_KEYS.console, 'WHERE p.is_console');
  }

  private async load(key: string, where: string): Promise<ReadonlySet<string>> {
    const cached = await this.cache.get(key);
    if (cached) return new Set(JSON.parse(cached) as string[]);
    const rows: { origin: string }[] = await this.dataSource.query(
      `SELECT DISTINCT o.origin
         FROM projects p CROSS JOIN LATERAL jsonb_array_elements_text(
                CASE WHEN jsonb_typeof(p.allowed_origins) = 'array' THEN p.allowed_origins ELSE '[]'::jsonb END) AS o(origin)
        ${where}`,
    );
    const origins = rows.map((r) => r.origin);
    await this.cache.set(key, JSON.stringify(origins), TTL_MS);
    return new Set(origins);
  }
}
