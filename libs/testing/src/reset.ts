import Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { TEST_REDIS_URL } from './test-env';

/** Empties every table (keeping the schema) and the test Redis database. */
export async function resetState(dataSource: DataSource): Promise<void> {
  const tables: { tablename: string }[] = await dataSource.query(
    `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'`,
  );
  if (tables.length)
    await truncate(
      dataSource,
      `TRUNCATE ${tables.map((t) => `"${t.tablename}"`).join(', ')} RESTART IDENTITY CASCADE`,
    );
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

/**
 * TRUNCATE locks every table in turn, so it can deadlock with a statement of the app under test
 * that locks two of them in the other order (the webhook worker's polling loops run between
 * tests); PostgreSQL then aborts one side. When the aborted side is ours, try again. It also
 * waits for every transaction on those tables to end, which on a loaded machine (e2e files in
 * parallel) can outlast the app's 3 s query timeout: that is tried again too.
 */
export async function truncate(dataSource: Pick<DataSource, 'query'>, sql: string): Promise<void> {
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
