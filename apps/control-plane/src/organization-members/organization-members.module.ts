import { Module } from '@nestjs/common';
import { AdminGuard } from '../auth/admin.guard';
import { OrganizationsModule } from '../organizations/organizations.module';
import { OrganizationMembersController } from './organization-members.controller';
import { OrganizationMembersRepository, ProjectRolesRepository } from '@gatehouse/organizations';
import { OrganizationMembersService } from './organization-members.service';

@Module({
  imports: [OrganizationsModule],
  controllers: [OrganizationMembersController],
  providers: [
    AdminGuard,
    OrganizationMembersRepository,
    ProjectRolesRepository,
    OrganizationMembersService,
  ],
  exports: [OrganizationMembersRepository, ProjectRolesRepository],
})
export class OrganizationMembersModule {}
