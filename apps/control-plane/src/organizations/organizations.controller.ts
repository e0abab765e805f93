import { Body, Param, Query } from '@nestjs/common';
import { ClientMeta, type RequestMeta } from '@gatehouse/identity';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { AdminController, AdminRoute, ApiOptionalQueries } from '../common/admin-route';
import { QueryReader } from '../common/query-params';
import { CreateOrganizationDto } from './dto/create-organization.dto';
import { UpdateOrganizationDto } from './dto/update-organization.dto';
import { OrganizationListResponse, OrganizationResponse } from './organization.response';
import { OrganizationsService } from './organizations.service';

@AdminController('organizations', 'v1/admin/organizations')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @AdminRoute.create('Create an organization in a project (201)', OrganizationResponse)
  create(
    @CurrentAdmin() admin: AdminContext,
    @Body() dto: CreateOrganizationDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<OrganizationResponse> {
    return this.organizations.create(admin, dto, meta);
  }

  @AdminRoute.get(
    '',
    "List the tenant's organizations, newest first; `project_id` filters, `q` searches name and slug",
    OrganizationListResponse,
    ApiOptionalQueries('project_id', 'q', 'page', 'limit'),
  )
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

  @AdminRoute.get(':id', 'Get an organization', OrganizationResponse)
  get(@CurrentAdmin() admin: AdminContext, @Param('id') id: string): Promise<OrganizationResponse> {
    return this.organizations.get(admin.tenantId, id);
  }

  @AdminRoute.update(':id', 'Update name, slug and/or metadata', OrganizationResponse)
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() dto: UpdateOrganizationDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<OrganizationResponse> {
    return this.organizations.update(admin, id, dto, meta);
  }

  @AdminRoute.remove(':id', 'Delete an organization with its members and invitations (204)')
  async delete(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.organizations.delete(admin, id, meta);
  }
}
