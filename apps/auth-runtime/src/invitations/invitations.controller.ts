import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { requestMeta, type ResolvedProject } from '@gatehouse/identity';
import { CurrentAuth, SessionAuthGuard, type SessionRequest } from '../auth/session-auth.guard';
import { TokenDto } from '../one-time-tokens/token.dto';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyGuard } from '../projects/project-key.guard';
import { InvitationsService } from './invitations.service';
import { InvitationAcceptedResponse } from './invitation-accepted.response';

@ApiTags('invitations')
@ApiHeader({ name: 'X-Service-Project-Key', required: true })
@UseGuards(ProjectKeyGuard, SessionAuthGuard)
@Controller('v1/auth/invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Post('accept')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Accept an organization invitation as the signed-in invitee: `{organization: {id, name}, role}`',
  })
  @ApiOkResponse({ type: InvitationAcceptedResponse })
  accept(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: NonNullable<SessionRequest['auth']>,
    @Body() dto: TokenDto,
    @Req() req: Request,
  ): Promise<InvitationAcceptedResponse> {
    return this.invitations.accept(project, auth.sub, dto.token, requestMeta(req));
  }
}
