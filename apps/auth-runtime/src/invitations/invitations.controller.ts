import { Body, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import { requestMeta, type ResolvedProject } from '@gatehouse/identity';
import { CurrentAuth, SessionAuthGuard, type SessionAuth } from '../auth/session-auth.guard';
import { TokenDto } from '../one-time-tokens/token.dto';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyController } from '../projects/project-key-controller';
import { InvitationsService } from './invitations.service';
import { InvitationAcceptedResponse } from './invitation-accepted.response';

@ProjectKeyController('invitations', 'v1/auth/invitations', SessionAuthGuard)
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
    @CurrentAuth() auth: SessionAuth,
    @Body() dto: TokenDto,
    @Req() req: Request,
  ): Promise<InvitationAcceptedResponse> {
    return this.invitations.accept(project, auth.sub, dto.token, requestMeta(req));
  }
}
