import { GatehouseAuthError, problemFor } from './errors';
import type { AccessTokenClaims, Gatehouse } from './gatehouse';
import { authenticate, type AuthenticateOptions } from './requests';

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
