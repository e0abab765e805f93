import {
  createParamDecorator,
  Inject,
  Injectable,
  SetMetadata,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import type { AccessTokenClaims } from '@gatehouse/crypto';
import {
  AccessTokensService,
  assertSameOriginForCookie,
  authOriginOf,
  presentedAccessToken,
  projectOrigins,
  reauthenticationMaxAgeSeconds,
  type PresentedToken,
  type ResolvedProject,
} from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import type { ProjectRequest } from '../projects/project-key.guard';

export interface SessionRequest extends ProjectRequest {
  auth?: AccessTokenClaims & { via: PresentedToken['via'] };
}

const RECENT_AUTHENTICATION = 'gatehouse:recent-authentication';

/**
 * Marks a sensitive self-service action (adding or removing a passkey or a second factor,
 * regenerating backup codes, changing the password or the email): the session must have proven a
 * credential within the project's `settings.reauthentication_max_age_seconds`, else 403
 * `reauthentication-required` (`POST /v1/auth/reauthenticate` renews it).
 */
export const RequiresRecentAuthentication = () => SetMetadata(RECENT_AUTHENTICATION, true);

const NOT_IMPERSONATED = 'gatehouse:not-impersonated';

const IMPERSONATED_DETAIL =
  'An impersonated session cannot change the password, email, second factors or passkeys of the account.';

/**
 * Marks an action an impersonated session (a token with `act`, docs/api-contract.md §13) may not take besides
 * the sensitive ones above, which it never may: renewing the proof, confirming a second factor,
 * signing the user in to another application (the OpenID Connect provider's interaction, whose
 * tokens would not carry `act`). Such a session gets 403 `forbidden`, with `detail` when given.
 */
export const ForbiddenWhileImpersonated = (detail?: string) =>
  SetMetadata(NOT_IMPERSONATED, detail ?? true);

/**
 * Requires a valid, unrevoked access token of the request's project (bearer or `service_session`
 * cookie) and applies the CSRF origin rule to cookie-authenticated unsafe requests (the project's
 * allowed origins, and the auth runtime's own for an OIDC project's hosted pages); on a route
 * marked `@RequiresRecentAuthentication()`, the token's `auth_time` must be recent. Then the body
 * is judged. Runs after ProjectKeyGuard.
 */
@Injectable()
export class SessionAuthGuard implements CanActivate {
  private readonly authOrigin: string;

  constructor(
    private readonly tokens: AccessTokensService,
    private readonly reflector: Reflector,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.authOrigin = authOriginOf(config.http.publicAuthUrl);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<SessionRequest>();
    const project = req.project;
    const presented = presentedAccessToken(req);
    const claims =
      project && presented ? await this.tokens.verify(presented.token, project.id) : null;
    if (!project || !presented || !claims)
      throw new ProblemError('unauthenticated', { detail: 'A valid session is required.' });
    assertSameOriginForCookie(req, presented.via, projectOrigins(project, this.authOrigin));
    const sensitive = this.reflector.get<boolean | undefined>(
      RECENT_AUTHENTICATION,
      context.getHandler(),
    );
    const notImpersonated = this.reflector.get<string | boolean | undefined>(
      NOT_IMPERSONATED,
      context.getHandler(),
    );
    if (claims.act && (sensitive || notImpersonated)) {
      throw new ProblemError('forbidden', {
        detail: typeof notImpersonated === 'string' ? notImpersonated : IMPERSONATED_DETAIL,
      });
    }
    if (
      this.reflector.get<boolean | undefined>(RECENT_AUTHENTICATION, context.getHandler()) &&
      !this.recent(claims, project)
    ) {
      throw new ProblemError('reauthentication-required', {
        detail:
          'This action needs a recent proof of identity; re-authenticate with POST /v1/auth/reauthenticate and try again.',
        extensions: { max_age_seconds: reauthenticationMaxAgeSeconds(project) },
      });
    }
    req.auth = { ...claims, via: presented.via };
    return true;
  }

  /** `auth_time` within the project's window (a token without one, issued before it existed, is not recent). */
  private recent(claims: AccessTokenClaims, project: ResolvedProject): boolean {
    if (typeof claims.auth_time !== 'number') return false;
    const ageSeconds = this.clock.nowMs() / 1000 - claims.auth_time;
    return ageSeconds <= reauthenticationMaxAgeSeconds(project);
  }
}

/** The verified access-token claims of the current request. */
export const CurrentAuth = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const auth = ctx.switchToHttp().getRequest<SessionRequest>().auth;
  if (!auth) throw new Error('CurrentAuth used without SessionAuthGuard');
  return auth;
});

/** What `@CurrentAuth()` gives a route: the verified claims of the request's access token. */
export type SessionAuth = NonNullable<SessionRequest['auth']>;
