import { Module } from '@nestjs/common';
import {
  OrganizationDomainsRepository,
  ProjectRolesRepository,
  SsoConnectionsRepository,
} from '@gatehouse/organizations';
import { AdminGuard } from '../auth/admin.guard';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SsoConnectionsController } from './sso-connections.controller';
import { SsoConnectionsService } from './sso-connections.service';

/** `/v1/admin/organizations/{id}/sso-connections`: an organization's enterprise SSO connections. */
@Module({
  imports: [OrganizationsModule],
  controllers: [SsoConnectionsController],
  providers: [
    AdminGuard,
    OrganizationDomainsRepository,
    ProjectRolesRepository,
    SsoConnectionsRepository,
    SsoConnectionsService,
  ],
})
export class SsoConnectionsModule {}
