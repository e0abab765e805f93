import { Body, Param, Query } from '@nestjs/common';
import { ClientMeta, type RequestMeta } from '@gatehouse/identity';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { AdminController, AdminRoute } from '../common/admin-route';
import { NoFieldsDto } from '../common/no-fields.dto';
import { parsePage } from '@gatehouse/http';
import { RotateSigningKeyDto } from './dto/rotate-signing-key.dto';
import { SigningKeyListResponse, SigningKeyResponse } from './signing-key.response';
import { AdminSigningKeysService } from './signing-keys.service';

@AdminController('signing-keys', 'v1/admin/projects/:id/signing-keys')
export class SigningKeysController {
  constructor(private readonly keys: AdminSigningKeysService) {}

  @AdminRoute.list(
    "List the project's signing keys (active, retiring, retired), newest first",
    SigningKeyListResponse,
  )
  list(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<SigningKeyListResponse> {
    return this.keys.list(admin, projectId, parsePage(query));
  }

  @AdminRoute.post(
    'rotate',
    201,
    'Rotate the key of one algorithm (default ES256): a new active key; the old one of that algorithm keeps verifying for the longest token lifetime (201, the new key)',
    SigningKeyResponse,
  )
  rotate(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Body() body: RotateSigningKeyDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<SigningKeyResponse> {
    return this.keys.rotate(admin, projectId, body.algorithm ?? 'ES256', meta);
  }

  @AdminRoute.post(
    ':key_id/revoke',
    200,
    'Revoke a key that is not the active one: its tokens are refused at once and jwks.json drops it (200, the key); the active key is 409',
    SigningKeyResponse,
  )
  revoke(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('key_id') keyId: string,
    @Body() _body: NoFieldsDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<SigningKeyResponse> {
    return this.keys.revoke(admin, projectId, keyId, meta);
  }
}
