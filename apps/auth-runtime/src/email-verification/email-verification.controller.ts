import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { requestMeta, type ResolvedProject } from '@gatehouse/identity';
import { CurrentAuth, SessionAuthGuard, type SessionRequest } from '../auth/session-auth.guard';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyGuard } from '../projects/project-key.guard';
import { TokenDto } from '../one-time-tokens/token.dto';
import { EmailVerificationService } from './email-verification.service';

@ApiTags('email verification')
@ApiHeader({ name: 'X-Service-Project-Key', required: true })
@UseGuards(ProjectKeyGuard)
@Controller('v1/auth/verify-email')
export class EmailVerificationController {
  constructor(private readonly verification: EmailVerificationService) {}

  @Post('send')
  @HttpCode(202)
  @UseGuards(SessionAuthGuard)
  @ApiOperation({ summary: 'Mail a verification link to the signed-in user (202 {})' })
  async send(@CurrentProject() project: ResolvedProject, @CurrentAuth() auth: NonNullable<SessionRequest['auth']>): Promise<Record<string, never>> {
    await this.verification.send(project, auth.sub);
    return {};
  }

  @Post('confirm')
  @HttpCode(200)
  @ApiOperation({ summary: 'Confirm an email with the token from the mail (a verification or an email change)' })
  confirm(@CurrentProject() project: ResolvedProject, @Body() dto: TokenDto, @Req() req: Request) {
    return this.verification.confirm(project, dto.token, requestMeta(req));
  }
}
