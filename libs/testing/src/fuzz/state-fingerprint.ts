import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';

/**
 * What a request may have changed: every PostgreSQL table of the schema (row count and an MD5 of
 * its rows as text, in a stable order) and every Redis key of the test database (type, value and
 * TTL), except what changes without meaning a state change:
 * - Redis `ratelimit:*`: rate-limit counters count every request, refused or not (by design);
 * - Redis `project:*` and `cors:*`: read-through caches of projects and of allowed origins, filled
 *   by any request that names a key or carries an Origin;
 * - Redis `revoked:loaded`: the marker that the revocation cache mirrors PostgreSQL again, set by the
 *   first token check after Redis lost its data (the revocations themselves are PostgreSQL rows);
 * - Redis keys that expired on their own while the request ran (they had a TTL shorter than it).
 * Nothing of PostgreSQL is excluded.
 */
export interface Fingerprint {
  tables: Map<string, string>;
  keys: Map<string, { digest: string; ttlMs: number }>;
  takenAt: number;
}

const EXCLUDED_KEYS = /^(?:ratelimit:|project:|cors:|revoked:loaded$)/;

const REDIS_SNAPSHOT = `
local out = {}
for _, k in ipairs(redis.call('KEYS', '*')) do
  local t = redis.call('TYPE', k).ok
  local d = redis.call('DUMP', k)
  out[#out + 1] = k
  out[#out + 1] = t .. ':' .. redis.sha1hex(d or '')
  out[#out + 1] = tostring(redis.call('PTTL', k))
end
return out`;

export class StateFingerprint {
  private statement: string | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: Redis,
  ) {}

  /** One statement over every table of the public schema (found once, so new tables count too). */
  private async sql(): Promise<string> {
    if (this.statement) return this.statement;
    const tables = await this.dataSource.query<{ table_name: string }[]>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'migrations' ORDER BY table_name`,
    );
    this.statement = tables
      .map(
        (t) =>
          `SELECT '${t.table_name}' AS t, count(*) || ':' || md5(coalesce(string_agg(x::text, E'\\n' ORDER BY x::text), '')) AS v FROM "${t.table_name}" x`,
      )
      .join(' UNION ALL ');
    return this.statement;
  }

  async take(): Promise<Fingerprint> {
    const [rows, flat] = await Promise.all([
      this.dataSource.query<{ t: string; v: string }[]>(await this.sql()),
      this.redis.eval(REDIS_SNAPSHOT, 0) as Promise<string[]>,
    ]);
    const keys = new Map<string, { digest: string; ttlMs: number }>();
    for (let i = 0; i < flat.length; i += 3) {
      const key = flat[i];
      if (!EXCLUDED_KEYS.test(key))
        keys.set(key, { digest: flat[i + 1], ttlMs: Number(flat[i + 2]) });
    }
    return { tables: new Map(rows.map((r) => [r.t, r.v])), keys, takenAt: Date.now() };
  }

  /** What changed from `a` to `b`, as readable lines; empty when nothing did. */
  static diff(a: Fingerprint, b: Fingerprint): string[] {
    const out: string[] = [];
    for (const [table, v] of b.tables)
      if (a.tables.get(table) !== v)
        out.push(`table ${table}: ${a.tables.get(table) ?? '-'} -> ${v}`);
    for (const [key, v] of b.keys) {
      const before = a.keys.get(key);
      if (!before) out.push(`redis key added: ${key}`);
      else if (before.digest !== v.digest) out.push(`redis key changed: ${key}`);
    }
    const elapsed = b.takenAt - a.takenAt;
    for (const [key, v] of a.keys) {
      const expiredOnItsOwn = v.ttlMs >= 0 && v.ttlMs <= elapsed + 1000;
      if (!b.keys.has(key) && !expiredOnItsOwn) out.push(`redis key removed: ${key}`);
    }
    return out;
  }
}
