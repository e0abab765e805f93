import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { MfaChallengeService } from './mfa-challenge.service';
import { MfaEnrollmentService } from './mfa-enrollment.service';
import { MfaController } from './mfa.controller';

/** TOTP with backup codes, SMS, and the sign-in challenge. */
@Module({
  imports: [AccountsModule],
  controllers: [MfaController],
  providers: [MfaChallengeService, MfaEnrollmentService],
  exports: [MfaChallengeService],
})
export class MfaModule {}
