import { Module } from '@nestjs/common';
import { SessionAuthGuard } from '../auth/session-auth.guard';
import { SignInCompletionService } from '../auth/sign-in-completion.service';
import { UserEvents } from '../auth/user-events';
import { MfaFactorsRepository } from '../mfa/mfa-factors.repository';
import { OAuthIdentitiesRepository } from '../oauth/oauth-identities.repository';
import { OneTimeTokensRepository } from '../one-time-tokens/one-time-tokens.repository';
import { JwksController } from '../jwks/jwks.controller';
import { PasskeysRepository } from '../passkeys/passkeys.repository';
import { PasswordPolicy } from '../passwords/password-policy';
import { ProjectKeyGuard } from '../projects/project-key.guard';
import { RefreshChainsRepository } from '../sessions/refresh-chains.repository';
import { SessionsController } from '../sessions/sessions.controller';
import { SessionsRepository } from '../sessions/sessions.repository';
import { SessionsService } from '../sessions/sessions.service';
import { UsersRepository } from '../users/users.repository';
import { AccountClaimsService } from './account-claims.service';
import { AccountsController } from './accounts.controller';
import { AccountsService } from './accounts.service';

const PROVIDERS = [
  AccountClaimsService,
  AccountsService,
  MfaFactorsRepository,
  OAuthIdentitiesRepository,
  OneTimeTokensRepository,
  PasskeysRepository,
  PasswordPolicy,
  ProjectKeyGuard,
  RefreshChainsRepository,
  SessionAuthGuard,
  SessionsRepository,
  SessionsService,
  SignInCompletionService,
  UserEvents,
  UsersRepository,
];

/**
 * Email and password accounts, sessions, refresh and keys, and the pieces every other way in
 * shares (sign-in completion with the MFA challenge, one-time tokens, users, and the claim of an
 * unverified account, which ends every kind of credential).
 */
@Module({
  controllers: [AccountsController, SessionsController, JwksController],
  providers: PROVIDERS,
  exports: PROVIDERS,
})
export class AccountsModule {}
