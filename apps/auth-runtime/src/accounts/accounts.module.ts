import { Module } from '@nestjs/common';
import { SessionAuthGuard } from '../auth/session-auth.guard';
import { JwksController } from '../jwks/jwks.controller';
import { PasswordPolicy } from '../passwords/password-policy';
import { ProjectKeyGuard } from '../projects/project-key.guard';
import { RefreshTokensRepository } from '../sessions/refresh-tokens.repository';
import { SessionsController } from '../sessions/sessions.controller';
import { SessionsRepository } from '../sessions/sessions.repository';
import { SessionsService } from '../sessions/sessions.service';
import { UsersRepository } from '../users/users.repository';
import { AccountsController } from './accounts.controller';
import { AccountsService } from './accounts.service';

const PROVIDERS = [AccountsService, PasswordPolicy, ProjectKeyGuard, RefreshTokensRepository, SessionAuthGuard, SessionsRepository, SessionsService, UsersRepository];

/** Email and password accounts, sessions, refresh and keys. */
@Module({
  controllers: [AccountsController, SessionsController, JwksController],
  providers: PROVIDERS,
  exports: PROVIDERS,
})
export class AccountsModule {}
