import { Module } from '@nestjs/common';
import { UsersRepository } from '@gatehouse/identity';
import { AdminGuard } from '../auth/admin.guard';
import { OrganizationMembersModule } from '../organization-members/organization-members.module';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

@Module({
  imports: [OrganizationMembersModule],
  controllers: [UsersController],
  providers: [AdminGuard, UsersRepository, UsersService],
})
export class UsersModule {}
