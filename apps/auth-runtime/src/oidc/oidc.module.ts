import { Module } from '@nestjs/common';
import { CommonModule } from '../common/common.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { SessionsModule } from '../sessions/sessions.module';
import { OAuthGrantsRepository } from './oauth-grants.repository';
import { OidcInteractionsController } from './oidc-interactions.controller';
import { OidcInteractionsService } from './oidc-interactions.service';
import { OidcProviderConfiguration } from './oidc-provider-configuration';
import { OidcProviders } from './oidc-providers.service';
import { OidcRegistration } from './oidc-registration';
import { OidcStore } from './oidc-store';
import { OrganizationMembersRepository } from '@gatehouse/organizations';

/** Each project's OpenID Connect provider (docs/api-contract.md §11): mounted by `oidcMiddleware`, completed through the interaction API. */
@Module({
  imports: [CommonModule, CredentialsModule, SessionsModule],
  controllers: [OidcInteractionsController],
  providers: [
    OAuthGrantsRepository,
    OrganizationMembersRepository,
    OidcRegistration,
    OidcStore,
    OidcProviderConfiguration,
    OidcProviders,
    OidcInteractionsService,
  ],
  exports: [OidcProviders],
})
export class OidcModule {}
