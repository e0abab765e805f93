import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SignInModule } from '../sign-in/sign-in.module';
import { UsersModule } from '../users/users.module';
import { PasskeyChallenges } from './passkey-challenges.service';
import { PasskeysController } from './passkeys.controller';
import { PasskeysService } from './passkeys.service';

/** Passkeys (WebAuthn): registration, sign-in with or without an email, list and removal. */
@Module({
  imports: [CredentialsModule, SessionsModule, SignInModule, UsersModule],
  controllers: [PasskeysController],
  providers: [PasskeysService, PasskeyChallenges],
  exports: [PasskeysService],
})
export class PasskeysModule {}
