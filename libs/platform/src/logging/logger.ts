import {
  ConsoleLogger,
  type ConsoleLoggerOptions,
  type LogLevel as NestLogLevel,
} from '@nestjs/common';
import type { AppConfig } from '@gatehouse/config';

const ORDER: NestLogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

export function logLevelsFor(level: AppConfig['http']['logLevel']): NestLogLevel[] {
  const wanted: NestLogLevel = level === 'info' ? 'log' : level;
  return ORDER.slice(0, ORDER.indexOf(wanted) + 1);
}

/** Where Nest logs its start-up: modules loaded, controllers and routes mapped, app created and started. */
const NEST_BOOTSTRAP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
  'NestMicroservice',
]);

/** Nest's start-up lines (a page of them per app) are shown from LOG_LEVEL=debug; their warnings and errors always. */
class AppLogger extends ConsoleLogger {
  constructor(
    context: string,
    options: ConsoleLoggerOptions,
    private readonly bootstrapLines: boolean,
  ) {
    super(context, options);
  }

  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    if (!this.bootstrapLines && typeof context === 'string' && NEST_BOOTSTRAP_CONTEXTS.has(context))
      return;
    super.log(message, ...optionalParams);
  }

  /** A text line is short: `05:21:08 LOG [auth-runtime] message` (the time of day, no pid or date; JSON lines carry both). */
  protected override formatMessage(
    logLevel: NestLogLevel,
    message: unknown,
    _pid: string,
    _level: string,
    contextMessage: string,
    timestampDiff: string,
  ): string {
    return `${this.getTimestamp()} ${logLevel.toUpperCase()} ${contextMessage}${this.stringifyMessage(message, logLevel)}${timestampDiff}\n`;
  }

  protected override getTimestamp(): string {
    return new Date().toTimeString().slice(0, 8);
  }
}

/** The one logger: JSON lines in production (LOG_JSON), level from LOG_LEVEL. */
export function createLogger(config: AppConfig, appName: string): ConsoleLogger {
  const logLevels = logLevelsFor(config.http.logLevel);
  return new AppLogger(
    appName,
    { json: config.http.logJson, logLevels, colors: false },
    logLevels.includes('debug'),
  );
}
