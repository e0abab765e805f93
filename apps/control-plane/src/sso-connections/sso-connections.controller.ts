import { Body, Param, Query } from '@nestjs/common';
import { ApiConflictResponse } from '@nestjs/swagger';
import { ClientMeta, type RequestMeta } from '@gatehouse/identity';
import { parsePage } from '@gatehouse/http';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { AdminController, AdminRoute } from '../common/admin-route';
import { CreateSsoConnectionDto } from './dto/create-sso-connection.dto';
import { UpdateSsoConnectionDto } from './dto/update-sso-connection.dto';
import { SsoConnectionListResponse, SsoConnectionResponse } from './sso-connection.response';
import { SsoConnectionsService } from './sso-connections.service';

const domainConflict = ApiConflictResponse({
  description: '`conflict`: another SSO connection of the organization serves one of the domains',
});

@AdminController('sso-connections', 'v1/admin/organizations/:id/sso-connections')
export class SsoConnectionsController {
  constructor(private readonly connections: SsoConnectionsService) {}

  @AdminRoute.create(
    'Add a SAML or OpenID Connect connection to the organization (201, with the service provider values to give the IdP); secrets are write-only',
    SsoConnectionResponse,
    domainConflict,
  )
  create(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() dto: CreateSsoConnectionDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<SsoConnectionResponse> {
    return this.connections.create(admin, id, dto, meta);
  }

  @AdminRoute.list("The organization's SSO connections, oldest first", SsoConnectionListResponse)
  list(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<SsoConnectionListResponse> {
    return this.connections.list(admin.tenantId, id, parsePage(query));
  }

  @AdminRoute.get(
    ':connectionId',
    'Get an SSO connection of the organization',
    SsoConnectionResponse,
  )
  get(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('connectionId') connectionId: string,
  ): Promise<SsoConnectionResponse> {
    return this.connections.get(admin.tenantId, id, connectionId);
  }

  @AdminRoute.update(
    ':connectionId',
    'Change an SSO connection (any member but its type; new metadata replaces the IdP settings)',
    SsoConnectionResponse,
    domainConflict,
  )
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('connectionId') connectionId: string,
    @Body() dto: UpdateSsoConnectionDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<SsoConnectionResponse> {
    return this.connections.update(admin, id, connectionId, dto, meta);
  }

  @AdminRoute.remove(':connectionId', 'Delete an SSO connection (204); its users and members stay')
  async remove(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('connectionId') connectionId: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.connections.remove(admin, id, connectionId, meta);
  }
}
