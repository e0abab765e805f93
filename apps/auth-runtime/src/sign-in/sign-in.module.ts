import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { OneTimeTokensModule } from '../one-time-tokens/one-time-tokens.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { SignInCompletionService } from './sign-in-completion.service';
import { UserEvents } from './user-events';

/** Where every way in ends once its first factor is proven: the MFA challenge or a session. */
@Module({
  imports: [CredentialsModule, OneTimeTokensModule, SessionsModule, UsersModule],
  providers: [SignInCompletionService, UserEvents],
  exports: [SignInCompletionService, UserEvents],
})
export class SignInModule {}
