import { ConsoleLogger, type LogLevel as NestLogLevel } from '@nestjs/common';
import type { AppConfig } from '@gatehouse/config';

const ORDER: NestLogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

export function logLevelsFor(level: AppConfig['http']['logLevel']): NestLogLevel[] {
  const wanted: NestLogLevel = level === 'info' ? 'log' : level;
  return ORDER.slice(0, ORDER.indexOf(wanted) + 1);
}

/** The one logger: JSON lines in production (LOG_JSON), level from LOG_LEVEL. */
export function createLogger(config: AppConfig, appName: string): ConsoleLogger {
  return new ConsoleLogger(appName, { json: config.http.logJson, logLevels: logLevelsFor(config.http.logLevel), colors: false });
}
