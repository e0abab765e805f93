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
import { ApiPageQueries, parsePage } from '../common/pagination';
import { ApiResourceListResponse, ApiResourceResponse } from './api-resource.response';
import { ApiResourcesService } from './api-resources.service';
import { CreateApiResourceDto } from './dto/create-api-resource.dto';
import { UpdateApiResourceDto } from './dto/update-api-resource.dto';

@ApiTags('api-resources')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('v1/admin/projects/:id/api-resources')
export class ApiResourcesController {
  constructor(private readonly resources: ApiResourcesService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Register an API of the project: its OpenID Connect provider then issues RFC 9068 JWT access tokens for it (`aud` = identifier) (201); an identifier already registered in the project is 409',
  })
  @ApiCreatedResponse({ type: ApiResourceResponse })
  create(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Body() dto: CreateApiResourceDto,
    @Req() req: Request,
  ): Promise<ApiResourceResponse> {
    return this.resources.create(admin, projectId, dto, requestMeta(req));
  }

  @Get()
  @ApiPageQueries()
  @ApiOperation({ summary: "List the project's API resources (paginated, newest first)" })
  @ApiOkResponse({ type: ApiResourceListResponse })
  list(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<ApiResourceListResponse> {
    return this.resources.list(admin, projectId, parsePage(query));
  }

  @Get(':resource_id')
  @ApiOperation({ summary: 'Get an API resource' })
  @ApiOkResponse({ type: ApiResourceResponse })
  get(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('resource_id') id: string,
  ): Promise<ApiResourceResponse> {
    return this.resources.get(admin, projectId, id);
  }

  @Patch(':resource_id')
  @ApiOperation({ summary: 'Update an API resource (any subset of the create members)' })
  @ApiOkResponse({ type: ApiResourceResponse })
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('resource_id') id: string,
    @Body() dto: UpdateApiResourceDto,
    @Req() req: Request,
  ): Promise<ApiResourceResponse> {
    return this.resources.update(admin, projectId, id, dto, requestMeta(req));
  }

  @Delete(':resource_id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete an API resource: requests naming it are invalid_target from then on (204)',
  })
  @ApiNoContentResponse()
  async remove(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') projectId: string,
    @Param('resource_id') id: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.resources.remove(admin, projectId, id, requestMeta(req));
  }
}
