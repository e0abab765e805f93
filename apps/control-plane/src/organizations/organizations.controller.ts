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
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { requestMeta } from '@gatehouse/identity';
import { AdminGuard, type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { QueryReader } from '../common/query-params';
import { CreateOrganizationDto } from './dto/create-organization.dto';
import { UpdateOrganizationDto } from './dto/update-organization.dto';
import { OrganizationListResponse, OrganizationResponse } from './organization.response';
import { OrganizationsService } from './organizations.service';

@ApiTags('organizations')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('v1/admin/organizations')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an organization in a project (201)' })
  @ApiCreatedResponse({ type: OrganizationResponse })
  create(
    @CurrentAdmin() admin: AdminContext,
    @Body() dto: CreateOrganizationDto,
    @Req() req: Request,
  ): Promise<OrganizationResponse> {
    return this.organizations.create(admin, dto, requestMeta(req));
  }

  @Get()
  @ApiOperation({
    summary:
      "List the tenant's organizations, newest first; `project_id` filters, `q` searches name and slug",
  })
  @ApiQuery({ name: 'project_id', required: false })
  @ApiQuery({ name: 'q', required: false })
  @ApiQuery({ name: 'page', required: false })
  @ApiQuery({ name: 'limit', required: false })
  @ApiOkResponse({ type: OrganizationListResponse })
  list(
    @CurrentAdmin() admin: AdminContext,
    @Query() query: Record<string, unknown>,
  ): Promise<OrganizationListResponse> {
    const r = new QueryReader(query);
    const projectId = r.string('project_id', 64);
    const q = r.string('q', 200);
    const page = r.page();
    r.done();
    return this.organizations.list(admin.tenantId, { projectId, q }, page);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get an organization' })
  @ApiOkResponse({ type: OrganizationResponse })
  get(@CurrentAdmin() admin: AdminContext, @Param('id') id: string): Promise<OrganizationResponse> {
    return this.organizations.get(admin.tenantId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Update name, slug and/or metadata' })
  @ApiOkResponse({ type: OrganizationResponse })
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() dto: UpdateOrganizationDto,
    @Req() req: Request,
  ): Promise<OrganizationResponse> {
    return this.organizations.update(admin, id, dto, requestMeta(req));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an organization with its members and invitations (204)' })
  async delete(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.organizations.delete(admin, id, requestMeta(req));
  }
}
