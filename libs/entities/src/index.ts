/** The database: TypeORM entities, migrations, the data source, prepared-statement helpers and what PostgreSQL errors mean. */
export * from './api-key.entity';
export * from './api-resource.entity';
export * from './project-permission.entity';
export * from './project-role.entity';
export { ProjectScoped, TenantScoped, UserScoped } from './scoped-entity';
export * from './audit-event.entity';
export * from './invitation.entity';
export * from './mfa-backup-code.entity';
export * from './mfa-factor.entity';
export * from './oauth-client.entity';
export * from './oauth-grant.entity';
export * from './oauth-identity.entity';
export * from './oauth-transaction.entity';
export * from './one-time-token.entity';
export * from './organization-member.entity';
export * from './organization.entity';
export * from './organization-domain.entity';
export * from './sso-connection.entity';
export * from './outbox-event.entity';
export * from './passkey.entity';
export * from './password-credential.entity';
export * from './project.entity';
export * from './refresh-chain.entity';
export * from './session.entity';
export * from './signing-key.entity';
export * from './tenant.entity';
export * from './user.entity';
export * from './webhook-delivery.entity';
export * from './webhook.entity';

export { SnakeNamingStrategy, snakeCase } from './snake-naming.strategy';
export { ENTITIES, MIGRATIONS } from './registry';
export { CreateSchema1795305600000 } from './migrations/1795305600000-CreateSchema';
export { buildDataSourceOptions, ensureDatabase, runMigrations } from './data-source';
export type { PostgresConnectionOptions } from './data-source';
export { DatabaseModule } from './database.module';
export {
  containsPattern,
  queryPrepared,
  queryRows,
  type PreparedStatement,
  type SqlRunner,
} from './raw-query';
export { deadlockDetected, foreignKeyViolation, isId, uniqueViolation } from './db-errors';
export {
  EmbeddedDatabaseServer,
  openPglite,
  type EmbeddedDatabaseServerOptions,
} from './embedded-database-server';
