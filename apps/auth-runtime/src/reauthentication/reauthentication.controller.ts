import { Body, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { requestMeta, type ResolvedProject } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import {
  CurrentAuth,
  ForbiddenWhileImpersonated,
  SessionAuthGuard,
  type SessionAuth,
} from '../auth/session-auth.guard';
import { setAccessCookie } from '../auth/session-cookies';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyController } from '../projects/project-key-controller';
import { ReauthenticateDto } from './reauthenticate.dto';
import { ReauthenticationService } from './reauthentication.service';
import { ApiAcceptedEmpty } from '../common/empty-accepted.response';
import { AccessTokenResponse } from '../sessions/session.response';

@ProjectKeyController('reauthentication', 'v1/auth/reauthenticate', SessionAuthGuard)
export class ReauthenticationController {
  constructor(
    private readonly reauthentication: ReauthenticationService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(200)
  @ForbiddenWhileImpersonated()
  @ApiOkResponse({ type: AccessTokenResponse })
  @ApiOperation({
    summary:
      'Prove a credential again ({password}, {factor, code} or a passkey {credential}): a fresh access token, same session, new auth_time',
  })
  async reauthenticate(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Body() dto: ReauthenticateDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const issued = await this.reauthentication.reauthenticate(project, auth, dto, requestMeta(req));
    setAccessCookie(res, this.config, issued, this.clock.nowMs());
    return { access_token: issued.accessToken, expires_in: issued.expiresIn };
  }

  @Post('sms')
  @HttpCode(202)
  @ApiAcceptedEmpty()
  @ApiOperation({ summary: 'Text a code to the enrolled phone for {factor: "sms", code} (202 {})' })
  async sendSms(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Record<string, never>> {
    await this.reauthentication.sendSms(project, auth, res);
    return {};
  }
}
