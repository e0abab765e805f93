import { Module } from '@nestjs/common';
import { AdminGuard } from '../auth/admin.guard';
import { OrganizationMembersModule } from '../organization-members/organization-members.module';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [OrganizationMembersModule],
  controllers: [UsersController],
  providers: [AdminGuard, UsersRepository, UsersService],
})
export class UsersModule {}
