import 'reflect-metadata';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { Type } from 'class-transformer';

const DURATION_LIST = /^\s*\d+\s*[smh]?\s*(,\s*\d+\s*[smh]?\s*)*$/;
const BOOL = ['true', 'false', '1', '0', 'yes', 'no'];
const PRIVATE_URLS = [...BOOL, 'loopback'];

/**
 * Every environment variable Gatehouse reads, grouped as in the README's configuration table.
 * Values arrive as strings; `loadConfig` turns the validated strings into a typed AppConfig.
 */
export class EnvSchema {
  // --- http ---
  @IsOptional() @IsIn(['development', 'production', 'test']) NODE_ENV?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(65535) AUTH_RUNTIME_PORT?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(65535) CONTROL_PLANE_PORT?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(65535) WEBHOOK_WORKER_PORT?: number;
  @IsOptional() @IsString() @MinLength(1) HOST?: string;
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, { message: 'must be an absolute http(s) URL' })
  PUBLIC_AUTH_URL?: string;
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, { message: 'must be an absolute http(s) URL' })
  PUBLIC_CONSOLE_URL?: string;
  @IsOptional()
  @Matches(/^(loopback|[0-9a-fA-F:.]+(\/\d{1,3})?(\s*,\s*[0-9a-fA-F:.]+(\/\d{1,3})?)*)$/, {
    message: 'must be "loopback" or a comma-separated list of IPs/CIDRs',
  })
  TRUST_PROXY?: string;
  @IsOptional() @IsIn(BOOL) COOKIE_SECURE?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1024) @Max(10485760) BODY_LIMIT_BYTES?: number;
  @IsOptional()
  @IsString()
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an absolute URL' })
  ERROR_TYPE_BASE?: string;
  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'log', 'debug', 'verbose'])
  LOG_LEVEL?: string;
  @IsOptional() @IsIn(BOOL) LOG_JSON?: string;
  @IsOptional() @IsIn(BOOL) RATE_LIMITS_ENABLED?: string;
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  RATE_LIMIT_GLOBAL_PER_MINUTE?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(100) @Max(60000) DEPENDENCY_TIMEOUT_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(600000) SHUTDOWN_GRACE_MS?: number;

  // --- metrics ---
  @IsOptional() @IsIn(BOOL) METRICS_ENABLED?: string;
  @IsOptional() @IsString() @MinLength(1) METRICS_HOST?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(65535) AUTH_RUNTIME_METRICS_PORT?: number;
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  CONTROL_PLANE_METRICS_PORT?: number;
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  WEBHOOK_WORKER_METRICS_PORT?: number;

  // --- database and cache ---
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// URL' })
  DATABASE_URL?: string;
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// URL' })
  REDIS_URL?: string;
  @IsOptional() @IsIn(BOOL) DATABASE_PREPARED_STATEMENTS?: string;
  @IsOptional() @IsIn(BOOL) GATEHOUSE_STANDALONE?: string;
  @IsOptional() @IsString() GATEHOUSE_DATA_DIR?: string;

  // --- auth ---
  @IsString({ message: 'is required (base64 of 32 random bytes)' })
  @Matches(/^[A-Za-z0-9+/_-]{42,44}={0,2}$/, { message: 'must be base64 of exactly 32 bytes' })
  ENCRYPTION_KEY!: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(4) @Max(15) BCRYPT_COST?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(1024) PASSWORD_HASH_CONCURRENCY?: number;
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(60000)
  PASSWORD_HASH_QUEUE_TIMEOUT_MS?: number;
  @IsOptional()
  @IsString()
  @Matches(/^[^@\s]+@[^@\s]+$/, { message: 'must be an email address' })
  BOOTSTRAP_ADMIN_EMAIL?: string;
  @IsOptional() @IsString() @MinLength(8) BOOTSTRAP_ADMIN_PASSWORD?: string;

  // --- mail and sms ---
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;
  @IsOptional() @IsString() @MinLength(3) MAIL_FROM?: string;
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  SMS_GATEWAY_URL?: string;
  @IsOptional() @IsIn(['smtp', 'log'], { message: 'must be smtp or log' }) MAIL_TRANSPORT?: string;
  @IsOptional() @IsIn(['http', 'log'], { message: 'must be http or log' }) SMS_TRANSPORT?: string;

  // --- webhooks ---
  @IsOptional() @IsIn(PRIVATE_URLS) WEBHOOK_ALLOW_PRIVATE_URLS?: string;
  @IsOptional()
  @Matches(DURATION_LIST, { message: 'must be a comma-separated list of delays such as 5s,5m,2h' })
  WEBHOOK_RETRY_SCHEDULE?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(100) @Max(120000) WEBHOOK_TIMEOUT_MS?: number;

  // --- oauth ---
  @IsOptional() @Type(() => Number) @IsInt() @Min(100) @Max(60000) OAUTH_TIMEOUT_MS?: number;
  @IsOptional() @IsIn(PRIVATE_URLS) OAUTH_ALLOW_PRIVATE_URLS?: string;

  // --- dns ---
  @IsOptional() @IsString() DNS_RESOLVERS?: string;
}

export const ENV_KEYS = [
  'NODE_ENV',
  'AUTH_RUNTIME_PORT',
  'CONTROL_PLANE_PORT',
  'WEBHOOK_WORKER_PORT',
  'HOST',
  'PUBLIC_AUTH_URL',
  'PUBLIC_CONSOLE_URL',
  'TRUST_PROXY',
  'COOKIE_SECURE',
  'BODY_LIMIT_BYTES',
  'ERROR_TYPE_BASE',
  'LOG_LEVEL',
  'LOG_JSON',
  'RATE_LIMITS_ENABLED',
  'RATE_LIMIT_GLOBAL_PER_MINUTE',
  'DEPENDENCY_TIMEOUT_MS',
  'SHUTDOWN_GRACE_MS',
  'METRICS_ENABLED',
  'METRICS_HOST',
  'AUTH_RUNTIME_METRICS_PORT',
  'CONTROL_PLANE_METRICS_PORT',
  'WEBHOOK_WORKER_METRICS_PORT',
  'DATABASE_URL',
  'REDIS_URL',
  'DATABASE_PREPARED_STATEMENTS',
  'GATEHOUSE_STANDALONE',
  'GATEHOUSE_DATA_DIR',
  'ENCRYPTION_KEY',
  'BCRYPT_COST',
  'PASSWORD_HASH_CONCURRENCY',
  'PASSWORD_HASH_QUEUE_TIMEOUT_MS',
  'BOOTSTRAP_ADMIN_EMAIL',
  'BOOTSTRAP_ADMIN_PASSWORD',
  'SMTP_URL',
  'MAIL_FROM',
  'SMS_GATEWAY_URL',
  'MAIL_TRANSPORT',
  'SMS_TRANSPORT',
  'WEBHOOK_ALLOW_PRIVATE_URLS',
  'WEBHOOK_RETRY_SCHEDULE',
  'WEBHOOK_TIMEOUT_MS',
  'OAUTH_TIMEOUT_MS',
  'OAUTH_ALLOW_PRIVATE_URLS',
  'DNS_RESOLVERS',
] as const satisfies readonly (keyof EnvSchema)[];
