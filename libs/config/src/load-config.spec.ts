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
    expect(c.localDevelopment).toBe(false);
    expect(c.webhooks.retryScheduleMs).toEqual([5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6]);
    expect(c.auth.encryptionKey).toHaveLength(32);
    expect(Object.isFrozen(c.http)).toBe(true);
  });

  it('runs one password hash per core unless PASSWORD_HASH_CONCURRENCY says otherwise', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY }).auth.passwordHashConcurrency).toBe(
      availableParallelism(),
    );
    expect(
      loadConfig({ ENCRYPTION_KEY: KEY, PASSWORD_HASH_CONCURRENCY: '6' }).auth
        .passwordHashConcurrency,
    ).toBe(6);
    expect(() => loadConfig({ ENCRYPTION_KEY: KEY, PASSWORD_HASH_CONCURRENCY: '0' })).toThrow(
      /PASSWORD_HASH_CONCURRENCY/,
    );
    expect(() => loadConfig({ ENCRYPTION_KEY: KEY, PASSWORD_HASH_CONCURRENCY: 'many' })).toThrow(
      /PASSWORD_HASH_CONCURRENCY/,
    );
  });

  it('limits every address to 1000 requests a minute unless RATE_LIMIT_GLOBAL_PER_MINUTE says otherwise', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY }).http.globalRateLimitPerMinute).toBe(1000);
    expect(
      loadConfig({ ENCRYPTION_KEY: KEY, RATE_LIMIT_GLOBAL_PER_MINUTE: '5000' }).http
        .globalRateLimitPerMinute,
    ).toBe(5000);
    for (const bad of ['0', '-1', '1.5', 'lots'])
      expect(() => loadConfig({ ENCRYPTION_KEY: KEY, RATE_LIMIT_GLOBAL_PER_MINUTE: bad })).toThrow(
        /RATE_LIMIT_GLOBAL_PER_MINUTE/,
      );
  });

  it('names every bad variable, one line each', () => {
    let err: unknown;
    try {
      loadConfig({
        ENCRYPTION_KEY: 'short',
        BCRYPT_COST: '9',
        AUTH_RUNTIME_PORT: 'x',
        COOKIE_SECURE: 'maybe',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const lines = (err as ConfigError).problems;
    expect(lines.map((l) => l.split(':')[0]).sort()).toEqual([
      'AUTH_RUNTIME_PORT',
      'BCRYPT_COST',
      'COOKIE_SECURE',
      'ENCRYPTION_KEY',
    ]);
  });

  it('accepts a bcrypt cost below 10 only with NODE_ENV=test, never below 4', () => {
    expect(
      loadConfig({ ENCRYPTION_KEY: KEY, NODE_ENV: 'test', BCRYPT_COST: '4' }).auth.bcryptCost,
    ).toBe(4);
    for (const env of [{}, { NODE_ENV: 'production' }, { NODE_ENV: 'development' }])
      expect(() => loadConfig({ ENCRYPTION_KEY: KEY, BCRYPT_COST: '9', ...env })).toThrow(
        'BCRYPT_COST: must not be less than 10 (lower costs are for NODE_ENV=test only)',
      );
    expect(() => loadConfig({ ENCRYPTION_KEY: KEY, NODE_ENV: 'test', BCRYPT_COST: '3' })).toThrow(
      ConfigError,
    );
  });

  it('names hot statements unless DATABASE_PREPARED_STATEMENTS is off or the database is the embedded one', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY }).database.preparedStatements).toBe(true);
    expect(
      loadConfig({ ENCRYPTION_KEY: KEY, DATABASE_PREPARED_STATEMENTS: 'false' }).database
        .preparedStatements,
    ).toBe(false);
    expect(
      loadConfig({ ENCRYPTION_KEY: KEY, GATEHOUSE_STANDALONE: '1' }).database.preparedStatements,
    ).toBe(false);
    expect(() =>
      loadConfig({ ENCRYPTION_KEY: KEY, DATABASE_PREPARED_STATEMENTS: 'sometimes' }),
    ).toThrow(ConfigError);
  });

  it('takes loopback for unset (or empty) *_ALLOW_PRIVATE_URLS only with NODE_ENV=development said (npm start), false when NODE_ENV is unset, production or test', () => {
    const modes = (env: Record<string, string>) => {
      const c = loadConfig({ ENCRYPTION_KEY: KEY, ...env });
      return [c.webhooks.allowPrivateUrls, c.oauth.allowPrivateUrls];
    };
    expect(modes({})).toEqual(['none', 'none']);
    expect(modes({ NODE_ENV: 'development' })).toEqual(['loopback', 'loopback']);
    expect(loadConfig({ ENCRYPTION_KEY: KEY, NODE_ENV: 'development' }).localDevelopment).toBe(
      true,
    );
    expect(
      modes({
        NODE_ENV: 'development',
        WEBHOOK_ALLOW_PRIVATE_URLS: '',
        OAUTH_ALLOW_PRIVATE_URLS: '',
      }),
    ).toEqual(['loopback', 'loopback']);
    expect(
      modes({
        NODE_ENV: 'development',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'false',
        OAUTH_ALLOW_PRIVATE_URLS: 'true',
      }),
    ).toEqual(['none', 'any']);
    expect(modes({ NODE_ENV: 'production', MAIL_TRANSPORT: 'log', SMS_TRANSPORT: 'log' })).toEqual([
      'none',
      'none',
    ]);
    expect(modes({ NODE_ENV: 'test' })).toEqual(['none', 'none']);
  });

  it('reads DNS_RESOLVERS as ip[:port] entries ([ipv6]:port), empty meaning the system resolver', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY }).dns.resolvers).toEqual([]);
    expect(
      loadConfig({ ENCRYPTION_KEY: KEY, DNS_RESOLVERS: '1.1.1.1, 127.0.0.1:5353,[::1]:53,::1' }).dns
        .resolvers,
    ).toEqual(['1.1.1.1', '127.0.0.1:5353', '[::1]:53', '::1']);
    for (const bad of [
      'dns.example',
      '1.1.1.1:0',
      '1.1.1.1:70000',
      '300.1.1.1',
      '[1.1.1.1]:53',
      '1.1.1.1,',
    ])
      expect(() => loadConfig({ ENCRYPTION_KEY: KEY, DNS_RESOLVERS: bad })).toThrow(
        /^DNS_RESOLVERS: "/,
      );
  });

  it('reads WEBHOOK_ALLOW_PRIVATE_URLS and OAUTH_ALLOW_PRIVATE_URLS as false, loopback or true', () => {
    const modes = (value: string) => {
      const c = loadConfig({
        ENCRYPTION_KEY: KEY,
        WEBHOOK_ALLOW_PRIVATE_URLS: value,
        OAUTH_ALLOW_PRIVATE_URLS: value,
      });
      return [c.webhooks.allowPrivateUrls, c.oauth.allowPrivateUrls];
    };
    for (const v of ['false', '0', 'no', '']) expect(modes(v)).toEqual(['none', 'none']);
    for (const v of ['true', '1', 'yes']) expect(modes(v)).toEqual(['any', 'any']);
    expect(modes('loopback')).toEqual(['loopback', 'loopback']);
    expect(
      loadConfig({ ENCRYPTION_KEY: KEY, OAUTH_ALLOW_PRIVATE_URLS: 'loopback' }).webhooks
        .allowPrivateUrls,
    ).toBe('none');
    for (const bad of ['localhost', 'private', 'TRUE ']) {
      expect(() => loadConfig({ ENCRYPTION_KEY: KEY, WEBHOOK_ALLOW_PRIVATE_URLS: bad })).toThrow(
        /^WEBHOOK_ALLOW_PRIVATE_URLS: /,
      );
      expect(() => loadConfig({ ENCRYPTION_KEY: KEY, OAUTH_ALLOW_PRIVATE_URLS: bad })).toThrow(
        /^OAUTH_ALLOW_PRIVATE_URLS: /,
      );
    }
  });

  it('sends mail and SMS when their URL is set and writes them to the log otherwise, outside production', () => {
    for (const NODE_ENV of ['development', 'test']) {
      const unset = loadConfig({ ENCRYPTION_KEY: KEY, NODE_ENV });
      expect([unset.mail.transport, unset.sms.transport]).toEqual(['log', 'log']);
      const set = loadConfig({
        ENCRYPTION_KEY: KEY,
        NODE_ENV,
        SMTP_URL: 'smtp://127.0.0.1:1025',
        SMS_GATEWAY_URL: 'https://sms.example.com/send',
      });
      expect([set.mail.transport, set.sms.transport]).toEqual(['smtp', 'http']);
      expect([set.mail.smtpUrl, set.sms.gatewayUrl]).toEqual([
        'smtp://127.0.0.1:1025',
        'https://sms.example.com/send',
      ]);
    }
    const explicit = loadConfig({
      ENCRYPTION_KEY: KEY,
      SMTP_URL: 'smtp://127.0.0.1:1025',
      MAIL_TRANSPORT: 'log',
      SMS_GATEWAY_URL: 'https://sms.example.com/send',
      SMS_TRANSPORT: 'log',
    });
    expect([explicit.mail.transport, explicit.sms.transport]).toEqual(['log', 'log']);
  });

  it('refuses a transport without its URL, and an unknown transport, naming the variable', () => {
    const problems = (env: Record<string, string>): string[] => {
      try {
        loadConfig({ ENCRYPTION_KEY: KEY, ...env });
      } catch (e) {
        if (e instanceof ConfigError) return e.problems;
        throw e;
      }
      return [];
    };
    expect(problems({ MAIL_TRANSPORT: 'smtp', SMS_TRANSPORT: 'http' })).toEqual([
      'SMTP_URL: is required when MAIL_TRANSPORT=smtp',
      'SMS_GATEWAY_URL: is required when SMS_TRANSPORT=http',
    ]);
    expect(
      problems({ MAIL_TRANSPORT: 'sendmail', SMS_TRANSPORT: 'LOG' })
        .map((l) => l.split(':')[0])
        .sort(),
    ).toEqual(['MAIL_TRANSPORT', 'SMS_TRANSPORT']);
  });

  it('refuses to start in production without SMTP_URL or SMS_GATEWAY_URL unless MAIL_TRANSPORT / SMS_TRANSPORT say log', () => {
    const production = (env: Record<string, string>) =>
      loadConfig({ ENCRYPTION_KEY: KEY, NODE_ENV: 'production', ...env });
    let err: unknown;
    try {
      production({ SMTP_URL: '', SMS_GATEWAY_URL: '' }); // empty, as `${SMTP_URL:-}` in a compose file gives
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems).toEqual([
      'SMTP_URL: is required when NODE_ENV=production (or set MAIL_TRANSPORT=log to write mail to the log instead of sending it)',
      'SMS_GATEWAY_URL: is required when NODE_ENV=production (or set SMS_TRANSPORT=log to write SMS to the log instead of sending them)',
    ]);
    expect(() => production({ SMTP_URL: 'smtps://mail.example.com' })).toThrow(
      /^SMS_GATEWAY_URL: is required when NODE_ENV=production/,
    );
    expect(() => production({ SMS_GATEWAY_URL: 'https://sms.example.com/send' })).toThrow(
      /^SMTP_URL: is required when NODE_ENV=production/,
    );
    const sending = production({
      SMTP_URL: 'smtps://mail.example.com',
      SMS_GATEWAY_URL: 'https://sms.example.com/send',
    });
    expect([sending.mail.transport, sending.sms.transport]).toEqual(['smtp', 'http']);
    const logging = production({ MAIL_TRANSPORT: 'log', SMS_TRANSPORT: 'log' });
    expect([logging.mail.transport, logging.sms.transport]).toEqual(['log', 'log']);
  });

  it('requires ENCRYPTION_KEY', () => {
    expect(() => loadConfig({})).toThrow(/ENCRYPTION_KEY/);
  });

  it('parses trusted proxies and retry schedules with units', () => {
    const c = loadConfig({
      ENCRYPTION_KEY: KEY,
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      WEBHOOK_RETRY_SCHEDULE: '1s,2m,3h,4',
    });
    expect(c.http.trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(c.webhooks.retryScheduleMs).toEqual([1000, 120000, 10800000, 4000]);
    expect(parseDurationList('5s')).toEqual([5000]);
  });
});
