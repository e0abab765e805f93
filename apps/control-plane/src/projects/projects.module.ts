import { Module } from '@nestjs/common';
import { AdminGuard } from '../auth/admin.guard';
import { ProjectsController } from './projects.controller';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

@Module({
  controllers: [ProjectsController],
  providers: [AdminGuard, ProjectsRepository, ProjectsService],
})
export class ProjectsModule {}
