import 'reflect-metadata';
import { isIPv4, isIPv6 } from 'node:net';
import { availableParallelism } from 'node:os';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import type { AppConfig, LogLevel, PrivateUrlMode } from './app-config';
import { ENV_KEYS, EnvSchema } from './env.schema';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/gatehouse';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

const truthy = (v: string | undefined, dflt: boolean): boolean =>
  v === undefined || v === '' ? dflt : ['true', '1', 'yes'].includes(v.toLowerCase());

/**
 * `*_ALLOW_PRIVATE_URLS`: `loopback`, or a boolean (true → any private address). Unset, it is
 * `loopback` with NODE_ENV=development said explicitly (what `npm start` runs: a webhook receiver
 * or identity provider on this machine works on the first try) and `false` anywhere else.
 */
const privateUrlMode = (v: string | undefined, localDevelopment: boolean): PrivateUrlMode =>
  v === undefined || v === ''
    ? localDevelopment
      ? 'loopback'
      : 'none'
    : v.toLowerCase() === 'loopback'
      ? 'loopback'
      : truthy(v, false)
        ? 'any'
        : 'none';

export function parseDurationList(list: string): number[] {
  return list.split(',').map((item) => {
    const m = /^\s*(\d+)\s*([smh]?)\s*$/.exec(item);
    if (!m) throw new ConfigError([`WEBHOOK_RETRY_SCHEDULE: "${item}" is not a delay`]);
    const unit = m[2] === 'h' ? 3_600_000 : m[2] === 'm' ? 60_000 : 1_000;
    return Number(m[1]) * unit;
  });
}

const MAIL_DELIVERY = {
  url: 'SMTP_URL',
  transport: 'MAIL_TRANSPORT',
  send: 'smtp',
  logged: 'mail to the log instead of sending it',
} as const;
const SMS_DELIVERY = {
  url: 'SMS_GATEWAY_URL',
  transport: 'SMS_TRANSPORT',
  send: 'http',
  logged: 'SMS to the log instead of sending them',
} as const;

/**
 * How mail (or SMS) leaves: the explicit `*_TRANSPORT`, else sending when the URL is set, else the
 * log — except in production, where an unset URL must be answered by an explicit `log`, so that a
 * forgotten variable cannot silently turn delivery into log lines. Adds a problem line when the
 * choice cannot be made.
 */
function deliveryTransport<T extends string>(
  nodeEnv: AppConfig['env'],
  url: string | undefined,
  given: string | undefined,
  names: { url: string; transport: string; send: T; logged: string },
  problems: string[],
): T | 'log' {
  if (given === 'log') return 'log';
  if (url !== undefined) return names.send;
  if (given === names.send)
    problems.push(`${names.url}: is required when ${names.transport}=${names.send}`);
  else if (nodeEnv === 'production')
    problems.push(
      `${names.url}: is required when NODE_ENV=production (or set ${names.transport}=log to write ${names.logged})`,
    );
  return 'log';
}

/**
 * `DNS_RESOLVERS`: comma-separated `ip`, `ip:port` (IPv4) or `[ip]:port` / `ip` (IPv6), as Node's
 * `Resolver.setServers` takes them; a problem line for each entry that is not one.
 */
export function parseDnsResolvers(list: string | undefined, problems: string[]): string[] {
  if (list === undefined || list.trim() === '') return [];
  const servers: string[] = [];
  for (const raw of list.split(',')) {
    const entry = raw.trim();
    const v6 = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
    const v4 = /^([\d.]+)(?::(\d{1,5}))?$/.exec(entry);
    const [ip, port] = v6 ? [v6[1], v6[2]] : v4 ? [v4[1], v4[2]] : [entry, undefined];
    const ipOk = v6 || !v4 ? isIPv6(ip) : isIPv4(ip);
    const portOk = port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
    if (!ipOk || !portOk)
      problems.push(`DNS_RESOLVERS: "${entry}" is not an ip or ip:port ([ipv6]:port)`);
    else servers.push(entry);
  }
  return servers;
}

function describe(errors: ValidationError[]): string[] {
  return errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
}

/**
 * Validates the environment once and returns a frozen, typed AppConfig. Throws ConfigError listing
 * every bad variable, one line each; `loadConfigOrExit` prints those lines and stops the process.
 */
export function loadConfig(source: Record<string, string | undefined>): AppConfig {
  const raw: Record<string, string> = {};
  for (const key of ENV_KEYS) {
    const v = source[key];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  const env = plainToInstance(EnvSchema, raw);
  const problems = describe(validateSync(env, { forbidUnknownValues: false }));
  // Costs 4-9 only for the tests, whose thousands of sign-ups would otherwise spend most of their
  // time hashing; a deployment hashes at 10 or more.
  if (env.BCRYPT_COST !== undefined && env.BCRYPT_COST < 10 && env.NODE_ENV !== 'test')
    problems.push('BCRYPT_COST: must not be less than 10 (lower costs are for NODE_ENV=test only)');
  if (problems.length > 0) throw new ConfigError(problems);

  const key = Buffer.from(env.ENCRYPTION_KEY.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== 32)
    throw new ConfigError(['ENCRYPTION_KEY: must be base64 of exactly 32 bytes']);

  const nodeEnv = (env.NODE_ENV ?? 'development') as AppConfig['env'];
  const localDevelopment = env.NODE_ENV === 'development';
  const deliveryProblems: string[] = [];
  const mailTransport = deliveryTransport(
    nodeEnv,
    env.SMTP_URL,
    env.MAIL_TRANSPORT,
    MAIL_DELIVERY,
    deliveryProblems,
  );
  const smsTransport = deliveryTransport(
    nodeEnv,
    env.SMS_GATEWAY_URL,
    env.SMS_TRANSPORT,
    SMS_DELIVERY,
    deliveryProblems,
  );
  const dnsResolvers = parseDnsResolvers(env.DNS_RESOLVERS, deliveryProblems);
  if (deliveryProblems.length > 0) throw new ConfigError(deliveryProblems);
  const trust = env.TRUST_PROXY?.trim();
  const config: AppConfig = {
    env: nodeEnv,
    localDevelopment,
    http: {
      host: env.HOST ?? '0.0.0.0',
      ports: {
        authRuntime: env.AUTH_RUNTIME_PORT ?? 4000,
        controlPlane: env.CONTROL_PLANE_PORT ?? 4001,
        webhookWorker: env.WEBHOOK_WORKER_PORT ?? 4002,
      },
      publicAuthUrl: (
        env.PUBLIC_AUTH_URL ?? `http://localhost:${env.AUTH_RUNTIME_PORT ?? 4000}`
      ).replace(/\/+$/, ''),
      publicConsoleUrl: (
        env.PUBLIC_CONSOLE_URL ?? `http://localhost:${env.CONTROL_PLANE_PORT ?? 4001}/console`
      ).replace(/\/+$/, ''),
      trustProxy: trust ? trust.split(',').map((s) => s.trim()) : false,
      cookieSecure: truthy(env.COOKIE_SECURE, true),
      bodyLimitBytes: env.BODY_LIMIT_BYTES ?? 100 * 1024,
      errorTypeBase: (env.ERROR_TYPE_BASE ?? 'https://gatehouse.dev/problems').replace(/\/+$/, ''),
      logLevel: (env.LOG_LEVEL ?? 'info') as LogLevel,
      logJson: truthy(env.LOG_JSON, nodeEnv === 'production'),
      rateLimitsEnabled: truthy(env.RATE_LIMITS_ENABLED, true),
      globalRateLimitPerMinute: env.RATE_LIMIT_GLOBAL_PER_MINUTE ?? 1000,
      dependencyTimeoutMs: env.DEPENDENCY_TIMEOUT_MS ?? 3000,
      shutdownGraceMs: env.SHUTDOWN_GRACE_MS ?? 10000,
    },
    metrics: {
      enabled: truthy(env.METRICS_ENABLED, true),
      host: env.METRICS_HOST ?? '127.0.0.1',
      ports: {
        authRuntime: env.AUTH_RUNTIME_METRICS_PORT ?? 9464,
        controlPlane: env.CONTROL_PLANE_METRICS_PORT ?? 9465,
        webhookWorker: env.WEBHOOK_WORKER_METRICS_PORT ?? 9466,
      },
    },
    database: {
      url: env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
      urlGiven: env.DATABASE_URL !== undefined,
      // The embedded database serves every connection in one session, where named statements collide.
      preparedStatements:
        truthy(env.DATABASE_PREPARED_STATEMENTS, true) && !truthy(env.GATEHOUSE_STANDALONE, false),
    },
    redis: { url: env.REDIS_URL ?? DEFAULT_REDIS_URL, urlGiven: env.REDIS_URL !== undefined },
    standalone: {
      forced: truthy(env.GATEHOUSE_STANDALONE, false),
      dataDir: env.GATEHOUSE_DATA_DIR ?? '.gatehouse',
    },
    auth: {
      encryptionKey: key,
      bcryptCost: env.BCRYPT_COST ?? 10,
      passwordHashConcurrency: env.PASSWORD_HASH_CONCURRENCY ?? availableParallelism(),
      passwordHashQueueTimeoutMs: env.PASSWORD_HASH_QUEUE_TIMEOUT_MS ?? 10000,
      bootstrapAdminEmail: env.BOOTSTRAP_ADMIN_EMAIL ?? null,
      bootstrapAdminPassword: env.BOOTSTRAP_ADMIN_PASSWORD ?? null,
    },
    mail: {
      smtpUrl: env.SMTP_URL ?? null,
      from: env.MAIL_FROM ?? 'Gatehouse <no-reply@localhost>',
      transport: mailTransport,
    },
    sms: { gatewayUrl: env.SMS_GATEWAY_URL ?? null, transport: smsTransport },
    webhooks: {
      allowPrivateUrls: privateUrlMode(env.WEBHOOK_ALLOW_PRIVATE_URLS, localDevelopment),
      retryScheduleMs: parseDurationList(env.WEBHOOK_RETRY_SCHEDULE ?? DEFAULT_RETRY_SCHEDULE),
      timeoutMs: env.WEBHOOK_TIMEOUT_MS ?? 15000,
    },
    oauth: {
      timeoutMs: env.OAUTH_TIMEOUT_MS ?? 10000,
      allowPrivateUrls: privateUrlMode(env.OAUTH_ALLOW_PRIVATE_URLS, localDevelopment),
    },
    dns: { resolvers: dnsResolvers },
  };
  return deepFreeze(config);
}

function deepFreeze<T>(obj: T): T {
  if (obj && typeof obj === 'object' && !Buffer.isBuffer(obj)) {
    for (const v of Object.values(obj)) deepFreeze(v);
    Object.freeze(obj);
  }
  return obj;
}

/** For app entry points: prints one line per bad variable and exits with status 1. */
export function loadConfigOrExit(source: Record<string, string | undefined>): AppConfig {
  try {
    return loadConfig(source);
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const line of err.problems) process.stderr.write(`Invalid configuration: ${line}\n`);
      process.exit(1);
    }
    throw err;
  }
}
