import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@gatehouse/config';
import { CoreModule } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { QueueModule } from '@gatehouse/queue';
import { AccountsModule } from './accounts/accounts.module';
import { PasskeysModule } from './passkeys/passkeys.module';
import { EmailFlowsModule } from './email-flows.module';
import { MfaModule } from './mfa/mfa.module';
import { InvitationsModule } from './invitations/invitations.module';
import { OAuthModule } from './oauth/oauth.module';
import { PasswordsModule } from './passwords/passwords.module';
import { ReauthenticationModule } from './reauthentication/reauthentication.module';

/** The auth runtime: `/v1/auth/*` for client applications, plus `/health*`. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, clock?: Clock): DynamicModule {
    return {
      module: AppModule,
      imports: [CoreModule.forRoot(config, clock), QueueModule.forRoot(), AccountsModule, EmailFlowsModule, MfaModule, InvitationsModule, PasskeysModule, OAuthModule, ReauthenticationModule, PasswordsModule],
    };
  }
}
