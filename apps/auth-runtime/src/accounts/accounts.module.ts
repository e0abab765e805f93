import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { SignInModule } from '../sign-in/sign-in.module';
import { UsersModule } from '../users/users.module';
import { AccountsController } from './accounts.controller';
import { AccountsService } from './accounts.service';
import { PasswordMigrationService } from './password-migration.service';
import { PasswordPolicy } from './password-policy';

/** Email and password accounts: sign-up, sign-in, `/me`, and the password rules they share. */
@Module({
  imports: [SessionsModule, SignInModule, UsersModule],
  controllers: [AccountsController],
  providers: [AccountsService, PasswordMigrationService, PasswordPolicy],
  exports: [AccountsService, PasswordPolicy],
})
export class AccountsModule {}
