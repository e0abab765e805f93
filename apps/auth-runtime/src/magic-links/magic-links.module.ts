import { Module } from '@nestjs/common';
import { ClaimsModule } from '../claims/claims.module';
import { CommonModule } from '../common/common.module';
import { OneTimeTokensModule } from '../one-time-tokens/one-time-tokens.module';
import { SignInModule } from '../sign-in/sign-in.module';
import { UsersModule } from '../users/users.module';
import { MagicLinksController } from './magic-links.controller';
import { MagicLinksService } from './magic-links.service';

/** Magic-link sign-in (docs/api-contract.md §5). */
@Module({
  imports: [ClaimsModule, CommonModule, OneTimeTokensModule, SignInModule, UsersModule],
  controllers: [MagicLinksController],
  providers: [MagicLinksService],
})
export class MagicLinksModule {}
