import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { PasskeyChallenges } from './passkey-challenges.service';
import { PasskeysController } from './passkeys.controller';
import { PasskeysService } from './passkeys.service';

/** Passkeys (WebAuthn): registration, sign-in with or without an email, list and removal. */
@Module({
  imports: [AccountsModule],
  controllers: [PasskeysController],
  providers: [PasskeysService, PasskeyChallenges],
  exports: [PasskeysService],
})
export class PasskeysModule {}
