import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { OneTimeTokensModule } from '../one-time-tokens/one-time-tokens.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { AccountClaimsService } from './account-claims.service';

/** The claim of an unverified account by the owner of its address (docs/security.md §1). */
@Module({
  imports: [CredentialsModule, OneTimeTokensModule, SessionsModule, UsersModule],
  providers: [AccountClaimsService],
  exports: [AccountClaimsService],
})
export class ClaimsModule {}
