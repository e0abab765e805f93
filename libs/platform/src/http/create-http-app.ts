import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { Server } from 'node:http';
import type { AppConfig } from '@gatehouse/config';
import { createLogger, logLevelsFor } from '../logging/logger';
import { startMetricsServer } from '../metrics/metrics';
import { judgeBodiesAfterRouteGuards } from './body-error.guard';
import { hostRequiredMiddleware, installClientErrorHandler } from './client-error';
import { bodyMiddleware, requestContextMiddleware } from './request-context';

export interface HttpAppOptions {
  name: string;
  description: string;
  /** Paths that also accept form bodies. */
  formPaths?: string[];
  /** Called with the route list after init, e.g. to fill the 405 route table. */
  onRoutes?: (routes: { path: string; method: string }[]) => void;
  configure?: (app: NestExpressApplication) => void;
  /** Middleware that must run before body parsing (e.g. CORS, so 413/415 answers stay readable). */
  beforeBody?: (app: NestExpressApplication) => void;
  logger?: boolean;
  /** Serve OpenAPI and Swagger UI at /docs (default true). */
  docs?: boolean;
}

/** Lists the routes Express knows after Nest registered them. */
function listRoutes(app: NestExpressApplication): { path: string; method: string }[] {
  const instance = app.getHttpAdapter().getInstance() as { router?: { stack: unknown[] }; _router?: { stack: unknown[] } };
  const stack = (instance.router ?? instance._router)?.stack ?? [];
  const routes: { path: string; method: string }[] = [];
  for (const layer of stack as { route?: { path: string; methods: Record<string, boolean> } }[]) {
    if (!layer.route) continue;
    for (const method of Object.keys(layer.route.methods)) routes.push({ path: layer.route.path, method });
  }
  return routes;
}

/**
 * Builds an HTTP app the same way for all three services: JSON-only bodies with a size limit,
 * trace ids, one log line per request, trusted proxies, OpenAPI at /docs. Not listening yet.
 */
export async function createHttpApp(module: Type<unknown>, config: AppConfig, opts: HttpAppOptions): Promise<NestExpressApplication> {
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
  app.use(requestContextMiddleware(opts.name, logRequests ? { logger, json: config.http.logJson } : null));
  app.use(hostRequiredMiddleware());
  opts.beforeBody?.(app);
  app.use(bodyMiddleware(config.http.bodyLimitBytes, opts.formPaths));
  opts.configure?.(app);

  if (opts.docs !== false) {
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
 * Listens and logs one line with the bound address (tests that spawn apps read the port from it);
 * starts the private metrics listener when enabled.
 */
export async function listen(app: INestApplication, config: AppConfig, port: number, metricsPort?: number): Promise<RunningApp> {
  await app.listen(port, config.http.host);
  const server = app.getHttpServer() as Server;
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  process.stdout.write(`gatehouse: listening on port ${bound}\n`);
  const metrics = config.metrics.enabled && metricsPort !== undefined ? await startMetricsServer(config.metrics.host, metricsPort) : null;
  const m = metrics?.address();
  const boundMetrics = m && typeof m === 'object' ? m.port : null;
  if (boundMetrics !== null) process.stdout.write(`gatehouse: metrics on port ${boundMetrics}\n`);
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
export function stopOnSignals(config: AppConfig, apps: RunningApp[], after?: () => Promise<void>): void {
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`gatehouse: ${signal} received, shutting down\n`);
    const force = setTimeout(() => {
      process.stderr.write(`gatehouse: shutdown grace period (${config.http.shutdownGraceMs} ms) exceeded\n`);
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
        process.stderr.write(`gatehouse: shutdown failed: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
