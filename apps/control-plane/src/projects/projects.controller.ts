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
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { requestMeta } from '@gatehouse/identity';
import { AdminGuard, type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { QueryReader } from '../common/query-params';
import { CreateProjectDto } from './dto/create-project.dto';
import { UpdateProjectDto } from './dto/update-project.dto';
import { ProjectListResponse, ProjectResponse } from './project.response';
import { ProjectsService } from './projects.service';

@ApiTags('projects')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('v1/admin/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a project with its publishable key and first signing key (201)',
  })
  @ApiCreatedResponse({ type: ProjectResponse })
  create(
    @CurrentAdmin() admin: AdminContext,
    @Body() dto: CreateProjectDto,
    @Req() req: Request,
  ): Promise<ProjectResponse> {
    return this.projects.create(admin, dto, requestMeta(req));
  }

  @Get()
  @ApiOperation({
    summary: "List the tenant's projects (paginated, newest first; `q` searches the name)",
  })
  @ApiQuery({ name: 'q', required: false })
  @ApiQuery({ name: 'page', required: false })
  @ApiQuery({ name: 'limit', required: false })
  @ApiOkResponse({ type: ProjectListResponse })
  list(
    @CurrentAdmin() admin: AdminContext,
    @Query() query: Record<string, unknown>,
  ): Promise<ProjectListResponse> {
    const r = new QueryReader(query);
    const q = r.string('q', 200);
    const page = r.page();
    r.done();
    return this.projects.list(admin.tenantId, q, page);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a project' })
  @ApiOkResponse({ type: ProjectResponse })
  get(@CurrentAdmin() admin: AdminContext, @Param('id') id: string): Promise<ProjectResponse> {
    return this.projects.get(admin.tenantId, id);
  }

  @Patch(':id')
  @ApiOperation({
    summary:
      'Update name, allowed origins, redirect URLs and settings (any subset; settings merge at their top level)',
  })
  @ApiOkResponse({ type: ProjectResponse })
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() dto: UpdateProjectDto,
    @Req() req: Request,
  ): Promise<ProjectResponse> {
    return this.projects.update(admin, id, dto, requestMeta(req));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary:
      'Delete a project with its users, keys, OAuth clients and sessions (204) ★; their tokens are refused from the next request',
    description:
      "Needs the admin's recent proof of identity (403 `reauthentication-required`). The console project cannot be deleted (409 `conflict`). Event `project.deleted`.",
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiForbiddenResponse({ description: '`reauthentication-required`' })
  async remove(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.projects.remove(admin, id, requestMeta(req));
  }
}
