import {
  Body,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { ApiPageQueries, paginated, parsePage, RateLimitsService } from '@gatehouse/http';
import { RATE_LIMITS } from '../common/rate-limits';
import {
  ClientMeta,
  InvitationResponse,
  type RequestMeta,
  type ResolvedProject,
} from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { CurrentAuth, SessionAuthGuard, type SessionAuth } from '../auth/session-auth.guard';
import { setAccessCookie } from '../auth/session-cookies';
import { CurrentProject } from '../projects/current-project.decorator';
import { ProjectKeyController } from '../projects/project-key-controller';
import { AccessTokenResponse } from '../sessions/session.response';
import { ActiveOrganizationDto } from './active-organization.dto';
import { OrganizationAdminService } from './organization-admin.service';
import {
  CreateMyOrganizationDto,
  InviteMemberDto,
  UpdateMyMemberDto,
  UpdateMyOrganizationDto,
} from './organization-member.dto';
import {
  MyMemberListResponse,
  MyMemberResponse,
  MyOrganization,
  MyOrganizationsResponse,
  OrganizationSuggestionsResponse,
} from './organization.response';
import { OrganizationSuggestionsService } from './organization-suggestions.service';
import { OrganizationsService } from './organizations.service';

@ProjectKeyController('organizations', 'v1/auth/organizations', SessionAuthGuard)
export class OrganizationsController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly admin: OrganizationAdminService,
    private readonly suggestions: OrganizationSuggestionsService,
    private readonly rateLimits: RateLimitsService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({
    summary: "The signed-in user's organizations in the project with their role and permissions",
  })
  @ApiOkResponse({ type: MyOrganizationsResponse })
  mine(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
  ): Promise<MyOrganizationsResponse> {
    return this.organizations.mine(project, auth.sub);
  }

  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: MyOrganization })
  @ApiOperation({
    summary:
      "Create an organization with the user as its admin (201), when the project's settings.organizations.allow_user_create is true (else 403)",
  })
  async create(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Body() dto: CreateMyOrganizationDto,
    @ClientMeta() meta: RequestMeta,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MyOrganization> {
    await this.rateLimits.enforce(res, RATE_LIMITS.organizationCreate, [project.id, auth.sub]);
    return this.admin.create(project, auth.sub, dto, meta);
  }

  @Get('suggestions')
  @ApiOperation({
    summary:
      "Organizations the user may join: verified domains with enrollment `suggest` at the user's verified email's domain, of organizations they are not in (none for an unverified email)",
  })
  @ApiOkResponse({ type: OrganizationSuggestionsResponse })
  suggested(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
  ): Promise<OrganizationSuggestionsResponse> {
    return this.suggestions.list(project, auth.sub);
  }

  @Post('suggestions/:id/accept')
  @HttpCode(200)
  @ApiOkResponse({ type: MyOrganization })
  @ApiOperation({
    summary:
      "Join a suggested organization with the domain's default role: the membership as GET /v1/auth/organizations lists it; no such suggestion is 404",
  })
  acceptSuggestion(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Param('id') id: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<MyOrganization> {
    return this.suggestions.accept(project, auth.sub, id, meta);
  }

  @Post('active')
  @HttpCode(200)
  @ApiOkResponse({ type: AccessTokenResponse })
  @ApiOperation({
    summary:
      "Make one of the user's organizations the session's active one (or none with null): a new access token with the `org` claim, kept across refreshes; not a member is 403",
  })
  async setActive(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Body() dto: ActiveOrganizationDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AccessTokenResponse> {
    const issued = await this.organizations.setActive(project, auth, dto.organization_id);
    setAccessCookie(res, this.config, issued, this.clock.nowMs());
    return { access_token: issued.accessToken, expires_in: issued.expiresIn };
  }

  @Patch(':id')
  @ApiOkResponse({ type: MyOrganization })
  @ApiOperation({
    summary:
      "Rename the organization or change its slug (`org:settings:manage`; 403 without, 404 for a non-member); its metadata is the application's",
  })
  updateOrganization(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Param('id') id: string,
    @Body() dto: UpdateMyOrganizationDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<MyOrganization> {
    return this.admin.update(project, auth.sub, id, dto, meta);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiOperation({ summary: 'Delete the organization (`org:delete`), its members and invitations' })
  async deleteOrganization(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Param('id') id: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.admin.remove(project, auth.sub, id, meta);
  }

  @Get(':id/members')
  @ApiPageQueries()
  @ApiOkResponse({ type: MyMemberListResponse })
  @ApiOperation({ summary: "The organization's members (`org:members:read`), oldest first" })
  async members(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<MyMemberListResponse> {
    const page = parsePage(query);
    const { members, total } = await this.admin.listMembers(project, auth.sub, id, page);
    return paginated('members', members, page, total);
  }

  @Patch(':id/members/:user_id')
  @ApiOkResponse({ type: MyMemberResponse })
  @ApiOperation({
    summary:
      "Change a member's role (`org:members:manage`): never to or from a role granting more than the caller's; the last admin stays (409)",
  })
  updateMember(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Param('id') id: string,
    @Param('user_id') userId: string,
    @Body() dto: UpdateMyMemberDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<MyMemberResponse> {
    const target = userId === 'me' ? auth.sub : userId;
    return this.admin.updateMember(project, auth.sub, id, target, dto.role, meta);
  }

  @Delete(':id/members/:user_id')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiOperation({
    summary:
      'Remove a member (`org:members:manage`), or leave with `me` (no permission needed); the last admin stays (409)',
  })
  async removeMember(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Param('id') id: string,
    @Param('user_id') userId: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    const target = userId === 'me' ? auth.sub : userId;
    await this.admin.removeMember(project, auth.sub, id, target, meta);
  }

  @Post(':id/invitations')
  @HttpCode(201)
  @ApiCreatedResponse({ type: InvitationResponse })
  @ApiOperation({
    summary:
      "Invite an email address to the organization (`org:members:manage`) with a role granting no more than the caller's; mails the 7-day single-use link the admin API sends (201)",
  })
  async invite(
    @CurrentProject() project: ResolvedProject,
    @CurrentAuth() auth: SessionAuth,
    @Param('id') id: string,
    @Body() dto: InviteMemberDto,
    @ClientMeta() meta: RequestMeta,
    @Res({ passthrough: true }) res: Response,
  ): Promise<InvitationResponse> {
    await this.rateLimits.enforce(res, RATE_LIMITS.organizationInvite, [project.id, auth.sub]);
    return this.admin.invite(project, auth.sub, id, dto, meta);
  }
}
