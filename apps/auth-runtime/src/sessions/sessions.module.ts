import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';

/** Sessions: start, refresh with rotation, the user's list, sign-out and revocation (their tables' repositories are in @gatehouse/identity). */
@Module({
  imports: [UsersModule],
  controllers: [SessionsController],
  providers: [SessionsService],
  exports: [SessionsService],
})
export class SessionsModule {}
