import {
  Body,
  Controller,
  Delete,
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
import { ApiPageQueries, parsePage } from '../common/pagination';
import { ApiKeyCreatedResponse, ApiKeyListResponse } from './api-key.response';
import { ApiKeysService } from './api-keys.service';
import { CreateApiKeyDto } from './dto/create-api-key.dto';

@ApiTags('api-keys')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('v1/admin/projects/:id/api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create an API key (`sk_…`); the `secret` is returned this once only (201)',
  })
  @ApiCreatedResponse({ type: ApiKeyCreatedResponse })
  create(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Body() dto: CreateApiKeyDto,
    @Req() req: Request,
  ): Promise<ApiKeyCreatedResponse> {
    return this.keys.create(admin, projectId, dto, requestMeta(req));
  }

  @Get()
  @ApiPageQueries()
  @ApiOperation({ summary: "List the project's live API keys (never their secrets)" })
  @ApiOkResponse({ type: ApiKeyListResponse })
  list(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<ApiKeyListResponse> {
    return this.keys.list(admin, projectId, parsePage(query));
  }

  @Delete(':keyId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke an API key; the runtime refuses it from the next call (204)' })
  async revoke(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('keyId') keyId: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.keys.revoke(admin, projectId, keyId, requestMeta(req));
  }
}
