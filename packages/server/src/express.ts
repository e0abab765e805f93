import { GatehouseAuthError, problemFor } from './errors';
import type { AccessTokenClaims, Gatehouse } from './gatehouse';
import { assertHas, assertRecentAuth, authenticate, type AuthenticateOptions } from './requests';

/**
 * A request `requireAuth` has run on: annotate handlers with `(req: Request & WithAuth, res) => …`.
 * (No global augmentation of Express's Request: an application may already have its own `auth`.)
 */
export interface WithAuth {
  /** The verified access-token claims; undefined only on an `optional` route without a token. */
  auth?: AccessTokenClaims;
}

/** The parts of Express's request and response these middlewares use (no dependency on express's types). */
interface Req {
  headers: Record<string, string | string[] | undefined>;
  auth?: AccessTokenClaims;
}
interface Res {
  status(code: number): Res;
  set(headers: Record<string, string>): Res;
  send(body: string): unknown;
}
type Next = (err?: unknown) => void;
export type ExpressMiddleware = (req: Req, res: Res, next: Next) => void;

/**
 * Express (4 and 5) middleware: verifies the request's bearer token and sets `req.auth`, or answers
 * 401 (403, 503) with an RFC 9457 problem body. Errors other than refusals go to `next`.
 */
export function requireAuth(
  gatehouse: Gatehouse,
  options: AuthenticateOptions = {},
): ExpressMiddleware {
  return (req, res, next) => {
    authenticate(
      gatehouse,
      { authorization: req.headers.authorization, cookie: req.headers.cookie },
      options,
    ).then(
      (claims) => {
        if (claims) req.auth = claims;
        next();
      },
      (err: unknown) => refuse(err, res, next),
    );
  };
}

/** After `requireAuth`: 403 `reauthentication-required` unless the user proved a credential within `maxAgeSeconds`. */
export function requireRecentAuth(maxAgeSeconds: number): ExpressMiddleware {
  return afterAuth((claims) => assertRecentAuth(claims, maxAgeSeconds));
}

/** After `requireAuth`: 403 `forbidden` unless the token's active organization grants `permission` (`invoices:read`). */
export function requirePermission(permission: string): ExpressMiddleware {
  return afterAuth((claims) => assertHas(claims, { permission }));
}

/** After `requireAuth`: 403 `forbidden` unless the user's role in the token's active organization is `role`. */
export function requireRole(role: string): ExpressMiddleware {
  return afterAuth((claims) => assertHas(claims, { role }));
}

/** A middleware that runs `check` on the claims `requireAuth` set (401 without them). */
function afterAuth(check: (claims: AccessTokenClaims) => void): ExpressMiddleware {
  return (req, res, next) => {
    try {
      if (!req.auth)
        throw new GatehouseAuthError('missing_token', 'No access token was presented.');
      check(req.auth);
      next();
    } catch (err) {
      refuse(err, res, next);
    }
  };
}

function refuse(err: unknown, res: Res, next: Next): void {
  if (!GatehouseAuthError.is(err)) return next(err);
  const { status, body, headers } = problemFor(err);
  res.status(status).set(headers).send(JSON.stringify(body));
}
