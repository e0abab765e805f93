import { Body, Param, Query } from '@nestjs/common';
import { ClientMeta, InvitationResponse, type RequestMeta } from '@gatehouse/identity';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { AdminController, AdminRoute } from '../common/admin-route';
import { parsePage } from '@gatehouse/http';
import { CreateInvitationDto } from './dto/create-invitation.dto';
import { InvitationListResponse } from './invitation.response';
import { InvitationsService } from './invitations.service';

@AdminController('invitations', 'v1/admin/organizations/:id/invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @AdminRoute.create(
    'Invite an email address; mails a 7-day single-use link (201)',
    InvitationResponse,
  )
  create(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() dto: CreateInvitationDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<InvitationResponse> {
    return this.invitations.create(admin, id, dto, meta);
  }

  @AdminRoute.list(
    "List an organization's invitations (pending, accepted, revoked, expired), newest first",
    InvitationListResponse,
  )
  list(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<InvitationListResponse> {
    return this.invitations.list(admin.tenantId, id, parsePage(query));
  }

  @AdminRoute.remove(':invitationId', 'Revoke a pending invitation (204); its link stops working')
  async revoke(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('invitationId') invitationId: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.invitations.revoke(admin, id, invitationId, meta);
  }
}
