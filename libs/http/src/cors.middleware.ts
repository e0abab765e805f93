import type { NextFunction, Request, Response } from 'express';

export const CORS_ALLOW_HEADERS = 'Content-Type, Authorization, X-Service-Project-Key, traceparent';
export const CORS_ALLOW_METHODS = 'GET, POST, PATCH, DELETE';
/** Response headers a browser client may read besides the CORS-safelisted ones. */
export const CORS_EXPOSE_HEADERS =
  'traceresponse, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';
export const CORS_MAX_AGE_SECONDS = 600;

/** Which origins an app serves to browsers (docs/api-contract.md §10). */
export interface CorsPolicy {
  /** A preflight from `origin` is answered with the CORS headers. */
  preflightAllowed(origin: string): Promise<boolean>;
  /** The real request from `origin` may be read by the page (checked against its own project). */
  requestAllowed(req: Request, origin: string): Promise<boolean>;
}

/** Methods a path is routed for (the 405 route table); empty for an unknown path. */
export type AllowedMethodsLookup = (path: string) => string[];

const ORIGIN = /^https?:\/\/[^\s/?#]{1,253}$/;

/**
 * CORS for the browser clients of the allowed origins:
 * - a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) is answered 204 here,
 *   with `Access-Control-Allow-*` only when the policy allows the origin, without them otherwise;
 * - a plain `OPTIONS` on a routed path is 204 with `Allow` (never 405), an unknown path falls through to 404;
 * - a real request gets `Access-Control-Allow-Origin: <origin>` and `-Credentials: true` only when
 *   the policy allows that origin for this request. `Vary: Origin` whenever an Origin was sent.
 * Runs before body parsing so that 413/415/400 answers are readable by an allowed page too.
 */
export function corsMiddleware(policy: CorsPolicy, allowedMethods?: AllowedMethodsLookup) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
    if (origin !== undefined) res.vary('Origin');
    const wellFormed = origin !== undefined && ORIGIN.test(origin);

    if (
      req.method === 'OPTIONS' &&
      origin !== undefined &&
      req.headers['access-control-request-method'] !== undefined
    ) {
      const answer = (allowed: boolean) => {
        if (allowed) {
          res.setHeader('Access-Control-Allow-Origin', origin);
          res.setHeader('Access-Control-Allow-Credentials', 'true');
          res.setHeader('Access-Control-Allow-Methods', CORS_ALLOW_METHODS);
          res.setHeader('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
          res.setHeader('Access-Control-Max-Age', String(CORS_MAX_AGE_SECONDS));
        }
        res.status(204).end();
      };
      if (!wellFormed) return answer(false);
      policy.preflightAllowed(origin).then(answer, next);
      return;
    }

    if (req.method === 'OPTIONS') {
      const methods = allowedMethods?.(req.path) ?? [];
      if (methods.length === 0) return next();
      res.setHeader('Allow', [...new Set([...methods, 'OPTIONS'])].join(', '));
      res.status(204).end();
      return;
    }

    if (!wellFormed) return next();
    policy.requestAllowed(req, origin).then(
      (allowed) => {
        if (allowed) {
          res.setHeader('Access-Control-Allow-Origin', origin);
          res.setHeader('Access-Control-Allow-Credentials', 'true');
          res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
        }
        next();
      },
      // The request itself meets the unavailable dependency again and answers 503.
      () => next(),
    );
  };
}
