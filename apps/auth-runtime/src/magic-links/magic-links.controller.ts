import { Body, Controller, HttpCode, Inject, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import {
  ClientMeta,
  normalizeIdentifier,
  type RequestMeta,
  type ResolvedProject,
} from '@gatehouse/identity';
import { RateLimitsService } from '@gatehouse/http';
import { RATE_LIMITS } from '../common/rate-limits';
import { Clock } from '@gatehouse/platform';
import { setSessionCookies } from '../auth/session-cookies';
import { withQuery } from '../common/redirect-urls';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyGuard } from '../projects/project-key.guard';
import { SendMagicLinkDto } from './magic-link.dto';
import { MagicLinksService } from './magic-links.service';
import { ApiAcceptedEmpty } from '../common/empty-accepted.response';
import { linkTarget, linkToken, LinkVerifyRoute } from '../common/link-verify';

@ApiTags('magic links')
@UseGuards(ProjectKeyGuard)
@Controller('v1/auth/magic-link')
export class MagicLinksController {
  constructor(
    private readonly magicLinks: MagicLinksService,
    private readonly rateLimits: RateLimitsService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('send')
  @HttpCode(202)
  @ApiAcceptedEmpty()
  @ApiHeader({ name: 'X-Service-Project-Key', required: true })
  @ApiOperation({ summary: 'Mail a sign-in link when the account exists; 202 {} for any email' })
  async send(
    @CurrentProject() project: ResolvedProject,
    @Body() dto: SendMagicLinkDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Record<string, never>> {
    const target = this.magicLinks.resolveRedirect(project, dto.redirect_url);
    await this.rateLimits.enforce(res, RATE_LIMITS.magicLink, [
      project.id,
      normalizeIdentifier(dto.email),
    ]);
    this.magicLinks.send(project, dto.email, target);
    return {};
  }

  @LinkVerifyRoute(
    'Follow the link: 302 to the redirect URL with session cookies, or with ?error=invalid_token',
    'Always a redirect (400 invalid-token only when the token names no target): session cookies set; or, for a user with MFA, no session and `?mfa_required=true&mfa_token=…`; or `?error=invalid_token` for a bad, used or expired link',
    "The redirect URL chosen at send time, else the project's `default_redirect_url`, with the query parameters above",
  )
  async verify(
    @CurrentProject() project: ResolvedProject,
    @Query('token') token: unknown,
    @ClientMeta() meta: RequestMeta,
    @Res() res: Response,
  ): Promise<void> {
    const result = await this.magicLinks.verify(project, linkToken(token), meta);
    const target = linkTarget(result.redirectUrl, 'The sign-in link is invalid, used or expired.');
    if (!result.ok) return res.redirect(302, withQuery(target, { error: result.error }));
    if (result.outcome.kind === 'mfa') {
      const c = result.outcome.challenge;
      return res.redirect(302, withQuery(target, { mfa_required: 'true', mfa_token: c.mfa_token }));
    }
    setSessionCookies(res, this.config, result.outcome.session, this.clock.nowMs());
    res.redirect(302, target);
  }
}
