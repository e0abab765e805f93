import { Module } from '@nestjs/common';
import { AdminGuard } from '../auth/admin.guard';
import { OAuthClientsController } from './oauth-clients.controller';
import { OAuthClientsService } from './oauth-clients.service';

@Module({
  controllers: [OAuthClientsController],
  providers: [AdminGuard, OAuthClientsService],
})
export class OAuthClientsModule {}
