import { availableParallelism } from 'node:os';
import { ConfigError, loadConfig, parseDurationList } from './load-config';

const KEY = Buffer.alloc(32, 1).toString('base64');

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({ ENCRYPTION_KEY: KEY });
    expect(c.http.ports).toEqual({ authRuntime: 4000, controlPlane: 4001, webhookWorker: 4002 });
    expect(c.database.url).toBe('postgres://postgres@127.0.0.1:5432/gatehouse');
    expect(c.redis.url).toBe('redis://127.0.0.1:6379');
    expect(c.http.cookieSecure).toBe(true);
    expect(c.auth.bcryptCost).toBe(10);
    expect(c.http.trustProxy).toBe(false);
    expect(c.webhooks.allowPrivateUrls).toBe('none');
    expect(c.oauth.allowPrivateUrls).toBe('none');
    expect(c.webhooks.retryScheduleMs).toEqual([5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6]);
    expect(c.auth.encryptionKey).toHaveLength(32);
    expect(Object.isFrozen(c.http)).toBe(true);
  });

  it('runs one password hash per core unless PASSWORD_HASH_CONCURRENCY says otherwise', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY }).auth.passwordHashConcurrency).toBe(availableParallelism());
    expect(loadConfig({ ENCRYPTION_KEY: KEY, PASSWORD_HASH_CONCURRENCY: '6' }).auth.passwordHashConcurrency).toBe(6);
    expect(() => loadConfig({ ENCRYPTION_KEY: KEY, PASSWORD_HASH_CONCURRENCY: '0' })).toThrow(/PASSWORD_HASH_CONCURRENCY/);
    expect(() => loadConfig({ ENCRYPTION_KEY: KEY, PASSWORD_HASH_CONCURRENCY: 'many' })).toThrow(/PASSWORD_HASH_CONCURRENCY/);
  });

  it('names every bad variable, one line each', () => {
    let err: unknown;
    try {
      loadConfig({ ENCRYPTION_KEY: 'short', BCRYPT_COST: '9', AUTH_RUNTIME_PORT: 'x', COOKIE_SECURE: 'maybe' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const lines = (err as ConfigError).problems;
    expect(lines.map((l) => l.split(':')[0]).sort()).toEqual(['AUTH_RUNTIME_PORT', 'BCRYPT_COST', 'COOKIE_SECURE', 'ENCRYPTION_KEY']);
  });

  it('names hot statements unless DATABASE_PREPARED_STATEMENTS is off or the database is the embedded one', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY }).database.preparedStatements).toBe(true);
    expect(loadConfig({ ENCRYPTION_KEY: KEY, DATABASE_PREPARED_STATEMENTS: 'false' }).database.preparedStatements).toBe(false);
    expect(loadConfig({ ENCRYPTION_KEY: KEY, GATEHOUSE_STANDALONE: '1' }).database.preparedStatements).toBe(false);
    expect(() => loadConfig({ ENCRYPTION_KEY: KEY, DATABASE_PREPARED_STATEMENTS: 'sometimes' })).toThrow(ConfigError);
  });

  it('reads WEBHOOK_ALLOW_PRIVATE_URLS and OAUTH_ALLOW_PRIVATE_URLS as false, loopback or true', () => {
    const modes = (value: string) => {
      const c = loadConfig({ ENCRYPTION_KEY: KEY, WEBHOOK_ALLOW_PRIVATE_URLS: value, OAUTH_ALLOW_PRIVATE_URLS: value });
      return [c.webhooks.allowPrivateUrls, c.oauth.allowPrivateUrls];
    };
    for (const v of ['false', '0', 'no', '']) expect(modes(v)).toEqual(['none', 'none']);
    for (const v of ['true', '1', 'yes']) expect(modes(v)).toEqual(['any', 'any']);
    expect(modes('loopback')).toEqual(['loopback', 'loopback']);
    expect(loadConfig({ ENCRYPTION_KEY: KEY, OAUTH_ALLOW_PRIVATE_URLS: 'loopback' }).webhooks.allowPrivateUrls).toBe('none');
    for (const bad of ['localhost', 'private', 'TRUE ']) {
      expect(() => loadConfig({ ENCRYPTION_KEY: KEY, WEBHOOK_ALLOW_PRIVATE_URLS: bad })).toThrow(/^WEBHOOK_ALLOW_PRIVATE_URLS: /);
      expect(() => loadConfig({ ENCRYPTION_KEY: KEY, OAUTH_ALLOW_PRIVATE_URLS: bad })).toThrow(/^OAUTH_ALLOW_PRIVATE_URLS: /);
    }
  });

  it('requires ENCRYPTION_KEY', () => {
    expect(() => loadConfig({})).toThrow(/ENCRYPTION_KEY/);
  });

  it('parses trusted proxies and retry schedules with units', () => {
    const c = loadConfig({ ENCRYPTION_KEY: KEY, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1', WEBHOOK_RETRY_SCHEDULE: '1s,2m,3h,4' });
    expect(c.http.trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(c.webhooks.retryScheduleMs).toEqual([1000, 120000, 10800000, 4000]);
    expect(parseDurationList('5s')).toEqual([5000]);
  });
});
