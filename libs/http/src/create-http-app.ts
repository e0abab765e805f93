import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { Server } from 'node:http';
import type { AppConfig } from '@gatehouse/config';
import { createLogger, logLevelsFor, startMetricsServer } from '@gatehouse/platform';
import { judgeBodiesAfterRouteGuards } from './body-error.guard';
import { hostRequiredMiddleware, installClientErrorHandler } from './client-error';
import { bodyMiddleware, requestContextMiddleware } from './request-context';

export interface HttpAppOptions {
  name: string;
  description: string;
  /** Paths that also accept form bodies. */
  formPaths?: string[];
  /** Routes, as their controllers write them (`/v1/…/:id/…`), whose `application/x-ndjson` body is left unread for the route to stream (user import). */
  streamRoutes?: string[];
  /** Called with the route list after init, e.g. to fill the 405 route table. */
  onRoutes?: (routes: { path: string; method: string }[]) => void;
  configure?: (app: NestExpressApplication) => void;
  /** Middleware that must run before body parsing (e.g. CORS, so 413/415 answers stay readable). */
  beforeBody?: (app: NestExpressApplication) => void;
  logger?: boolean;
  /** Serve OpenAPI and Swagger UI at /docs (default true). */
  docs?: boolean;
  /**
   * Build only the OpenAPI document (`servedOpenApiDocument`): the module graph is registered
   * without creating a provider (Nest's preview mode), so nothing connects to the database, Redis or
   * the queues, and the app cannot serve (`console:api`).
   */
  documentOnly?: boolean;
}

/** Lists the routes Express knows after Nest registered them. */
function listRoutes(app: NestExpressApplication): { path: string; method: string }[] {
  const instance = app.getHttpAdapter().getInstance() as {
    router?: { stack: unknown[] };
    _router?: { stack: unknown[] };
  };
  const stack = (instance.router ?? instance._router)?.stack ?? [];
  const routes: { path: string; method: string }[] = [];
  for (const layer of stack as { route?: { path: string; methods: Record<string, boolean> } }[]) {
    if (!layer.route) continue;
    for (const method of Object.keys(layer.route.methods))
      routes.push({ path: layer.route.path, method });
  }
  return routes;
}

/** The one problem-details schema (RFC 9457, docs/api-contract.md §4): every answer that is not a success. */
const PROBLEM_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'traceId'],
  properties: {
    type: {
      type: 'string',
      format: 'uri',
      example: 'https://gatehouse.dev/problems/validation-error',
    },
    title: { type: 'string', example: 'Validation Error' },
    status: { type: 'integer', example: 400 },
    detail: { type: 'string', example: 'The request is invalid.' },
    instance: { type: 'string', example: '/v1/auth/sign-up' },
    traceId: { type: 'string', pattern: '^[0-9a-f]{32}$' },
    errors: {
      type: 'object',
      description: 'Field errors on dotted paths (`validation-error`, some `conflict`s)',
      additionalProperties: { type: 'array', items: { type: 'string' } },
      example: { email: ['must be an email address'] },
    },
  },
  additionalProperties: true,
  description:
    'Extensions such as `locked_until` (account-locked) or `max_age_seconds` (reauthentication-required) may appear.',
};

/**
 * Declares the problem answers of every operation once: the shared `Problem` schema, and a
 * `default` response of `application/problem+json` (any status the operation does not list as a
 * success is a problem document).
 */
function documentProblems(document: OpenAPIObject): void {
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, Problem: PROBLEM_SCHEMA },
  };
  const problem = {
    description: 'A problem (RFC 9457): every answer that is not a success',
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
  for (const item of Object.values(document.paths)) {
    for (const method of [
      'get',
      'put',
      'post',
      'delete',
      'options',
      'head',
      'patch',
      'trace',
    ] as const) {
      const operation = item[method];
      if (operation)
        operation.responses = {
          ...operation.responses,
          default: operation.responses?.default ?? problem,
        };
    }
  }
}

const DOCUMENTS = new WeakMap<object, OpenAPIObject>();

/** The OpenAPI document the app serves at `/docs/openapi.json` (the same object), if it serves one. */
export function servedOpenApiDocument(app: object): OpenAPIObject | undefined {
  return DOCUMENTS.get(app);
}

/** The app's OpenAPI document: its routes, the security schemes and the problem answers. */
function openApiDocument(app: INestApplication, opts: HttpAppOptions): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle(`Gatehouse ${opts.name}`)
      .setDescription(opts.description)
      .setVersion('1')
      .addBearerAuth()
      .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Service-Project-Key' }, 'project-key')
      .addCookieAuth('service_session')
      .build(),
  );
  documentProblems(document);
  return document;
}

/**
 * Builds an HTTP app the same way for all three services: JSON-only bodies with a size limit,
 * trace ids, one log line per request, trusted proxies, OpenAPI at /docs. Not listening yet.
 */
export async function createHttpApp(
  module: Type<unknown>,
  config: AppConfig,
  opts: HttpAppOptions,
): Promise<NestExpressApplication> {
  if (opts.documentOnly) {
    const app = await NestFactory.create<NestExpressApplication>(module, {
      preview: true,
      logger: false,
      abortOnError: false,
    });
    DOCUMENTS.set(app, openApiDocument(app, opts));
    return app;
  }
  const logger = createLogger(config, opts.name);
  const app = await NestFactory.create<NestExpressApplication>(module, {
    bodyParser: false,
    logger: opts.logger === false ? false : logger,
    abortOnError: false,
  });
  // Requests Node's parser refuses are answered as problems too (the server exists from here on,
  // listening or not: supertest and `listen` both use it).
  installClientErrorHandler(app.getHttpServer(), config.http.errorTypeBase);
  app.disable('x-powered-by');
  app.set('trust proxy', config.http.trustProxy === false ? false : config.http.trustProxy);
  app.set('etag', false);
  const logRequests = opts.logger !== false && logLevelsFor(config.http.logLevel).includes('log');
  app.use(
    requestContextMiddleware(opts.name, logRequests ? { logger, json: config.http.logJson } : null),
  );
  app.use(hostRequiredMiddleware());
  opts.beforeBody?.(app);
  app.use(bodyMiddleware(config.http.bodyLimitBytes, opts.formPaths, opts.streamRoutes));
  opts.configure?.(app);

  if (opts.docs !== false) {
    const document = openApiDocument(app, opts);
    DOCUMENTS.set(app, document);
    SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/openapi.json' });
  }
  judgeBodiesAfterRouteGuards(app);
  await app.init();
  opts.onRoutes?.(listRoutes(app));
  return app;
}

export interface RunningApp {
  port: number;
  metricsPort: number | null;
  /** Stops accepting, lets requests in flight finish, runs the shutdown hooks. */
  stop: () => Promise<void>;
}

/**
 * Listens and logs one line with the bound address (tests that spawn apps read the port from it;
 * `announce: false` for `npm start`, whose welcome names the ports); starts the private metrics
 * listener when enabled.
 */
export async function listen(
  app: INestApplication,
  config: AppConfig,
  port: number,
  metricsPort?: number,
  announce = true,
): Promise<RunningApp> {
  await app.listen(port, config.http.host);
  const server = app.getHttpServer() as Server;
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  if (announce) process.stdout.write(`gatehouse: listening on port ${bound}\n`);
  const metrics =
    config.metrics.enabled && metricsPort !== undefined
      ? await startMetricsServer(config.metrics.host, metricsPort)
      : null;
  const m = metrics?.address();
  const boundMetrics = m && typeof m === 'object' ? m.port : null;
  if (announce && boundMetrics !== null)
    process.stdout.write(`gatehouse: metrics on port ${boundMetrics}\n`);
  return {
    port: bound,
    metricsPort: boundMetrics,
    stop: async () => {
      metrics?.close();
      // Keep-alive connections that go idle after their response are closed as soon as they do.
      const idle = setInterval(() => server.closeIdleConnections(), 100);
      try {
        await app.close();
      } finally {
        clearInterval(idle);
      }
    },
  };
}

/**
 * SIGTERM/SIGINT: stop the apps in order (each stops accepting, finishes requests in flight and
 * its current jobs, closes its connections), then `after`, then exit 0 — or 1 once
 * SHUTDOWN_GRACE_MS has passed.
 */
export function stopOnSignals(
  config: AppConfig,
  apps: RunningApp[],
  after?: () => Promise<void>,
): void {
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`gatehouse: ${signal} received, shutting down\n`);
    const force = setTimeout(() => {
      process.stderr.write(
        `gatehouse: shutdown grace period (${config.http.shutdownGraceMs} ms) exceeded\n`,
      );
      process.exit(1);
    }, config.http.shutdownGraceMs);
    force.unref();
    (async () => {
      for (const app of apps) await app.stop();
      await after?.();
    })()
      .then(() => {
        process.stdout.write('gatehouse: stopped\n');
        process.exit(0);
      })
      .catch((err: unknown) => {
        process.stderr.write(
          `gatehouse: shutdown failed: ${err instanceof Error ? err.message : String(err)}\n`,
        );
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
