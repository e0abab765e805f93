import { Module } from '@nestjs/common';
import { AccountsModule } from './accounts/accounts.module';
import { BackgroundTasks } from './common/background-tasks';
import { EmailChangeController } from './email-verification/email-change.controller';
import { EmailVerificationController } from './email-verification/email-verification.controller';
import { EmailVerificationService } from './email-verification/email-verification.service';
import { MagicLinksController } from './magic-links/magic-links.controller';
import { MagicLinksService } from './magic-links/magic-links.service';
import { PasswordResetController } from './password-reset/password-reset.controller';
import { PasswordResetService } from './password-reset/password-reset.service';

/** Email verification, password reset and magic links: the flows that go through the mail queue. */
@Module({
  imports: [AccountsModule],
  controllers: [EmailVerificationController, EmailChangeController, PasswordResetController, MagicLinksController],
  providers: [BackgroundTasks, EmailVerificationService, MagicLinksService, PasswordResetService],
  exports: [BackgroundTasks],
})
export class EmailFlowsModule {}
