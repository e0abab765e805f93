import { Module } from '@nestjs/common';
import { AdminGuard } from '../auth/admin.guard';
import { ApiResourcesController } from './api-resources.controller';
import { ApiResourcesService } from './api-resources.service';

@Module({
  controllers: [ApiResourcesController],
  providers: [AdminGuard, ApiResourcesService],
})
export class ApiResourcesModule {}
