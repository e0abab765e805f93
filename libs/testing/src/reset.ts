import Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { TEST_REDIS_URL } from './test-env';

/** Tables that reference others come before them: deleting in this order breaks no foreign key. */
export function deletionOrder(
  tables: string[],
  references: { child: string; parent: string }[],
): string[] {
  const referencedBy = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of references)
    if (child !== parent && referencedBy.has(child)) referencedBy.get(parent)?.add(child);
  const order: string[] = [];
  const placed = new Set<string>();
  while (order.length < tables.length) {
    // The tables whose referencing tables are all placed; a cycle of foreign keys (the schema has
    // none) is broken at its first table.
    const left = tables.filter((t) => !placed.has(t));
    const ready = left.filter((t) => [...referencedBy.get(t)!].every((c) => placed.has(c)));
    for (const t of ready.length ? ready : left.slice(0, 1)) {
      placed.add(t);
      order.push(t);
    }
  }
  return order;
}

const statements = new Map<string, string>();

/**
 * The statement that empties every table of the database but `migrations`: one `DELETE` per table,
 * referencing tables first. A test's tables hold a few rows, and deleting them takes milliseconds
 * where a TRUNCATE of every table takes about 400 ms (it replaces each table's files); no table has
 * a sequence to restart. Read from the catalog once per database.
 */
async function emptyingStatement(dataSource: DataSource): Promise<string> {
  const [{ db }] = await dataSource.query<{ db: string }[]>(`SELECT current_database() AS db`);
  const known = statements.get(db);
  if (known) return known;
  const tables = (
    await dataSource.query<{ tablename: string }[]>(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'`,
    )
  ).map((t) => t.tablename);
  const references = await dataSource.query<{ child: string; parent: string }[]>(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE c.contype = 'f' AND n.nspname = 'public'`,
  );
  const sql = deletionOrder(tables, references)
    .map((t) => `DELETE FROM "${t}";`)
    .join(' ');
  statements.set(db, sql);
  return sql;
}

/** Empties every table (keeping the schema) and the test Redis database. */
export async function resetState(dataSource: DataSource): Promise<void> {
  const sql = await emptyingStatement(dataSource);
  // One simple query of several statements is one transaction.
  if (sql) await emptyTables(dataSource, sql);
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

/**
 * Emptying the tables locks rows of one table after another, so it can deadlock with a statement
 * of the app under test that locks two of them in the other order (the webhook worker's polling
 * loops run between tests); PostgreSQL then aborts one side. When the aborted side is ours, try
 * again. It also waits for the transactions holding those rows to end, which on a loaded machine
 * (e2e files in parallel) can outlast the app's 3 s query timeout: that is tried again too.
 */
export async function emptyTables(
  dataSource: Pick<DataSource, 'query'>,
  sql: string,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await dataSource.query(sql);
      return;
    } catch (err) {
      const code = (err as { driverError?: { code?: unknown } }).driverError?.code;
      const timedOut = err instanceof Error && /Query read timeout/.test(err.message);
      if ((code !== '40P01' && !timedOut) || attempt >= 5) throw err;
    }
  }
}
