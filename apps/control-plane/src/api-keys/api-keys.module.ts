import { Module } from '@nestjs/common';
import { AdminGuard } from '../auth/admin.guard';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';

@Module({
  controllers: [ApiKeysController],
  providers: [AdminGuard, ApiKeysService],
})
export class ApiKeysModule {}
