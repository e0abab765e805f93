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
