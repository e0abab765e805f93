import { Body, Param, Query } from '@nestjs/common';
import { ClientMeta, type RequestMeta } from '@gatehouse/identity';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { AdminController, AdminRoute } from '../common/admin-route';
import { parsePage } from '@gatehouse/http';
import { ApiKeyCreatedResponse, ApiKeyListResponse } from './api-key.response';
import { ApiKeysService } from './api-keys.service';
import { CreateApiKeyDto } from './dto/create-api-key.dto';

@AdminController('api-keys', 'v1/admin/projects/:id/api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @AdminRoute.create(
    'Create an API key (`sk_…`); the `secret` is returned this once only (201)',
    ApiKeyCreatedResponse,
  )
  create(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Body() dto: CreateApiKeyDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<ApiKeyCreatedResponse> {
    return this.keys.create(admin, projectId, dto, meta);
  }

  @AdminRoute.list("List the project's live API keys (never their secrets)", ApiKeyListResponse)
  list(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<ApiKeyListResponse> {
    return this.keys.list(admin, projectId, parsePage(query));
  }

  @AdminRoute.remove(':keyId', 'Revoke an API key; the runtime refuses it from the next call (204)')
  async revoke(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('keyId') keyId: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.keys.revoke(admin, projectId, keyId, meta);
  }
}
