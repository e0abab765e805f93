import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminGuard, type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { parsePage } from '../common/pagination';
import { ProjectsService } from './projects.service';

@ApiTags('projects')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('v1/admin/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Get()
  @ApiOperation({ summary: "List the tenant's projects (paginated)" })
  list(@CurrentAdmin() admin: AdminContext, @Query() query: Record<string, unknown>) {
    return this.projects.list(admin.tenantId, parsePage(query));
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a project' })
  get(@CurrentAdmin() admin: AdminContext, @Param('id') id: string) {
    return this.projects.get(admin.tenantId, id);
  }
}
