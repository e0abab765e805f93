import { EntityManager, QueryFailedError, type DataSource } from 'typeorm';

/** Anything that can run SQL: a DataSource, an EntityManager or a QueryRunner. */
export interface SqlRunner {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * Rows of a raw statement. TypeORM's postgres driver answers `UPDATE/DELETE … RETURNING` with
 * `[rows, affectedCount]` but `SELECT` and `INSERT … RETURNING` with `rows`; this hides the difference.
 */
export async function queryRows<T>(
  runner: SqlRunner,
  sql: string,
  parameters: unknown[] = [],
): Promise<T[]> {
  const result = await runner.query(sql, parameters);
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  )
    return result[0] as T[];
  return result as T[];
}

/**
 * A named statement: each pooled connection parses and plans it once, then only binds and runs it.
 * For statements on hot paths (`/me`, refresh, session start, events), where parsing and planning
 * cost PostgreSQL more than running them. `text` must be a constant: the name stands for it on every connection.
 */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

/** Key in the data source's `extra` options; `false` runs prepared statements unnamed (parsed every time). */
export const NAMED_STATEMENTS_OPTION = 'gatehouseNamedStatements';

interface PgQueryable {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs a prepared statement: on the transaction's connection when given the manager of a
 * transaction, else on the pool. Errors are TypeORM's QueryFailedError, as for `query`.
 */
export async function queryPrepared<T>(
  source: DataSource | EntityManager,
  statement: PreparedStatement,
  values: unknown[],
): Promise<T[]> {
  const runner = source instanceof EntityManager ? source.queryRunner : undefined;
  const dataSource = source instanceof EntityManager ? source.dataSource : source;
  const target: PgQueryable | undefined = runner
    ? ((await runner.connect()) as PgQueryable)
    : (dataSource.driver as unknown as { master?: PgQueryable }).master;
  if (!target) throw new Error('queryPrepared needs an initialised PostgreSQL data source');
  const named =
    (dataSource.options as { extra?: Record<string, unknown> }).extra?.[NAMED_STATEMENTS_OPTION] !==
    false;
  try {
    const result = await target.query(
      named
        ? { name: statement.name, text: statement.text, values }
        : { text: statement.text, values },
    );
    return result.rows as T[];
  } catch (err) {
    throw new QueryFailedError(statement.text, values, err as Error);
  }
}

/** A `LIKE … ESCAPE '\'` pattern matching `text` literally anywhere (`%`, `_` and `\` lose their meaning). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
