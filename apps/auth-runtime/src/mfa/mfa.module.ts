import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { OneTimeTokensModule } from '../one-time-tokens/one-time-tokens.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SignInModule } from '../sign-in/sign-in.module';
import { UsersModule } from '../users/users.module';
import { MfaChallengeService } from './mfa-challenge.service';
import { MfaEnrollmentService } from './mfa-enrollment.service';
import { MfaController } from './mfa.controller';

/** TOTP with backup codes, SMS, and the sign-in challenge. */
@Module({
  imports: [CredentialsModule, OneTimeTokensModule, SessionsModule, SignInModule, UsersModule],
  controllers: [MfaController],
  providers: [MfaChallengeService, MfaEnrollmentService],
  exports: [MfaChallengeService],
})
export class MfaModule {}
