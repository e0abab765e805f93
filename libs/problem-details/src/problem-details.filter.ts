import {
  ArgumentsHost,
  Catch,
  HttpException,
  Inject,
  Logger,
  NotFoundException,
  type ExceptionFilter,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { traceIdFrom } from '@gatehouse/crypto';
import { isDependencyFailure, isRejectedInput } from './dependency-failure';
import { ProblemError } from './problem.error';
import { PROBLEM_TYPES, slugForStatus, type ProblemSlug } from './problem-types';
import { ROUTE_TABLE, type RouteTable } from './route-table';

/** Errors from Express middleware carry at most a status. */
interface BodyParserError {
  status?: number;
  statusCode?: number;
}

/**
 * The request's trace id: the one the platform's request-context middleware chose and sent in
 * `traceresponse` (it keeps it in `res.locals`), or one from `traceparent` when that did not run.
 */
function requestTraceId(req: Request, res: Response): string {
  const locals = (res.locals ?? {}) as { traceId?: string };
  return (locals.traceId ??= traceIdFrom(req.headers.traceparent));
}

/**
 * The one exception filter (RFC 9457). Everything thrown anywhere in a request leaves as
 * `application/problem+json`; unexpected errors become `internal-error` with the stack logged only.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetails');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROUTE_TABLE) private readonly routes: RouteTable,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    const problem = this.toProblem(exception, req);

    if (problem.status === 503) {
      this.logger.warn(
        `dependency unavailable on ${req.method} ${req.path} trace=${requestTraceId(req, res)}: ${exception instanceof Error ? exception.message : String(exception)}`,
      );
    } else if (problem.status >= 500 && !(exception instanceof ProblemError)) {
      this.logger.error(
        `unhandled error on ${req.method} ${req.path} trace=${requestTraceId(req, res)}`,
        exception instanceof Error ? exception.stack : String(exception),
      );
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    this.send(res, req, problem);
  }

  toProblem(exception: unknown, req: Request): ProblemError {
    if (exception instanceof ProblemError) return exception;
    const slugged = exception as { problemSlug?: unknown; message?: unknown };
    if (
      slugged &&
      typeof slugged.problemSlug === 'string' &&
      slugged.problemSlug in PROBLEM_TYPES
    ) {
      const slug = slugged.problemSlug as ProblemSlug;
      const detail =
        typeof slugged.message === 'string' ? slugged.message : PROBLEM_TYPES[slug].title;
      return new ProblemError(
        slug,
        slug === 'validation-error' ? { detail, errors: {} } : { detail },
      );
    }
    if (isDependencyFailure(exception)) {
      return new ProblemError('service-unavailable', {
        detail: 'A dependency is unavailable; try again shortly.',
        headers: { 'Retry-After': '5' },
      });
    }
    if (isRejectedInput(exception)) {
      return new ProblemError('validation-error', {
        detail: 'The request contains a value that cannot be stored or compared.',
        errors: {},
      });
    }
    const bp = exception as BodyParserError;
    // The router could not percent-decode a path parameter (Nest hands it over as a 400
    // HttpException): an id that cannot exist (docs/api-contract.md §10).
    if (exception instanceof Error && /^Failed to decode param /.test(exception.message))
      return new ProblemError('not-found', { detail: 'No resource matches this path.' });
    if (exception instanceof NotFoundException && /^Cannot [A-Z]+ /.test(exception.message)) {
      const allowed = this.routes.allowedMethods(req.path);
      if (allowed.length > 0) {
        return new ProblemError('method-not-allowed', {
          detail: `${req.method} is not allowed on this path.`,
          headers: { Allow: allowed.join(', ') },
        });
      }
      return new ProblemError('not-found', { detail: 'No route matches this path.' });
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const slug: ProblemSlug = slugForStatus(status);
      const detail = status >= 500 ? PROBLEM_TYPES[slug].title : exception.message;
      return new ProblemError(
        slug,
        slug === 'validation-error' ? { detail, errors: {} } : { detail },
      );
    }
    const status = bp && typeof bp === 'object' ? (bp.status ?? bp.statusCode) : undefined;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const slug = slugForStatus(status);
      return new ProblemError(slug, slug === 'validation-error' ? { errors: {} } : {});
    }
    return new ProblemError('internal-error', { detail: 'An unexpected error occurred.' });
  }

  send(res: Response, req: Request, problem: ProblemError): void {
    const body: Record<string, unknown> = {
      type: `${this.config.http.errorTypeBase}/${problem.slug}`,
      title: problem.title,
      status: problem.status,
      detail: problem.options.detail ?? problem.title,
      instance: req.path,
      traceId: requestTraceId(req, res),
    };
    if (problem.slug === 'validation-error' || problem.options.errors)
      body.errors = problem.options.errors ?? {};
    if (problem.options.extensions) {
      for (const [k, v] of Object.entries(problem.options.extensions))
        if (!(k in body)) body[k] = v;
    }
    for (const [k, v] of Object.entries(problem.options.headers ?? {})) res.setHeader(k, v);
    res.status(problem.status).type('application/problem+json').send(JSON.stringify(body));
  }
}
