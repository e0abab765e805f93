/**
 * The test environment: a separate database and Redis database so `npm test` never touches the
 * data of `npm start`. Override with TEST_DATABASE_URL / TEST_REDIS_URL.
 *
 * e2e files run in parallel, one Jest worker each: worker N (JEST_WORKER_ID) works in a database
 * of its own, `<database>_w<N>` (globalSetup clones it from the migrated `<database>`, the
 * template), and in Redis database `<db> + N - 1`. Outside Jest (no worker id) the URLs are used as given.
 */
// eslint-disable-next-line no-restricted-properties -- test harness reads its own overrides
const env = process.env;

/** The migrated database every worker's database is cloned from. */
export const TEST_TEMPLATE_DATABASE_URL =
  env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gatehouse_test';
const BASE_REDIS_URL = env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/1';
const WORKER = Number(env.JEST_WORKER_ID ?? 0);

/** The database of Jest worker `worker` (1…N): `<database>_w<worker>`; the template itself for 0. */
export function workerDatabaseUrl(template: string, worker: number): string {
  if (!worker) return template;
  const url = new URL(template);
  url.pathname = `${url.pathname}_w${worker}`;
  return url.toString();
}

/** The Redis database of Jest worker `worker` (1…N): the given database number plus worker − 1. */
export function workerRedisUrl(base: string, worker: number): string {
  if (!worker) return base;
  const url = new URL(base);
  const db = Number(url.pathname.slice(1) || 0) + worker - 1;
  // Redis has 16 databases unless configured otherwise.
  if (db > 15)
    throw new Error(
      `TEST_REDIS_URL ${base} leaves no Redis database for Jest worker ${worker} (${db} > 15): choose a lower database or fewer workers`,
    );
  url.pathname = `/${db}`;
  return url.toString();
}

export const TEST_DATABASE_URL = workerDatabaseUrl(TEST_TEMPLATE_DATABASE_URL, WORKER);
export const TEST_REDIS_URL = workerRedisUrl(BASE_REDIS_URL, WORKER);
/** A fixed key for tests only (32 bytes, base64). */
export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

export const TEST_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  DATABASE_URL: TEST_DATABASE_URL,
  REDIS_URL: TEST_REDIS_URL,
  ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  // The lowest cost (NODE_ENV=test only): e2e files sign up thousands of users. A file that measures
  // hashing (sign-in timing) sets 10.
  BCRYPT_COST: '4',
  LOG_LEVEL: 'error',
  PUBLIC_AUTH_URL: 'http://auth.test',
  ERROR_TYPE_BASE: 'https://gatehouse.dev/problems',
  // Local receivers and identity providers listen on 127.0.0.1; every other private address stays refused.
  WEBHOOK_ALLOW_PRIVATE_URLS: 'loopback',
  OAUTH_ALLOW_PRIVATE_URLS: 'loopback',
};

/**
 * TEST_ENV under `overrides`: an app that does not run with NODE_ENV=test (production or
 * development, as some journeys start it) hashes at 10, the lowest cost the config accepts there.
 */
export function testEnvWith(overrides: Record<string, string> = {}): Record<string, string> {
  const nodeEnv = overrides.NODE_ENV ?? TEST_ENV.NODE_ENV;
  return { ...TEST_ENV, ...(nodeEnv === 'test' ? {} : { BCRYPT_COST: '10' }), ...overrides };
}
