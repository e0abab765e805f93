import { Body, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { requestMeta, type ResolvedProject } from '@gatehouse/identity';
import { RateLimitsService } from '@gatehouse/http';
import { RATE_LIMITS } from '../common/rate-limits';
import { CurrentAuth, SessionAuthGuard, type SessionAuth } from '../auth/session-auth.guard';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyController } from '../projects/project-key-controller';
import { TokenDto } from '../one-time-tokens/token.dto';
import { EmailVerificationService } from './email-verification.service';
import { ApiAcceptedEmpty } from '../common/empty-accepted.response';
import { EmailConfirmedResponse } from './email-confirmed.response';

@ProjectKeyController('email verification', 'v1/auth/verify-email')
export class EmailVerificationController {
  constructor(
    private readonly verification: EmailVerificationService,
    private readonly rateLimits: RateLimitsService,
  ) {}

  @Post('send')
  @HttpCode(202)
  @ApiAcceptedEmpty()
  @UseGuards(SessionAuthGuard)
  @ApiOperation({
    summary: 'Mail a verification link to the signed-in user (202 {}; 3 an hour per user)',
  })
  async send(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Record<string, never>> {
    // Every authenticated call counts, an already verified user's (who gets no mail) included.
    await this.rateLimits.enforce(res, RATE_LIMITS.verifyEmail, [project.id, auth.sub]);
    await this.verification.send(project, auth.sub);
    return {};
  }

  @Post('confirm')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm an email with the token from the mail (a verification or an email change)',
  })
  @ApiOkResponse({ type: EmailConfirmedResponse })
  confirm(
    @CurrentProject() project: ResolvedProject,
    @Body() dto: TokenDto,
    @Req() req: Request,
  ): Promise<EmailConfirmedResponse> {
    return this.verification.confirm(project, dto.token, requestMeta(req));
  }
}
