export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'log' | 'debug' | 'verbose';

/**
 * Which non-public addresses outbound calls to admin-supplied URLs may reach (`*_ALLOW_PRIVATE_URLS`:
 * `false` → none, `loopback` → loopback, `true` → any). Link-local and cloud metadata endpoints are
 * refused in every mode (libs/outbound).
 */
export type PrivateUrlMode = 'none' | 'loopback' | 'any';

export interface AppConfig {
  readonly env: 'development' | 'production' | 'test';
  /**
   * `NODE_ENV=development` said explicitly (`npm start` sets it when unset): a developer's own
   * machine. Loopback webhook and provider URLs are then allowed by default, and mail and SMS in
   * log mode are logged whole. An unset NODE_ENV (a deployment that forgot it) gets neither.
   */
  readonly localDevelopment: boolean;
  readonly http: {
    readonly host: string;
    readonly ports: {
      readonly authRuntime: number;
      readonly controlPlane: number;
      readonly webhookWorker: number;
    };
    readonly publicAuthUrl: string;
    /** Where the control plane serves the admin console (`PUBLIC_CONSOLE_URL`); its origin is a console project's allowed origin at creation. */
    readonly publicConsoleUrl: string;
    /** `false` = trust no proxy; otherwise the proxy-addr style list handed to Express `trust proxy`. */
    readonly trustProxy: false | string[];
    readonly cookieSecure: boolean;
    readonly bodyLimitBytes: number;
    readonly errorTypeBase: string;
    readonly logLevel: LogLevel;
    readonly logJson: boolean;
    readonly rateLimitsEnabled: boolean;
    /** The global limit: requests a minute per client address, all routes together (docs/api-contract.md §3). */
    readonly globalRateLimitPerMinute: number;
    readonly dependencyTimeoutMs: number;
    readonly shutdownGraceMs: number;
  };
  readonly metrics: {
    readonly enabled: boolean;
    /** Metrics listen on their own address so they can be kept private (default loopback). */
    readonly host: string;
    readonly ports: {
      readonly authRuntime: number;
      readonly controlPlane: number;
      readonly webhookWorker: number;
    };
  };
  /** `preparedStatements`: hot statements are named (prepared once per connection); off behind a pooler that cannot keep them. */
  readonly database: {
    readonly url: string;
    readonly urlGiven: boolean;
    readonly preparedStatements: boolean;
  };
  readonly redis: { readonly url: string; readonly urlGiven: boolean };
  readonly standalone: { readonly forced: boolean; readonly dataDir: string };
  readonly auth: {
    readonly encryptionKey: Buffer;
    readonly bcryptCost: number;
    /** At most this many bcrypt hashes or compares at once (default: the number of cores), so hashing never crowds the event loop off the CPU. */
    readonly passwordHashConcurrency: number;
    /** A sign-in whose password check waited this long for its turn is answered 503 at that moment. */
    readonly passwordHashQueueTimeoutMs: number;
    readonly bootstrapAdminEmail: string | null;
    readonly bootstrapAdminPassword: string | null;
  };
  /** `transport`: `smtp` sends through `smtpUrl`; `log` writes each mail, tokens redacted, to the log. */
  readonly mail: {
    readonly smtpUrl: string | null;
    readonly from: string;
    readonly transport: 'smtp' | 'log';
  };
  /** `transport`: `http` posts to `gatewayUrl`; `log` writes each SMS, codes redacted, to the log. */
  readonly sms: { readonly gatewayUrl: string | null; readonly transport: 'http' | 'log' };
  readonly webhooks: {
    readonly allowPrivateUrls: PrivateUrlMode;
    /** Delays in milliseconds between attempts: attempt n+1 waits retryScheduleMs[n-1]. */
    readonly retryScheduleMs: readonly number[];
    readonly timeoutMs: number;
  };
  readonly oauth: {
    /** Bound on each call to an identity provider (token, profile, JWKS, discovery). */
    readonly timeoutMs: number;
    /** Addresses that provider calls (discovery, keys, token, userinfo, emails) may reach besides public ones. */
    readonly allowPrivateUrls: PrivateUrlMode;
  };
  readonly dns: {
    /** Servers (`ip` or `ip:port`, `[v6]:port`) for domain verification's TXT lookups; empty: the system's. */
    readonly resolvers: readonly string[];
  };
}
