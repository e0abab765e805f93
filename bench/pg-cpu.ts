import { Client } from 'pg';
import { cpuSeconds } from './processes';

/**
 * CPU seconds spent by the Postgres backends serving the bench database, read from /proc for the
 * pids pg_stat_activity lists (Postgres runs on this machine). Best effort: null when the
 * backends' /proc entries cannot be read.
 */
export class PgBackendsCpu {
  private constructor(
    private readonly client: Client,
    private readonly database: string,
  ) {}

  static async connect(databaseUrl: string): Promise<PgBackendsCpu> {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    return new PgBackendsCpu(client, decodeURIComponent(new URL(databaseUrl).pathname.slice(1)));
  }

  /** pid → CPU seconds of every other backend of the database right now. */
  async snapshot(): Promise<Map<number, number> | null> {
    const { rows } = await this.client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [this.database],
    );
    const out = new Map<number, number>();
    for (const { pid } of rows) {
      const s = cpuSeconds(pid);
      if (s === null) return null;
      out.set(pid, s);
    }
    return out;
  }

  /** CPU seconds between two snapshots; a backend opened in between counts from zero. */
  static delta(
    before: Map<number, number> | null,
    after: Map<number, number> | null,
  ): number | null {
    if (!before || !after) return null;
    let sum = 0;
    for (const [pid, s] of after) sum += s - (before.get(pid) ?? 0);
    return sum;
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}
