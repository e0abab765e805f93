import { Body, Param, Query } from '@nestjs/common';
import { ApiNoContentResponse } from '@nestjs/swagger';
import { ClientMeta, type RequestMeta } from '@gatehouse/identity';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { AdminController, AdminRoute } from '../common/admin-route';
import { parsePage } from '@gatehouse/http';
import { ApiResourceListResponse, ApiResourceResponse } from './api-resource.response';
import { ApiResourcesService } from './api-resources.service';
import { CreateApiResourceDto } from './dto/create-api-resource.dto';
import { UpdateApiResourceDto } from './dto/update-api-resource.dto';

@AdminController('api-resources', 'v1/admin/projects/:id/api-resources')
export class ApiResourcesController {
  constructor(private readonly resources: ApiResourcesService) {}

  @AdminRoute.create(
    'Register an API of the project: its OpenID Connect provider then issues RFC 9068 JWT access tokens for it (`aud` = identifier) (201); an identifier already registered in the project is 409',
    ApiResourceResponse,
  )
  create(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Body() dto: CreateApiResourceDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<ApiResourceResponse> {
    return this.resources.create(admin, projectId, dto, meta);
  }

  @AdminRoute.list(
    "List the project's API resources (paginated, newest first)",
    ApiResourceListResponse,
  )
  list(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<ApiResourceListResponse> {
    return this.resources.list(admin, projectId, parsePage(query));
  }

  @AdminRoute.get(':resource_id', 'Get an API resource', ApiResourceResponse)
  get(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('resource_id') id: string,
  ): Promise<ApiResourceResponse> {
    return this.resources.get(admin, projectId, id);
  }

  @AdminRoute.update(
    ':resource_id',
    'Update an API resource (any subset of the create members)',
    ApiResourceResponse,
  )
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('resource_id') id: string,
    @Body() dto: UpdateApiResourceDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<ApiResourceResponse> {
    return this.resources.update(admin, projectId, id, dto, meta);
  }

  @AdminRoute.remove(
    ':resource_id',
    'Delete an API resource: requests naming it are invalid_target from then on (204)',
    ApiNoContentResponse(),
  )
  async remove(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('resource_id') id: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.resources.remove(admin, projectId, id, meta);
  }
}
