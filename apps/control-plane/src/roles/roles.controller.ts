import { Body, Param, Query } from '@nestjs/common';
import { ApiNoContentResponse } from '@nestjs/swagger';
import { parsePage } from '@gatehouse/http';
import { ClientMeta, type RequestMeta } from '@gatehouse/identity';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { AdminController, AdminRoute } from '../common/admin-route';
import { CreateRoleDto } from './dto/create-role.dto';
import { UpdateRoleDto } from './dto/update-role.dto';
import { RoleListResponse, RoleResponse } from './role.response';
import { RolesService } from './roles.service';

@AdminController('roles', 'v1/admin/projects/:id/roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @AdminRoute.create(
    "Create a custom role of the project (201): a key members can hold and the permissions it grants (system or the project's); a key already used is 409",
    RoleResponse,
  )
  create(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Body() dto: CreateRoleDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<RoleResponse> {
    return this.roles.create(admin, projectId, dto, meta);
  }

  @AdminRoute.list(
    "List the project's roles: admin and member first, then by key",
    RoleListResponse,
  )
  list(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<RoleListResponse> {
    return this.roles.list(admin, projectId, parsePage(query));
  }

  @AdminRoute.get(':key', 'Get a role by its key', RoleResponse)
  get(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('key') key: string,
  ): Promise<RoleResponse> {
    return this.roles.get(admin, projectId, key);
  }

  @AdminRoute.update(
    ':key',
    "Update a role's name, description or permissions (built-in ones too; admin's permissions cannot be narrowed: 409)",
    RoleResponse,
  )
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('key') key: string,
    @Body() dto: UpdateRoleDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<RoleResponse> {
    return this.roles.update(admin, projectId, key, dto, meta);
  }

  @AdminRoute.remove(
    ':key',
    'Delete a custom role (204); a built-in role, or one a member or a pending invitation holds, is 409',
    ApiNoContentResponse(),
  )
  async remove(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('key') key: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.roles.remove(admin, projectId, key, meta);
  }
}
