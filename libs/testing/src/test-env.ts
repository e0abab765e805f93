/**
 * The test environment: a separate database and Redis database so `npm test` never touches the
 * data of `npm start`. Override with TEST_DATABASE_URL / TEST_REDIS_URL.
 */
// eslint-disable-next-line no-restricted-properties -- test harness reads its own overrides
const env = process.env;

export const TEST_DATABASE_URL = env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gatehouse_test';
export const TEST_REDIS_URL = env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/1';
/** A fixed key for tests only (32 bytes, base64). */
export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

export const TEST_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  DATABASE_URL: TEST_DATABASE_URL,
  REDIS_URL: TEST_REDIS_URL,
  ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  BCRYPT_COST: '10',
  LOG_LEVEL: 'error',
  PUBLIC_AUTH_URL: 'http://auth.test',
  ERROR_TYPE_BASE: 'https://gatehouse.dev/problems',
  // Local receivers and identity providers listen on 127.0.0.1; every other private address stays refused.
  WEBHOOK_ALLOW_PRIVATE_URLS: 'loopback',
  OAUTH_ALLOW_PRIVATE_URLS: 'loopback',
};
