import { Body, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { normalizeIdentifier, requestMeta, type ResolvedProject } from '@gatehouse/identity';
import { RateLimitsService } from '@gatehouse/http';
import { RATE_LIMITS } from '../common/rate-limits';
import { matchRedirectUrl } from '../common/redirect-urls';
import { ProblemError } from '@gatehouse/problem-details';
import { TokenDto } from '../one-time-tokens/token.dto';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyController } from '../projects/project-key-controller';
import { ForgotPasswordDto, ResetPasswordDto } from './password-reset.dto';
import { PasswordResetService } from './password-reset.service';
import { ApiAcceptedEmpty, ApiOkEmpty } from '../common/empty-accepted.response';
import { ResetTokenValidResponse } from './reset-token.response';

@ProjectKeyController('password reset', 'v1/auth/password')
export class PasswordResetController {
  constructor(
    private readonly resets: PasswordResetService,
    private readonly rateLimits: RateLimitsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('forgot')
  @HttpCode(202)
  @ApiAcceptedEmpty()
  @ApiOperation({
    summary: 'Mail a reset link when the account exists; 202 {} either way (3 an hour per email)',
  })
  async forgot(
    @CurrentProject() project: ResolvedProject,
    @Body() dto: ForgotPasswordDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Record<string, never>> {
    const target =
      dto.redirect_url === undefined
        ? null
        : matchRedirectUrl(project, dto.redirect_url, this.config.http.publicAuthUrl);
    if (dto.redirect_url !== undefined && !target)
      throw ProblemError.validation({
        redirect_url: ["must be one of the project's registered redirect URLs"],
      });
    await this.rateLimits.enforce(res, RATE_LIMITS.forgot, [
      project.id,
      normalizeIdentifier(dto.email),
    ]);
    this.resets.forgot(project, dto.email, target);
    return {};
  }

  @Post('reset/validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Check a reset token without using it (400 invalid-token when it cannot be used)',
  })
  @ApiOkResponse({ type: ResetTokenValidResponse })
  validate(
    @CurrentProject() project: ResolvedProject,
    @Body() dto: TokenDto,
  ): Promise<ResetTokenValidResponse> {
    return this.resets.validate(project, dto.token);
  }

  @Post('reset')
  @HttpCode(200)
  @ApiOkEmpty()
  @ApiOperation({
    summary: 'Set a new password with a reset token; revokes every session; does not sign in',
  })
  async reset(
    @CurrentProject() project: ResolvedProject,
    @Body() dto: ResetPasswordDto,
    @Req() req: Request,
  ): Promise<Record<string, never>> {
    await this.resets.reset(project, dto.token, dto.password, requestMeta(req));
    return {};
  }
}
