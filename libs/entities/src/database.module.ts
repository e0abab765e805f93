import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { buildDataSourceOptions } from './data-source';
import { NAMED_STATEMENTS_OPTION } from './raw-query';

/**
 * The TypeORM connection every app shares. Pool and query timeouts come from
 * DEPENDENCY_TIMEOUT_MS so that a dead database fails a request quickly instead of hanging it.
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
                connectionTimeoutMillis: config.http.dependencyTimeoutMs,
                query_timeout: Math.max(config.http.dependencyTimeoutMs, 1000),
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
