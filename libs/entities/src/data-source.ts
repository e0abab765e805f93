import { Client } from 'pg';
import { DataSource, type DataSourceOptions } from 'typeorm';

import { ENTITIES, MIGRATIONS } from './registry';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/**
 * Postgres-specific data source options. TypeORM 1.x names this interface
 * `PostgresDataSourceOptions` and does not export it from the package root.
 */
export type PostgresConnectionOptions = Extract<DataSourceOptions, { type: 'postgres' }>;

export function buildDataSourceOptions(
  url: string,
  overrides: Partial<PostgresConnectionOptions> = {},
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    logging: false,
    installExtensions: false,
    ...overrides,
  };
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Creates the database named in `url` (connecting to the `postgres` database) if it does not exist. */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const database = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!database) {
    throw new Error('DATABASE_URL has no database name');
  }
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (existing.rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE ${quoteIdentifier(database)}`);
      } catch (error) {
        // Another process created it concurrently: 42P04 duplicate_database, or 23505 unique_violation
        // on pg_database_datname_index when both CREATE DATABASE statements run at the same moment.
        const code = (error as { code?: string }).code;
        if (code !== '42P04' && code !== '23505') {
          throw error;
        }
      }
    }
  } finally {
    await client.end();
  }
}

/** Creates the database if needed and applies every pending migration, each in its own transaction. */
export async function runMigrations(url: string): Promise<void> {
  await ensureDatabase(url);
  const dataSource = new DataSource(buildDataSourceOptions(url));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}
