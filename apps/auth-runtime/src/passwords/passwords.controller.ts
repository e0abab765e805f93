import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { requestMeta, type ResolvedProject } from '@gatehouse/identity';
import {
  CurrentAuth,
  RequiresRecentAuthentication,
  SessionAuthGuard,
  type SessionAuth,
} from '../auth/session-auth.guard';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyGuard } from '../projects/project-key.guard';
import { ApiOkEmpty } from '../common/empty-accepted.response';
import { ChangePasswordDto } from './change-password.dto';
import { PasswordChangeService } from './password-change.service';

@ApiTags('password')
@ApiHeader({ name: 'X-Service-Project-Key', required: true })
@Controller('v1/auth/password')
export class PasswordsController {
  constructor(private readonly passwords: PasswordChangeService) {}

  @Post('change')
  @HttpCode(200)
  @ApiOkEmpty()
  @UseGuards(ProjectKeyGuard, SessionAuthGuard)
  @RequiresRecentAuthentication()
  @ApiOperation({
    summary:
      'Change the password ({current_password, new_password}; 200 {}); ends every other session; needs a recent authentication',
  })
  async change(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Body() dto: ChangePasswordDto,
    @Req() req: Request,
  ): Promise<Record<string, never>> {
    await this.passwords.change(
      project,
      auth,
      dto.current_password,
      dto.new_password,
      requestMeta(req),
    );
    return {};
  }
}
