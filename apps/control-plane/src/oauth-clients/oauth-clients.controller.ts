import { Body, Param, Query } from '@nestjs/common';
import { ApiNoContentResponse } from '@nestjs/swagger';
import { ClientMeta, type RequestMeta } from '@gatehouse/identity';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { AdminController, AdminRoute } from '../common/admin-route';
import { NoFieldsDto } from '../common/no-fields.dto';
import { parsePage } from '@gatehouse/http';
import { CreateOAuthClientDto } from './dto/create-oauth-client.dto';
import { UpdateOAuthClientDto } from './dto/update-oauth-client.dto';
import {
  OAuthClientCreatedResponse,
  OAuthClientListResponse,
  OAuthClientResponse,
  OAuthClientSecretRotatedResponse,
} from './oauth-client.response';
import { OAuthClientsService } from './oauth-clients.service';

@AdminController('oauth-clients', 'v1/admin/projects/:id/oauth-clients')
export class OAuthClientsController {
  constructor(private readonly clients: OAuthClientsService) {}

  @AdminRoute.create(
    "Register a client of the project's OpenID Connect provider; a confidential client's `client_secret` is returned this once only (201)",
    OAuthClientCreatedResponse,
  )
  create(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Body() dto: CreateOAuthClientDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<OAuthClientCreatedResponse> {
    return this.clients.create(admin, projectId, dto, meta);
  }

  @AdminRoute.list(
    "List the project's OAuth clients (paginated, newest first; never their secrets)",
    OAuthClientListResponse,
  )
  list(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<OAuthClientListResponse> {
    return this.clients.list(admin, projectId, parsePage(query));
  }

  @AdminRoute.get(':client_id', 'Get an OAuth client', OAuthClientResponse)
  get(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('client_id') clientId: string,
  ): Promise<OAuthClientResponse> {
    return this.clients.get(admin, projectId, clientId);
  }

  @AdminRoute.update(
    ':client_id',
    'Update an OAuth client (any subset of the create members but `token_endpoint_auth_method`)',
    OAuthClientResponse,
  )
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('client_id') clientId: string,
    @Body() dto: UpdateOAuthClientDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<OAuthClientResponse> {
    return this.clients.update(admin, projectId, clientId, dto, meta);
  }

  @AdminRoute.remove(
    ':client_id',
    'Delete an OAuth client and the grants users gave it (204)',
    ApiNoContentResponse(),
  )
  async remove(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('client_id') clientId: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.clients.remove(admin, projectId, clientId, meta);
  }

  @AdminRoute.post(
    ':client_id/secret/rotate',
    201,
    "Rotate a confidential client's secret: the new `client_secret` is returned this once only, the old one stops working (201); a public client is 409",
    OAuthClientSecretRotatedResponse,
  )
  rotate(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('client_id') clientId: string,
    @Body() _body: NoFieldsDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<OAuthClientSecretRotatedResponse> {
    return this.clients.rotateSecret(admin, projectId, clientId, meta);
  }
}
