import { Body, Param, Query } from '@nestjs/common';
import { ClientMeta, type RequestMeta } from '@gatehouse/identity';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { AdminController, AdminRoute } from '../common/admin-route';
import { parsePage } from '@gatehouse/http';
import { AddMemberDto } from './dto/add-member.dto';
import { UpdateMemberDto } from './dto/update-member.dto';
import { MemberListResponse, MemberResponse } from './member.response';
import { OrganizationMembersService } from './organization-members.service';

@AdminController('organization-members', 'v1/admin/organizations/:id/members')
export class OrganizationMembersController {
  constructor(private readonly members: OrganizationMembersService) {}

  @AdminRoute.list('List the members of an organization', MemberListResponse)
  list(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<MemberListResponse> {
    return this.members.list(admin.tenantId, id, parsePage(query));
  }

  @AdminRoute.create(
    "Add a user of the organization's project (201); an existing member is 409",
    MemberResponse,
  )
  add(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() dto: AddMemberDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<MemberResponse> {
    return this.members.add(admin, id, dto, meta);
  }

  @AdminRoute.update(
    ':userId',
    "Change a member's role; demoting the last admin is 409",
    MemberResponse,
  )
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('userId') userId: string,
    @Body() dto: UpdateMemberDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<MemberResponse> {
    return this.members.updateRole(admin, id, userId, dto, meta);
  }

  @AdminRoute.remove(':userId', 'Remove a member (204); removing the last admin is 409')
  async remove(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('userId') userId: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.members.remove(admin, id, userId, meta);
  }
}
