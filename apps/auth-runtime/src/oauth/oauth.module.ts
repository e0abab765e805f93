import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { IdTokenVerifier } from './id-token.verifier';
import { OAuthTransactionsRepository } from './oauth-transactions.repository';
import { OAuthController } from './oauth.controller';
import { OAuthService } from './oauth.service';
import { ProviderKeysService } from './provider-keys.service';

/** Social sign-in with Google, GitHub, Microsoft and Apple (docs/oauth.md). */
@Module({
  imports: [AccountsModule],
  controllers: [OAuthController],
  providers: [OAuthService, OAuthTransactionsRepository, ProviderKeysService, IdTokenVerifier],
})
export class OAuthModule {}
