import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@gatehouse/config';
import { DatabaseModule } from '@gatehouse/entities';
import { IdentityModule } from '@gatehouse/identity';
import { CoreModule } from '@gatehouse/http';
import { Clock } from '@gatehouse/platform';
import { QueueModule } from '@gatehouse/queue';
import { AccountsModule } from './accounts/accounts.module';
import { EmailVerificationModule } from './email-verification/email-verification.module';
import { HostedPagesModule } from './hosted-pages/hosted-pages.module';
import { InvitationsModule } from './invitations/invitations.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { JwksModule } from './jwks/jwks.module';
import { ImpersonationModule } from './impersonation/impersonation.module';
import { MagicLinksModule } from './magic-links/magic-links.module';
import { SsoModule } from './sso/sso.module';
import { MfaModule } from './mfa/mfa.module';
import { OAuthModule } from './oauth/oauth.module';
import { OidcModule } from './oidc/oidc.module';
import { PasskeysModule } from './passkeys/passkeys.module';
import { PasswordResetModule } from './password-reset/password-reset.module';
import { PasswordsModule } from './passwords/passwords.module';
import { ReauthenticationModule } from './reauthentication/reauthentication.module';
import { SessionsModule } from './sessions/sessions.module';

/**
 * The auth runtime: `/v1/auth/*` for client applications, plus `/health*`. One module per feature
 * folder, each owning its controllers; the modules below them (users, one-time tokens,
 * credentials, sign-in, claims, common) come in through the features that use them.
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, clock?: Clock): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, clock),
        DatabaseModule.forRoot(),
        IdentityModule,
        QueueModule.forRoot(),
        AccountsModule,
        EmailVerificationModule,
        HostedPagesModule,
        InvitationsModule,
        OrganizationsModule,
        JwksModule,
        MagicLinksModule,
        SsoModule,
        ImpersonationModule,
        MfaModule,
        OAuthModule,
        OidcModule,
        PasskeysModule,
        PasswordResetModule,
        PasswordsModule,
        ReauthenticationModule,
        SessionsModule,
      ],
    };
  }
}
