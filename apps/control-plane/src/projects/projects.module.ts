import { Module } from '@nestjs/common';
import { AdminGuard } from '../auth/admin.guard';
import { ProjectCacheInvalidator } from './project-cache-invalidator';
import { ProjectsController } from './projects.controller';
import { ProjectsService } from './projects.service';

@Module({
  controllers: [ProjectsController],
  providers: [AdminGuard, ProjectCacheInvalidator, ProjectsService],
})
export class ProjectsModule {}
