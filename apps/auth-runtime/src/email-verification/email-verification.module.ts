import { Module } from '@nestjs/common';
import { OrganizationDomainsRepository } from '@gatehouse/organizations';
import { OneTimeTokensModule } from '../one-time-tokens/one-time-tokens.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { EmailChangeController } from './email-change.controller';
import { EmailVerificationController } from './email-verification.controller';
import { EmailVerificationService } from './email-verification.service';

/** Proving an email address: verifying the account's own, and changing it to a new one. */
@Module({
  imports: [OneTimeTokensModule, SessionsModule, UsersModule],
  controllers: [EmailVerificationController, EmailChangeController],
  providers: [OrganizationDomainsRepository, EmailVerificationService],
})
export class EmailVerificationModule {}
