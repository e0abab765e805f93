import { GatehouseAuthError, problemFor } from './errors';
import type { AccessTokenClaims, Gatehouse } from './gatehouse';
import { assertHas, assertRecentAuth, authenticate, type AuthenticateOptions } from './requests';

/** The parts of Fastify's request and reply these hooks use (no dependency on fastify's types). */
interface FastifyRequestLike {
  headers: Record<string, string | string[] | undefined>;
  auth?: AccessTokenClaims | null;
}
interface FastifyReplyLike {
  code(status: number): FastifyReplyLike;
  headers(values: Record<string, string>): FastifyReplyLike;
  send(payload: string): unknown;
}
export type FastifyHook = (
  request: FastifyRequestLike,
  reply: FastifyReplyLike,
) => Promise<FastifyReplyLike | undefined>;

/**
 * A Fastify `onRequest`/`preHandler` hook: sets `request.auth` or answers the problem. Declare the
 * property once (`app.decorateRequest('auth', null)`), then `app.addHook('onRequest', requireAuth(gatehouse))`
 * or per route `{ onRequest: requireAuth(gatehouse) }`.
 */
export function requireAuth(gatehouse: Gatehouse, options: AuthenticateOptions = {}): FastifyHook {
  return async (request, reply) => {
    try {
      request.auth = await authenticate(
        gatehouse,
        { authorization: request.headers.authorization, cookie: request.headers.cookie },
        options,
      );
      return undefined;
    } catch (err) {
      return refuse(err, reply);
    }
  };
}

/** After `requireAuth`: 403 `reauthentication-required` unless the user proved a credential within `maxAgeSeconds`. */
export function requireRecentAuth(maxAgeSeconds: number): FastifyHook {
  return afterAuth((claims) => assertRecentAuth(claims, maxAgeSeconds));
}

/** After `requireAuth`: 403 `forbidden` unless the token's active organization grants `permission` (`invoices:read`). */
export function requirePermission(permission: string): FastifyHook {
  return afterAuth((claims) => assertHas(claims, { permission }));
}

/** After `requireAuth`: 403 `forbidden` unless the user's role in the token's active organization is `role`. */
export function requireRole(role: string): FastifyHook {
  return afterAuth((claims) => assertHas(claims, { role }));
}

/** A hook that runs `check` on the claims `requireAuth` set (401 without them). */
function afterAuth(check: (claims: AccessTokenClaims) => void): FastifyHook {
  return async (request, reply) => {
    try {
      if (!request.auth)
        throw new GatehouseAuthError('missing_token', 'No access token was presented.');
      check(request.auth);
      return undefined;
    } catch (err) {
      return refuse(err, reply);
    }
  };
}

function refuse(err: unknown, reply: FastifyReplyLike): FastifyReplyLike {
  if (!GatehouseAuthError.is(err)) throw err;
  const { status, body, headers } = problemFor(err);
  // An async hook that sends and returns the reply ends the request there (Fastify skips the handler).
  reply.code(status).headers(headers).send(JSON.stringify(body));
  return reply;
}
