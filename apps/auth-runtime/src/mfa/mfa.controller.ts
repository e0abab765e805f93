import { Body, Delete, HttpCode, Inject, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { requestMeta, type ResolvedProject } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import {
  CurrentAuth,
  ForbiddenWhileImpersonated,
  RequiresRecentAuthentication,
  SessionAuthGuard,
  type SessionAuth,
} from '../auth/session-auth.guard';
import { setSessionCookies } from '../auth/session-cookies';
import { SignedInResponse, signedInBody } from '../sign-in/signed-in.response';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyController } from '../projects/project-key-controller';
import { MfaChallengeService } from './mfa-challenge.service';
import { MfaEnrollmentService } from './mfa-enrollment.service';
import { CodeDto, MfaTokenDto, MfaVerifyDto, SmsSetupDto } from './mfa.dto';
import { ApiAcceptedEmpty } from '../common/empty-accepted.response';
import { BackupCodesResponse, FactorEnabledResponse, TotpSetupResponse } from './mfa.response';

@ProjectKeyController('mfa', 'v1/auth/mfa')
export class MfaController {
  constructor(
    private readonly enrollment: MfaEnrollmentService,
    private readonly challenge: MfaChallengeService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('totp/setup')
  @HttpCode(200)
  @ApiOkResponse({ type: TotpSetupResponse })
  @UseGuards(SessionAuthGuard)
  @RequiresRecentAuthentication()
  @ApiOperation({
    summary:
      'Start TOTP enrolment: secret, otpauth URI and 10 backup codes (shown once); needs a recent authentication',
  })
  setupTotp(@CurrentProject() project: ResolvedProject, @CurrentAuth() auth: SessionAuth) {
    return this.enrollment.setupTotp(project, auth);
  }

  @Post('totp/verify')
  @HttpCode(200)
  @ForbiddenWhileImpersonated()
  @ApiOkResponse({ type: FactorEnabledResponse })
  @UseGuards(SessionAuthGuard)
  @ApiOperation({ summary: 'Confirm TOTP enrolment with the first code' })
  verifyTotp(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Body() dto: CodeDto,
    @Req() req: Request,
  ) {
    return this.enrollment.verifyTotp(project, auth, dto.code, requestMeta(req));
  }

  @Post('sms/setup')
  @HttpCode(202)
  @ApiAcceptedEmpty()
  @UseGuards(SessionAuthGuard)
  @RequiresRecentAuthentication()
  @ApiOperation({
    summary:
      'Start SMS enrolment: texts a 6-digit code to the number (202 {}); needs a recent authentication',
  })
  async setupSms(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Body() dto: SmsSetupDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Record<string, never>> {
    await this.enrollment.setupSms(project, auth.sub, dto.phone_number, res);
    return {};
  }

  @Post('sms/verify')
  @HttpCode(200)
  @ForbiddenWhileImpersonated()
  @ApiOkResponse({ type: FactorEnabledResponse })
  @UseGuards(SessionAuthGuard)
  @ApiOperation({ summary: 'Confirm SMS enrolment with the texted code' })
  verifySms(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Body() dto: CodeDto,
    @Req() req: Request,
  ) {
    return this.enrollment.verifySms(project, auth, dto.code, requestMeta(req));
  }

  @Post('sms/send')
  @HttpCode(202)
  @ApiAcceptedEmpty()
  @ApiOperation({ summary: 'During sign-in: text a code for the mfa_token (202 {})' })
  async sendSms(
    @CurrentProject() project: ResolvedProject,
    @Body() dto: MfaTokenDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Record<string, never>> {
    await this.challenge.sendSms(project, dto.mfa_token, res);
    return {};
  }

  @Post('verify')
  @HttpCode(200)
  @ApiOkResponse({ type: SignedInResponse })
  @ApiOperation({
    summary: 'Complete a sign-in that answered mfa_required: {user, session} and cookies',
  })
  async verify(
    @CurrentProject() project: ResolvedProject,
    @Body() dto: MfaVerifyDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { user, session } = await this.challenge.verify(
      project,
      dto.mfa_token,
      dto.factor,
      dto.code,
      requestMeta(req),
    );
    setSessionCookies(res, this.config, session, this.clock.nowMs());
    return signedInBody(user, session);
  }

  @Post('backup-codes/regenerate')
  @HttpCode(200)
  @ApiOkResponse({ type: BackupCodesResponse })
  @UseGuards(SessionAuthGuard)
  @RequiresRecentAuthentication()
  @ApiOperation({
    summary:
      'Ten new backup codes (shown once); the old ones stop working; needs a recent authentication',
  })
  regenerateBackupCodes(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Req() req: Request,
  ) {
    return this.enrollment.regenerateBackupCodes(project, auth, requestMeta(req));
  }

  @Delete(':factor')
  @HttpCode(204)
  @UseGuards(SessionAuthGuard)
  @RequiresRecentAuthentication()
  @ApiOperation({ summary: 'Remove a factor (totp or sms); needs a recent authentication' })
  async remove(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Param('factor') factor: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.enrollment.remove(project, auth.sub, factor, requestMeta(req));
  }
}
