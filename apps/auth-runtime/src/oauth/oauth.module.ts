import { Module } from '@nestjs/common';
import { ClaimsModule } from '../claims/claims.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SignInModule } from '../sign-in/sign-in.module';
import { UsersModule } from '../users/users.module';
import { IdTokenVerifier } from './id-token.verifier';
import { OAuthAccountsService } from './oauth-accounts.service';
import { OAuthTransactionsRepository } from './oauth-transactions.repository';
import { OAuthController } from './oauth.controller';
import { OAuthService } from './oauth.service';
import { ProviderKeysService } from './provider-keys.service';

/** Social sign-in with Google, GitHub, Microsoft and Apple (docs/oauth.md). */
@Module({
  imports: [ClaimsModule, CredentialsModule, SessionsModule, SignInModule, UsersModule],
  controllers: [OAuthController],
  providers: [
    OAuthService,
    OAuthAccountsService,
    OAuthTransactionsRepository,
    ProviderKeysService,
    IdTokenVerifier,
  ],
})
export class OAuthModule {}
