import { Controller, Inject, Query, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { ClientMeta, type RequestMeta, type ResolvedProject } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { setSessionCookies } from '../auth/session-cookies';
import { linkTarget, linkToken, LinkVerifyRoute } from '../common/link-verify';
import { withQuery } from '../common/redirect-urls';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyGuard } from '../projects/project-key.guard';
import { ImpersonationService } from './impersonation.service';

@ApiTags('impersonation')
@UseGuards(ProjectKeyGuard)
@Controller('v1/auth/impersonation')
export class ImpersonationController {
  constructor(
    private readonly impersonation: ImpersonationService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @LinkVerifyRoute(
    "Open an admin's impersonation link (`POST /v1/admin/users/{id}/impersonate`): a session of the user whose access tokens carry `act: {sub: <admin id>}` (at most 15 minutes each, refreshable until 60 minutes after opening)",
    'Always a redirect (400 invalid-token only when the token names no target): session cookies set; or `?error=invalid_token` for a bad, used (the link works once) or expired (60 s) link',
    "The `redirect_url` given to the admin route, else the project's `default_redirect_url`",
  )
  async verify(
    @CurrentProject() project: ResolvedProject,
    @Query('token') token: unknown,
    @ClientMeta() meta: RequestMeta,
    @Res() res: Response,
  ): Promise<void> {
    const result = await this.impersonation.open(project, linkToken(token), meta);
    const target = linkTarget(
      result.redirectUrl,
      'The impersonation link is invalid, used or expired.',
    );
    if (!result.ok) return res.redirect(302, withQuery(target, { error: 'invalid_token' }));
    setSessionCookies(res, this.config, result.session, this.clock.nowMs());
    res.redirect(302, target);
  }
}
