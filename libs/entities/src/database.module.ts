import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { buildDataSourceOptions } from './data-source';
import { NAMED_STATEMENTS_OPTION } from './raw-query';

/**
 * The embedded database (standalone mode) lives in this process and serves one statement at a time
 * to every connection of the three apps: a statement that waits there is queueing behind the others,
 * never an unreachable database, so its timeouts allow a long queue (a burst on a loaded machine
 * answered 503 after the 3 s default) and still end a wedged session.
 */
export const EMBEDDED_DATABASE_TIMEOUT_MS = 60_000;

/** How long a connection or a statement may wait before the request fails with 503. */
export function databaseTimeoutMs(config: AppConfig): number {
  return config.standalone.forced
    ? Math.max(config.http.dependencyTimeoutMs, EMBEDDED_DATABASE_TIMEOUT_MS)
    : config.http.dependencyTimeoutMs;
}

/**
 * The TypeORM connection every app shares. Pool and query timeouts come from
 * DEPENDENCY_TIMEOUT_MS so that a dead database fails a request quickly instead of hanging it
 * (`databaseTimeoutMs`: longer for the embedded database).
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => ({
            ...buildDataSourceOptions(config.database.url, {
              extra: {
                max: 10,
                connectionTimeoutMillis: databaseTimeoutMs(config),
                query_timeout: Math.max(databaseTimeoutMs(config), 1000),
                idle_in_transaction_session_timeout: 30000,
                // Not a pg option: read by queryPrepared (DATABASE_PREPARED_STATEMENTS).
                [NAMED_STATEMENTS_OPTION]: config.database.preparedStatements,
              },
            }),
            retryAttempts: 2,
            retryDelay: 500,
          }),
        }),
      ],
    };
  }
}
