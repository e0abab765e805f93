import express, { type NextFunction, type Request, type Response } from 'express';
import type { LoggerService } from '@nestjs/common';
import { newSpanId, traceIdFrom, traceResponse } from '@gatehouse/crypto';
import { PlatformError, recordHttpRequest } from '@gatehouse/platform';
import { routePatternSource } from '@gatehouse/problem-details';

/**
 * What Gatehouse keeps about a request, in Express's per-request `res.locals`. Not on the request
 * object itself: every property added to Express's request costs V8 a hidden-class transition
 * (measured: about 25,000 instructions each, some 2 % of a `/me`), where `res.locals` is a plain
 * dictionary. The problem-details filter reads `traceId` from here too.
 */
interface RequestLocals {
  traceId?: string;
  /** The tenant the request turned out to act for, for the request log line. */
  tenantId?: string;
}

const localsOf = (res: Response | undefined): RequestLocals => (res?.locals ?? {}) as RequestLocals;

/** Records the tenant a request acts for, once a guard or handler knows it (request log line). */
export function setRequestTenant(req: Request, tenantId: string): void {
  localsOf(req.res).tenantId = tenantId;
}

/**
 * First on every request: `Cache-Control: no-store` (every answer of these APIs carries tokens,
 * account data or admin data, which no browser or proxy cache should keep; a route that is meant
 * to be cached, like `jwks.json`, sets its own) and `Referrer-Policy: no-referrer` (the browser
 * navigations, magic-link verify and OAuth, carry one-time tokens in their URLs; on every answer,
 * refusals included, so none can leak one through a Referer), the W3C trace id (from `traceparent` when valid)
 * and the `traceresponse` header; then, once the response is finished, its metrics (count and latency by route pattern)
 * and, when `log` is given, one log line: method, route, status, duration, tenant, trace id. Never
 * bodies or cookies.
 */
export function requestContextMiddleware(
  app: string,
  log: { logger: LoggerService; json: boolean } | null,
) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const startedAt = process.hrtime.bigint();
    const locals = localsOf(res);
    const traceId = traceIdFrom(req.headers.traceparent);
    locals.traceId = traceId;
    res.setHeader('cache-control', 'no-store');
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('traceresponse', traceResponse(traceId, newSpanId()));
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      const pattern = (req.route as { path?: string } | undefined)?.path;
      recordHttpRequest(app, req.method, pattern ?? 'unmatched', res.statusCode, seconds);
      // In text (a person reading): health probes (a load balancer's every few seconds, `npm start` waiting for the apps) are counted, not logged.
      if (!log || (!log.json && req.path.startsWith('/health'))) return;
      const line = {
        msg: 'request',
        method: req.method,
        route: pattern ?? req.path,
        status: res.statusCode,
        ms: Math.round(seconds * 1e4) / 10,
        tenant: locals.tenantId ?? null,
        traceId,
      };
      // A text line stays short (README: `POST /v1/auth/sign-in 401 64 ms`); the JSON line (LOG_JSON) also carries the tenant and trace id.
      log.logger.log(
        log.json ? line : `${line.method} ${line.route} ${line.status} ${Math.round(line.ms)} ms`,
      );
    });
    next();
  };
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A request that carries a body must say it is JSON (docs/api-contract.md §4: 415 otherwise). Paths listed in
 * `formPaths` also accept `application/x-www-form-urlencoded` (Apple's form_post callback).
 */
export function jsonOnlyMiddleware(formPaths: string[] = []) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const hasBody =
      Number(req.headers['content-length'] ?? 0) > 0 ||
      req.headers['transfer-encoding'] !== undefined;
    if (!BODY_METHODS.has(req.method) || !hasBody) return next();
    if (req.is(['application/json', 'application/*+json'])) return next();
    if (formPaths.includes(req.path) && req.is('application/x-www-form-urlencoded')) return next();
    next(new PlatformError('unsupported-media-type', 'The request body must be application/json.'));
  };
}

const BODY_ERRORS: Record<string, [string, string]> = {
  'entity.parse.failed': ['invalid-json', 'The request body is not valid JSON.'],
  'entity.too.large': ['payload-too-large', 'The request body is too large.'],
  'encoding.unsupported': ['unsupported-media-type', 'The request body encoding is not supported.'],
  'charset.unsupported': ['unsupported-media-type', 'The request body charset is not supported.'],
  'request.aborted': ['validation-error', 'The request body was incomplete.'],
  'request.size.invalid': [
    'validation-error',
    'The request body length does not match Content-Length.',
  ],
};

/**
 * Everything about request bodies in one step: a request without one (no Content-Length, no
 * Transfer-Encoding, as body-parser decides) passes straight on; one with a body must be JSON
 * (or a form on `formPaths`), is parsed within `limitBytes`, and parser failures get their slug.
 *
 * A refused body is not answered here: the problem is kept for the route, and raised once the
 * route's own guards have judged its authentication (`judgeBodiesAfterRouteGuards`), so a request
 * is judged in the order clients see documented (docs/api-contract.md §10: project key → body → rate limit):
 * a missing or unknown project key is 401 whatever the body; an unknown route 404, a wrong method
 * 405. body-parser has read the whole request by then, refused or not.
 */
export function bodyMiddleware(
  limitBytes: number,
  formPaths: string[] = [],
  streamRoutes: string[] = [],
) {
  const streamPaths = streamRoutes.map((route) => new RegExp(`^${routePatternSource(route)}$`));
  const jsonOnly = jsonOnlyMiddleware(formPaths);
  const json = express.json({
    limit: limitBytes,
    strict: false,
    type: ['application/json', 'application/*+json'],
  });
  const form = express.urlencoded({ extended: false, limit: limitBytes });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (
      req.headers['content-length'] === undefined &&
      req.headers['transfer-encoding'] === undefined
    )
      return next();
    // A stream of lines, read by its route as it arrives: no size limit here, the route keeps one per line.
    if (req.is('application/x-ndjson') && streamPaths.some((p) => p.test(req.path))) return next();
    const parsed = (err?: unknown) => (err ? deferBodyError(err, res, next) : next());
    jsonOnly(req, res, (err?: unknown) => {
      if (err) return deferBodyError(err, res, next);
      json(req, res, (jsonErr?: unknown) => {
        if (jsonErr || !formPaths.includes(req.path)) return parsed(jsonErr);
        form(req, res, parsed);
      });
    });
  };
}

/** Keeps a refused body's problem for the route's last guard; anything else goes on as an error. */
function deferBodyError(err: unknown, res: Response, next: NextFunction): void {
  const problem = err instanceof PlatformError ? err : bodyProblem(err);
  if (!problem) return next(err);
  (res.locals as { bodyError?: PlatformError }).bodyError = problem;
  next();
}

/** The problem a request's body was refused with, if it was (see `bodyMiddleware`). */
export function refusedBody(res: Response): PlatformError | undefined {
  return (res.locals as { bodyError?: PlatformError }).bodyError;
}

/**
 * body-parser's failures by their slug, before the framework rewrites them; null for any other
 * error. A body that cannot be decoded at all (a `Content-Encoding: gzip` body that is not gzip:
 * a 400 from the decompressor, without a body-parser type) is unreadable JSON too.
 */
function bodyProblem(err: unknown): PlatformError | null {
  const { type, status } = (err ?? {}) as { type?: unknown; status?: unknown };
  const mapped = typeof type === 'string' ? BODY_ERRORS[type] : undefined;
  if (mapped) return new PlatformError(mapped[0], mapped[1]);
  if (status === 400)
    return new PlatformError('invalid-json', 'The request body could not be decoded.');
  return null;
}
