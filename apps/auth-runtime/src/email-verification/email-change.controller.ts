import { Body, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { requestMeta, type ResolvedProject } from '@gatehouse/identity';
import {
  CurrentAuth,
  RequiresRecentAuthentication,
  SessionAuthGuard,
  type SessionAuth,
} from '../auth/session-auth.guard';
import { TokenDto } from '../one-time-tokens/token.dto';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyController } from '../projects/project-key-controller';
import { ChangeEmailDto } from './change-email.dto';
import { EmailVerificationService } from './email-verification.service';
import { ApiAcceptedEmpty } from '../common/empty-accepted.response';
import { EmailConfirmedResponse } from './email-confirmed.response';

@ProjectKeyController('email verification', 'v1/auth/email/change')
export class EmailChangeController {
  constructor(private readonly verification: EmailVerificationService) {}

  @Post()
  @HttpCode(202)
  @ApiAcceptedEmpty()
  @UseGuards(SessionAuthGuard)
  @RequiresRecentAuthentication()
  @ApiOperation({
    summary:
      'Change the email: mails a confirmation link to the new address (202 {}); needs a recent authentication',
  })
  async change(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Body() dto: ChangeEmailDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Record<string, never>> {
    await this.verification.requestChange(project, auth, dto.email, res);
    return {};
  }

  @Post('confirm')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Confirm the new email with the token from the mail (same as verify-email/confirm); 409 when it was taken meanwhile',
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
