import { Module } from '@nestjs/common';
import { AdminGuard } from '../auth/admin.guard';
import { ProjectsDataModule } from '../projects-data/projects-data.module';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

@Module({
  imports: [ProjectsDataModule],
  controllers: [ApiKeysController],
  providers: [AdminGuard, ApiKeysRepository, ApiKeysService],
  exports: [ApiKeysRepository],
})
export class ApiKeysModule {}
