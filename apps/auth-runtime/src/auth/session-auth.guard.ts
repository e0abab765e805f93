import { createParamDecorator, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { AccessTokenClaims } from '@gatehouse/crypto';
import { AccessTokensService, assertSameOriginForCookie, presentedAccessToken, type PresentedToken } from '@gatehouse/identity';
import { assertBodyAccepted } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import type { ProjectRequest } from '../projects/project-key.guard';

export interface SessionRequest extends ProjectRequest {
  auth?: AccessTokenClaims & { via: PresentedToken['via'] };
}

/**
 * Requires a valid, unrevoked access token of the request's project (bearer or `service_session`
 * cookie) and applies the CSRF origin rule to cookie-authenticated unsafe requests; then the body
 * is judged. Runs after ProjectKeyGuard.
 */
@Injectable()
export class SessionAuthGuard implements CanActivate {
  constructor(private readonly tokens: AccessTokensService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<SessionRequest>();
    const project = req.project;
    const presented = presentedAccessToken(req);
    const claims = project && presented ? await this.tokens.verify(presented.token, project.id) : null;
    if (!project || !presented || !claims) throw new ProblemError('unauthenticated', { detail: 'A valid session is required.' });
    assertSameOriginForCookie(req, presented.via, project.allowedOrigins);
    req.auth = { ...claims, via: presented.via };
    assertBodyAccepted(context, this);
    return true;
  }
}

/** The verified access-token claims of the current request. */
export const CurrentAuth = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const auth = ctx.switchToHttp().getRequest<SessionRequest>().auth;
  if (!auth) throw new Error('CurrentAuth used without SessionAuthGuard');
  return auth;
});
