import { Module } from '@nestjs/common';
import { OrganizationDomainsRepository, ProjectRolesRepository } from '@gatehouse/organizations';
import { AdminGuard } from '../auth/admin.guard';
import { OrganizationsModule } from '../organizations/organizations.module';
import { DnsTxtLookup } from './dns-txt';
import { OrganizationDomainsController } from './organization-domains.controller';
import { OrganizationDomainsService } from './organization-domains.service';

/** `/v1/admin/organizations/{id}/domains`: an organization's domains, their verification and enrollment. */
@Module({
  imports: [OrganizationsModule],
  controllers: [OrganizationDomainsController],
  providers: [
    AdminGuard,
    DnsTxtLookup,
    OrganizationDomainsRepository,
    ProjectRolesRepository,
    OrganizationDomainsService,
  ],
})
export class OrganizationDomainsModule {}
