import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { RefreshChainsRepository } from './refresh-chains.repository';
import { SessionsController } from './sessions.controller';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

/** Sessions: start, refresh with rotation, the user's list, sign-out and revocation. */
@Module({
  imports: [UsersModule],
  controllers: [SessionsController],
  providers: [SessionsService, SessionsRepository, RefreshChainsRepository],
  exports: [SessionsService],
})
export class SessionsModule {}
