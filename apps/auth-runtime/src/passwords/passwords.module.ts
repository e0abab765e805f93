import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { OneTimeTokensModule } from '../one-time-tokens/one-time-tokens.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { PasswordChangeService } from './password-change.service';
import { PasswordsController } from './passwords.controller';

/** Changing the password of a signed-in user. */
@Module({
  imports: [AccountsModule, OneTimeTokensModule, SessionsModule, UsersModule],
  controllers: [PasswordsController],
  providers: [PasswordChangeService],
})
export class PasswordsModule {}
