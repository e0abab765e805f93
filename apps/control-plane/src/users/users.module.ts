import { Module } from '@nestjs/common';
import { OneTimeTokensRepository, PasswordPolicy, UsersRepository } from '@gatehouse/identity';
import { AdminGuard } from '../auth/admin.guard';
import { OrganizationMembersModule } from '../organization-members/organization-members.module';
import { UserFactorsRepository } from './user-factors.repository';
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
    UserFactorsRepository,
  ],
})
export class UsersModule {}
