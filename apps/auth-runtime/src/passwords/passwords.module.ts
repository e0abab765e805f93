import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { PasswordChangeService } from './password-change.service';
import { PasswordsController } from './passwords.controller';

/** Changing the password of a signed-in user. */
@Module({
  imports: [AccountsModule],
  controllers: [PasswordsController],
  providers: [PasswordChangeService],
})
export class PasswordsModule {}
