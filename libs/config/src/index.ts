/** The one validated configuration: environment variables checked once at start-up into a typed AppConfig. */
export type { AppConfig, LogLevel, PrivateUrlMode } from './app-config';
export { EnvSchema, ENV_KEYS } from './env.schema';
export {
  ConfigError,
  DEFAULT_DATABASE_URL,
  DEFAULT_REDIS_URL,
  DEFAULT_RETRY_SCHEDULE,
  loadConfig,
  loadConfigOrExit,
  parseDurationList,
} from './load-config';
export { APP_CONFIG } from './tokens';
