import { Module } from '@nestjs/common';
import { OrganizationInvitations } from '@gatehouse/identity';
import {
  InvitationsRepository,
  OrganizationDomainsRepository,
  OrganizationMembersRepository,
  OrganizationsRepository,
  ProjectRolesRepository,
} from '@gatehouse/organizations';
import { OrganizationAdminService } from './organization-admin.service';
import { CredentialsModule } from '../credentials/credentials.module';
import { SessionsModule } from '../sessions/sessions.module';
import { OrganizationsController } from './organizations.controller';
import { OrganizationsService } from './organizations.service';
import { OrganizationSuggestionsService } from './organization-suggestions.service';

/** `/v1/auth/organizations`: the signed-in user's organizations and the session's active one. */
@Module({
  imports: [CredentialsModule, SessionsModule],
  controllers: [OrganizationsController],
  providers: [
    InvitationsRepository,
    OrganizationInvitations,
    OrganizationDomainsRepository,
    OrganizationMembersRepository,
    OrganizationsRepository,
    ProjectRolesRepository,
    OrganizationAdminService,
    OrganizationSuggestionsService,
    OrganizationsService,
  ],
})
export class OrganizationsModule {}
