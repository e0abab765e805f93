import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { MfaModule } from '../mfa/mfa.module';
import { PasskeysModule } from '../passkeys/passkeys.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { ReauthenticationController } from './reauthentication.controller';
import { ReauthenticationService } from './reauthentication.service';

/** Step-up: proving a credential again within a session (password, second factor or passkey). */
@Module({
  imports: [AccountsModule, MfaModule, PasskeysModule, SessionsModule, UsersModule],
  controllers: [ReauthenticationController],
  providers: [ReauthenticationService],
})
export class ReauthenticationModule {}
