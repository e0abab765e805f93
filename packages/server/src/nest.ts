import {
  createParamDecorator,
  HttpException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { GatehouseAuthError, problemFor } from './errors';
import type { AccessTokenClaims, Gatehouse } from './gatehouse';
import {
  assertHas,
  authenticate,
  type AuthenticateOptions,
  type OrganizationRequirement,
} from './requests';

interface HttpRequestLike {
  headers: Record<string, string | string[] | undefined>;
  auth?: AccessTokenClaims | null;
}

/** Express's response (setHeader) or Fastify's reply (header). */
interface HttpResponseLike {
  setHeader?: (name: string, value: string) => unknown;
  header?: (name: string, value: string) => unknown;
}

/**
 * A NestJS guard (Express or Fastify platform): verifies the request's token and sets `request.auth`;
 * a refusal is an HttpException whose body is the problem (401, 403 `reauthentication-required`
 * with `maxAuthAgeSeconds`, 503). Use per route or controller, `@UseGuards(new GatehouseGuard(gatehouse))`,
 * or for the whole app, `app.useGlobalGuards(new GatehouseGuard(gatehouse))`.
 */
export class GatehouseGuard implements CanActivate {
  constructor(
    private readonly gatehouse: Gatehouse,
    private readonly options: AuthenticateOptions = {},
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<HttpRequestLike>();
    try {
      request.auth = await authenticate(
        this.gatehouse,
        { authorization: request.headers.authorization, cookie: request.headers.cookie },
        this.options,
      );
      return true;
    } catch (err) {
      throw refusal(err, context);
    }
  }
}

/**
 * After `GatehouseGuard` (global, or listed before it in `@UseGuards`): 403 `forbidden` unless the
 * token's active organization grants `permission`: `@UseGuards(requirePermission('invoices:read'))`.
 */
export function requirePermission(permission: string): CanActivate {
  return new OrganizationGuard({ permission });
}

/** After `GatehouseGuard`: 403 `forbidden` unless the user's role in the token's active organization is `role`. */
export function requireRole(role: string): CanActivate {
  return new OrganizationGuard({ role });
}

class OrganizationGuard implements CanActivate {
  constructor(private readonly requirement: OrganizationRequirement) {}

  canActivate(context: ExecutionContext): boolean {
    const { auth } = context.switchToHttp().getRequest<HttpRequestLike>();
    try {
      if (!auth) throw new GatehouseAuthError('missing_token', 'No access token was presented.');
      assertHas(auth, this.requirement);
      return true;
    } catch (err) {
      throw refusal(err, context);
    }
  }
}

/** A refusal as the HttpException Nest answers with; any other error is rethrown as it is. */
function refusal(err: unknown, context: ExecutionContext): unknown {
  if (!GatehouseAuthError.is(err)) return err;
  const { status, body, headers } = problemFor(err);
  // Nest's exception filter writes the body (as application/json); the challenge header is set here.
  const response = context.switchToHttp().getResponse<HttpResponseLike>();
  for (const name of ['www-authenticate', 'cache-control']) {
    if (!headers[name]) continue;
    if (typeof response.setHeader === 'function') response.setHeader(name, headers[name]);
    else if (typeof response.header === 'function') response.header(name, headers[name]);
  }
  return new HttpException(body, status, { cause: err });
}

/** The verified claims in a handler's parameters: `me(@CurrentUser() user: AccessTokenClaims)`; `@CurrentUser('sub')` for one claim. */
export const CurrentUser = createParamDecorator(
  (claim: keyof AccessTokenClaims | undefined, context: ExecutionContext) => {
    const auth = context.switchToHttp().getRequest<HttpRequestLike>().auth ?? null;
    return claim && auth ? auth[claim] : auth;
  },
);
