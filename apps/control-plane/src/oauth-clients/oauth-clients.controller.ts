import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
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
import { CreateOAuthClientDto } from './dto/create-oauth-client.dto';
import { UpdateOAuthClientDto } from './dto/update-oauth-client.dto';
import {
  OAuthClientCreatedResponse,
  OAuthClientListResponse,
  OAuthClientResponse,
  OAuthClientSecretRotatedResponse,
} from './oauth-client.response';
import { OAuthClientsService } from './oauth-clients.service';

@ApiTags('oauth-clients')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('v1/admin/projects/:id/oauth-clients')
export class OAuthClientsController {
  constructor(private readonly clients: OAuthClientsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary:
      "Register a client of the project's OpenID Connect provider; a confidential client's `client_secret` is returned this once only (201)",
  })
  @ApiCreatedResponse({ type: OAuthClientCreatedResponse })
  create(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Body() dto: CreateOAuthClientDto,
    @Req() req: Request,
  ): Promise<OAuthClientCreatedResponse> {
    return this.clients.create(admin, projectId, dto, requestMeta(req));
  }

  @Get()
  @ApiPageQueries()
  @ApiOperation({
    summary: "List the project's OAuth clients (paginated, newest first; never their secrets)",
  })
  @ApiOkResponse({ type: OAuthClientListResponse })
  list(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<OAuthClientListResponse> {
    return this.clients.list(admin, projectId, parsePage(query));
  }

  @Get(':client_id')
  @ApiOperation({ summary: 'Get an OAuth client' })
  @ApiOkResponse({ type: OAuthClientResponse })
  get(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('client_id') clientId: string,
  ): Promise<OAuthClientResponse> {
    return this.clients.get(admin, projectId, clientId);
  }

  @Patch(':client_id')
  @ApiOperation({
    summary:
      'Update an OAuth client (any subset of the create members but `token_endpoint_auth_method`)',
  })
  @ApiOkResponse({ type: OAuthClientResponse })
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('client_id') clientId: string,
    @Body() dto: UpdateOAuthClientDto,
    @Req() req: Request,
  ): Promise<OAuthClientResponse> {
    return this.clients.update(admin, projectId, clientId, dto, requestMeta(req));
  }

  @Delete(':client_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an OAuth client and the grants users gave it (204)' })
  @ApiNoContentResponse()
  async remove(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('client_id') clientId: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.clients.remove(admin, projectId, clientId, requestMeta(req));
  }

  @Post(':client_id/secret/rotate')
  @HttpCode(201)
  @ApiOperation({
    summary:
      "Rotate a confidential client's secret: the new `client_secret` is returned this once only, the old one stops working (201); a public client is 409",
  })
  @ApiCreatedResponse({ type: OAuthClientSecretRotatedResponse })
  rotate(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('client_id') clientId: string,
    @Body() _body: NoFieldsDto,
    @Req() req: Request,
  ): Promise<OAuthClientSecretRotatedResponse> {
    return this.clients.rotateSecret(admin, projectId, clientId, requestMeta(req));
  }
}
