import { Module } from '@nestjs/common';
import {
  InvitationsRepository,
  OrganizationDomainsRepository,
  OrganizationMembersRepository,
  ProjectPermissionsRepository,
  ProjectRolesRepository,
  SsoConnectionsRepository,
} from '@gatehouse/organizations';
import { AdminGuard } from '../auth/admin.guard';
import { PermissionsController } from './permissions.controller';
import { PermissionsService } from './permissions.service';
import { RolesController } from './roles.controller';
import { RolesService } from './roles.service';

@Module({
  controllers: [RolesController, PermissionsController],
  providers: [
    AdminGuard,
    InvitationsRepository,
    OrganizationDomainsRepository,
    OrganizationMembersRepository,
    ProjectPermissionsRepository,
    ProjectRolesRepository,
    SsoConnectionsRepository,
    PermissionsService,
    RolesService,
  ],
  exports: [ProjectRolesRepository],
})
export class RolesModule {}
