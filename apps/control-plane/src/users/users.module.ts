import { Module } from '@nestjs/common';
import {
  MfaFactorsRepository,
  OneTimeTokensRepository,
  PasskeysRepository,
  PasswordPolicy,
  UsersRepository,
} from '@gatehouse/identity';
import { AdminGuard } from '../auth/admin.guard';
import { OrganizationMembersModule } from '../organization-members/organization-members.module';
import { UserFactors } from './user-factors';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

@Module({
  imports: [OrganizationMembersModule],
  controllers: [UsersController],
  providers: [
    AdminGuard,
    UsersRepository,
    UsersService,
    OneTimeTokensRepository,
    PasswordPolicy,
    UserFactors,
    MfaFactorsRepository,
    PasskeysRepository,
  ],
})
export class UsersModule {}
