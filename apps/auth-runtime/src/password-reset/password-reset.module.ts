import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { ClaimsModule } from '../claims/claims.module';
import { CommonModule } from '../common/common.module';
import { OneTimeTokensModule } from '../one-time-tokens/one-time-tokens.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { PasswordResetController } from './password-reset.controller';
import { PasswordResetService } from './password-reset.service';

/** Forgot, validate and reset (docs/api-contract.md §5). */
@Module({
  imports: [
    AccountsModule,
    ClaimsModule,
    CommonModule,
    OneTimeTokensModule,
    SessionsModule,
    UsersModule,
  ],
  controllers: [PasswordResetController],
  providers: [PasswordResetService],
})
export class PasswordResetModule {}
