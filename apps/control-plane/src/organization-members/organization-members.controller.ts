import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
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
import { AddMemberDto } from './dto/add-member.dto';
import { UpdateMemberDto } from './dto/update-member.dto';
import { MemberListResponse, MemberResponse } from './member.response';
import { OrganizationMembersService } from './organization-members.service';

@ApiTags('organization-members')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('v1/admin/organizations/:id/members')
export class OrganizationMembersController {
  constructor(private readonly members: OrganizationMembersService) {}

  @Get()
  @ApiPageQueries()
  @ApiOperation({ summary: 'List the members of an organization' })
  @ApiOkResponse({ type: MemberListResponse })
  list(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<MemberListResponse> {
    return this.members.list(admin.tenantId, id, parsePage(query));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: "Add a user of the organization's project (201); an existing member is 409",
  })
  @ApiCreatedResponse({ type: MemberResponse })
  add(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() dto: AddMemberDto,
    @Req() req: Request,
  ): Promise<MemberResponse> {
    return this.members.add(admin, id, dto, requestMeta(req));
  }

  @Patch(':userId')
  @ApiOperation({ summary: "Change a member's role; demoting the last admin is 409" })
  @ApiOkResponse({ type: MemberResponse })
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('userId') userId: string,
    @Body() dto: UpdateMemberDto,
    @Req() req: Request,
  ): Promise<MemberResponse> {
    return this.members.updateRole(admin, id, userId, dto, requestMeta(req));
  }

  @Delete(':userId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a member (204); removing the last admin is 409' })
  async remove(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('userId') userId: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.members.remove(admin, id, userId, requestMeta(req));
  }
}
