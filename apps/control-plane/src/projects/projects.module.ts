import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { AdminGuard } from '../auth/admin.guard';
import { ProjectCacheInvalidator } from './project-cache-invalidator';
import { ProjectsController } from './projects.controller';
import { ProjectsDataModule } from '../projects-data/projects-data.module';
import { ProjectsService } from './projects.service';

@Module({
  imports: [ProjectsDataModule, ApiKeysModule],
  controllers: [ProjectsController],
  providers: [AdminGuard, ProjectCacheInvalidator, ProjectsService],
})
export class ProjectsModule {}
