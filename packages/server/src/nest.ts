import {
  createParamDecorator,
  HttpException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { GatehouseAuthError, problemFor } from './errors';
import type { AccessTokenClaims, Gatehouse } from './gatehouse';
import { authenticate, type AuthenticateOptions } from './requests';

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
      if (!GatehouseAuthError.is(err)) throw err;
      const { status, body, headers } = problemFor(err);
      // Nest's exception filter writes the body (as application/json); the challenge header is set here.
      const response = context.switchToHttp().getResponse<HttpResponseLike>();
      for (const name of ['www-authenticate', 'cache-control']) {
        if (!headers[name]) continue;
        if (typeof response.setHeader === 'function') response.setHeader(name, headers[name]);
        else if (typeof response.header === 'function') response.header(name, headers[name]);
      }
      throw new HttpException(body, status, { cause: err });
    }
  }
}

/** The verified claims in a handler's parameters: `me(@CurrentUser() user: AccessTokenClaims)`; `@CurrentUser('sub')` for one claim. */
export const CurrentUser = createParamDecorator(
  (claim: keyof AccessTokenClaims | undefined, context: ExecutionContext) => {
    const auth = context.switchToHttp().getRequest<HttpRequestLike>().auth ?? null;
    return claim && auth ? auth[claim] : auth;
  },
);
