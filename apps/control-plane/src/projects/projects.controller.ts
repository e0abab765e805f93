import { Body, Param, Query } from '@nestjs/common';
import { ApiForbiddenResponse, ApiNoContentResponse } from '@nestjs/swagger';
import { ClientMeta, type RequestMeta } from '@gatehouse/identity';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { AdminController, AdminRoute, ApiOptionalQueries } from '../common/admin-route';
import { QueryReader } from '../common/query-params';
import { CreateProjectDto } from './dto/create-project.dto';
import { UpdateProjectDto } from './dto/update-project.dto';
import { ProjectListResponse, ProjectResponse } from './project.response';
import { ProjectsService } from './projects.service';

@AdminController('projects', 'v1/admin/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @AdminRoute.create(
    'Create a project with its publishable key and first signing key (201)',
    ProjectResponse,
  )
  create(
    @CurrentAdmin() admin: AdminContext,
    @Body() dto: CreateProjectDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<ProjectResponse> {
    return this.projects.create(admin, dto, meta);
  }

  @AdminRoute.get(
    '',
    "List the tenant's projects (paginated, newest first; `q` searches the name)",
    ProjectListResponse,
    ApiOptionalQueries('q', 'page', 'limit'),
  )
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

  @AdminRoute.get(':id', 'Get a project', ProjectResponse)
  get(@CurrentAdmin() admin: AdminContext, @Param('id') id: string): Promise<ProjectResponse> {
    return this.projects.get(admin.tenantId, id);
  }

  @AdminRoute.update(
    ':id',
    'Update name, allowed origins, redirect URLs and settings (any subset; settings merge at their top level)',
    ProjectResponse,
  )
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() dto: UpdateProjectDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<ProjectResponse> {
    return this.projects.update(admin, id, dto, meta);
  }

  @AdminRoute.remove(
    ':id',
    {
      summary:
        'Delete a project with its users, keys, OAuth clients and sessions (204) ★; their tokens are refused from the next request',
      description:
        "Needs the admin's recent proof of identity (403 `reauthentication-required`). The console project cannot be deleted (409 `conflict`). Event `project.deleted`.",
    },
    ApiNoContentResponse({ description: 'Deleted' }),
    ApiForbiddenResponse({ description: '`reauthentication-required`' }),
  )
  async remove(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.projects.remove(admin, id, meta);
  }
}
