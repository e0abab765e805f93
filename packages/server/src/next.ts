import { GatehouseAuthError, problemFor } from './errors';
import type { AccessTokenClaims, Gatehouse } from './gatehouse';
import {
  assertHas,
  authenticate,
  type AuthenticateOptions,
  type OrganizationRequirement,
} from './requests';

/**
 * Next.js (App Router) and any Fetch-API server (Bun, Deno, Hono, edge runtimes): the claims of a
 * `Request`'s token, or null when it has none and `optional` is set; throws GatehouseAuthError.
 * Usable in `middleware.ts` (edge runtime: Web Crypto and fetch only).
 */
export function authenticateRequest(
  gatehouse: Gatehouse,
  request: Request,
  options: AuthenticateOptions = {},
): Promise<AccessTokenClaims | null> {
  return authenticate(
    gatehouse,
    { authorization: request.headers.get('authorization'), cookie: request.headers.get('cookie') },
    options,
  );
}

/** The problem response for a refusal (401/403/503, `application/problem+json`). */
export function refusalResponse(error: GatehouseAuthError): Response {
  const { status, body, headers } = problemFor(error);
  return new Response(JSON.stringify(body), { status, headers });
}

/**
 * Wraps a route handler (`export const GET = withAuth(gatehouse, async (request, { auth }) => …)`):
 * the handler runs with the verified claims; a refused request gets the problem response.
 */
export function withAuth<Context extends object = Record<string, unknown>>(
  gatehouse: Gatehouse,
  handler: (
    request: Request,
    context: Context & { auth: AccessTokenClaims },
  ) => Response | Promise<Response>,
  options: Omit<AuthenticateOptions, 'optional'> = {},
): (request: Request, context?: Context) => Promise<Response> {
  return async (request, context) => {
    let auth: AccessTokenClaims;
    try {
      auth = (await authenticateRequest(gatehouse, request, { ...options, optional: false }))!;
    } catch (err) {
      if (GatehouseAuthError.is(err)) return refusalResponse(err);
      throw err;
    }
    return handler(request, { ...(context ?? ({} as Context)), auth });
  };
}

/** A route handler `withAuth` calls, with the verified claims in its context. */
export type AuthedHandler<Context extends object = Record<string, unknown>> = (
  request: Request,
  context: Context & { auth: AccessTokenClaims },
) => Response | Promise<Response>;

/**
 * Inside `withAuth`: the handler runs only when the token's active organization grants
 * `permission`, else the 403 `forbidden` problem response:
 * `export const GET = withAuth(gatehouse, requirePermission('invoices:read', async (request, { auth }) => …))`.
 */
export function requirePermission<Context extends object = Record<string, unknown>>(
  permission: string,
  handler: AuthedHandler<Context>,
): AuthedHandler<Context> {
  return guarded({ permission }, handler);
}

/** Inside `withAuth`: the handler runs only when the user's role in the token's active organization is `role`. */
export function requireRole<Context extends object = Record<string, unknown>>(
  role: string,
  handler: AuthedHandler<Context>,
): AuthedHandler<Context> {
  return guarded({ role }, handler);
}

function guarded<Context extends object>(
  requirement: OrganizationRequirement,
  handler: AuthedHandler<Context>,
): AuthedHandler<Context> {
  return async (request, context) => {
    try {
      if (!context?.auth)
        throw new GatehouseAuthError('missing_token', 'No access token was presented.');
      assertHas(context.auth, requirement);
    } catch (err) {
      if (GatehouseAuthError.is(err)) return refusalResponse(err);
      throw err;
    }
    return handler(request, context);
  };
}
