import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
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
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { requestMeta } from '@gatehouse/identity';
import { AdminGuard, type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { NoFieldsDto } from '../common/no-fields.dto';
import { ApiPageQueries, parsePage } from '../common/pagination';
import { RotateSigningKeyDto } from './dto/rotate-signing-key.dto';
import { SigningKeyListResponse, SigningKeyResponse } from './signing-key.response';
import { AdminSigningKeysService } from './signing-keys.service';

@ApiTags('signing-keys')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('v1/admin/projects/:id/signing-keys')
export class SigningKeysController {
  constructor(private readonly keys: AdminSigningKeysService) {}

  @Get()
  @ApiPageQueries()
  @ApiOperation({
    summary: "List the project's signing keys (active, retiring, retired), newest first",
  })
  @ApiOkResponse({ type: SigningKeyListResponse })
  list(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<SigningKeyListResponse> {
    return this.keys.list(admin, projectId, parsePage(query));
  }

  @Post('rotate')
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Rotate the key of one algorithm (default ES256): a new active key; the old one of that algorithm keeps verifying for the longest token lifetime (201, the new key)',
  })
  @ApiCreatedResponse({ type: SigningKeyResponse })
  rotate(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Body() body: RotateSigningKeyDto,
    @Req() req: Request,
  ): Promise<SigningKeyResponse> {
    return this.keys.rotate(admin, projectId, body.algorithm ?? 'ES256', requestMeta(req));
  }

  @Post(':key_id/revoke')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Revoke a key that is not the active one: its tokens are refused at once and jwks.json drops it (200, the key); the active key is 409',
  })
  @ApiOkResponse({ type: SigningKeyResponse })
  revoke(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('key_id') keyId: string,
    @Body() _body: NoFieldsDto,
    @Req() req: Request,
  ): Promise<SigningKeyResponse> {
    return this.keys.revoke(admin, projectId, keyId, requestMeta(req));
  }
}
