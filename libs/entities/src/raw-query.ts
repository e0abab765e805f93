import { QueryFailedError, type DataSource } from 'typeorm';

/** Anything that can run SQL: a DataSource, an EntityManager or a QueryRunner. */
export interface SqlRunner {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * Rows of a raw statement. TypeORM's postgres driver answers `UPDATE/DELETE … RETURNING` with
 * `[rows, affectedCount]` but `SELECT` and `INSERT … RETURNING` with `rows`; this hides the difference.
 */
export async function queryRows<T>(runner: SqlRunner, sql: string, parameters: unknown[] = []): Promise<T[]> {
  const result = await runner.query(sql, parameters);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}

/**
 * A named statement: each pooled connection parses and plans it once, then only binds and runs it.
 * For the few statements on the hot path (`/me`, refresh), where planning costs PostgreSQL more
 * than running them. `text` must be a constant: the name stands for it on every connection.
 */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

interface PgPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** Runs a prepared statement on the data source's pool; errors are TypeORM's QueryFailedError, as for `query`. */
export async function queryPrepared<T>(dataSource: DataSource, statement: PreparedStatement, values: unknown[]): Promise<T[]> {
  const pool = (dataSource.driver as unknown as { master?: PgPool }).master;
  if (!pool) throw new Error('queryPrepared needs an initialised PostgreSQL data source');
  try {
    const result = await pool.query({ name: statement.name, text: statement.text, values });
    return result.rows as T[];
  } catch (err) {
    throw new QueryFailedError(statement.text, values, err as Error);
  }
}
