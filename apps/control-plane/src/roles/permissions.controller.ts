import { Body, Param, Query } from '@nestjs/common';
import { ApiNoContentResponse } from '@nestjs/swagger';
import { parsePage } from '@gatehouse/http';
import { ClientMeta, type RequestMeta } from '@gatehouse/identity';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { AdminController, AdminRoute } from '../common/admin-route';
import { CreatePermissionDto } from './dto/create-permission.dto';
import { PermissionListResponse, PermissionResponse } from './permission.response';
import { PermissionsService } from './permissions.service';

@AdminController('roles', 'v1/admin/projects/:id/permissions')
export class PermissionsController {
  constructor(private readonly permissions: PermissionsService) {}

  @AdminRoute.create(
    "Add a permission to the project's catalog (201), for its roles to grant; a key already there is 409",
    PermissionResponse,
  )
  create(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Body() dto: CreatePermissionDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<PermissionResponse> {
    return this.permissions.create(admin, projectId, dto, meta);
  }

  @AdminRoute.list(
    "List the permissions roles can grant: the system ones first, then the project's by key",
    PermissionListResponse,
  )
  list(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<PermissionListResponse> {
    return this.permissions.list(admin, projectId, parsePage(query));
  }

  @AdminRoute.remove(
    ':key',
    'Delete a permission (204); one a role grants, or a system one, is 409',
    ApiNoContentResponse(),
  )
  async remove(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('key') key: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.permissions.remove(admin, projectId, key, meta);
  }
}
