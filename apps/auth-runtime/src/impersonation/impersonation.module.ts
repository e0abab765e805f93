import { Module } from '@nestjs/common';
import { OneTimeTokensModule } from '../one-time-tokens/one-time-tokens.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { ImpersonationController } from './impersonation.controller';
import { ImpersonationService } from './impersonation.service';

/** An admin's impersonation link, opened in a browser (docs/api-contract.md §13). */
@Module({
  imports: [OneTimeTokensModule, SessionsModule, UsersModule],
  controllers: [ImpersonationController],
  providers: [ImpersonationService],
})
export class ImpersonationModule {}
