import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import {
  AccessTokensService,
  assertSameOriginForCookie,
  presentedAccessToken,
  ProjectsCache,
  reauthenticationMaxAgeSeconds,
} from '@gatehouse/identity';
import { setRequestTenant } from '@gatehouse/http';
import { ProblemError } from '@gatehouse/problem-details';

export interface AdminContext {
  tenantId: string;
  userId: string;
  sessionId: string;
  consoleProjectId: string;
  /** When the admin last proved a credential (the token's `auth_time`, seconds); absent on tokens older than the claim. */
  authTime?: number;
  /** The console project's `settings.reauthentication_max_age_seconds` (or its default). */
  reauthenticationMaxAgeSeconds?: number;
}

export interface AdminRequest extends Request {
  admin?: AdminContext;
}

/**
 * docs/api-contract.md §1: admins are `is_admin` users of their tenant's console project, authenticated by
 * the `service_session` cookie or a bearer access token. The current tenant is the token's tenant.
 * No or invalid token → 401; a valid non-admin token → 403; then the body is judged.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(
    private readonly tokens: AccessTokensService,
    private readonly projects: ProjectsCache,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AdminRequest>();
    const presented = presentedAccessToken(req);
    const claims = presented ? await this.tokens.verify(presented.token) : null;
    if (!presented || !claims)
      throw new ProblemError('unauthenticated', { detail: 'A valid admin session is required.' });
    const project = await this.projects.byId(claims.aud);
    if (!claims.adm || !project?.isConsole || project.tenantId !== claims.tid) {
      throw new ProblemError('forbidden', { detail: 'This account is not an administrator.' });
    }
    assertSameOriginForCookie(req, presented.via, project.allowedOrigins);
    req.admin = {
      tenantId: claims.tid,
      userId: claims.sub,
      sessionId: claims.sid,
      consoleProjectId: project.id,
      ...(typeof claims.auth_time === 'number' ? { authTime: claims.auth_time } : {}),
      reauthenticationMaxAgeSeconds: reauthenticationMaxAgeSeconds(project),
    };
    setRequestTenant(req, claims.tid);
    return true;
  }
}
