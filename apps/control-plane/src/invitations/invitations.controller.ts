import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { requestMeta } from '@gatehouse/identity';
import { AdminGuard, type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { ApiPageQueries, parsePage } from '../common/pagination';
import { CreateInvitationDto } from './dto/create-invitation.dto';
import { InvitationListResponse, InvitationResponse } from './invitation.response';
import { InvitationsService } from './invitations.service';

@ApiTags('invitations')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('v1/admin/organizations/:id/invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Invite an email address; mails a 7-day single-use link (201)' })
  @ApiCreatedResponse({ type: InvitationResponse })
  create(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() dto: CreateInvitationDto,
    @Req() req: Request,
  ): Promise<InvitationResponse> {
    return this.invitations.create(admin, id, dto, requestMeta(req));
  }

  @Get()
  @ApiPageQueries()
  @ApiOperation({
    summary:
      "List an organization's invitations (pending, accepted, revoked, expired), newest first",
  })
  @ApiOkResponse({ type: InvitationListResponse })
  list(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<InvitationListResponse> {
    return this.invitations.list(admin.tenantId, id, parsePage(query));
  }

  @Delete(':invitationId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a pending invitation (204); its link stops working' })
  async revoke(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('invitationId') invitationId: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.invitations.revoke(admin, id, invitationId, requestMeta(req));
  }
}
