import { Module } from '@nestjs/common';
import { AdminGuard } from '../auth/admin.guard';
import { OrganizationMembersModule } from '../organization-members/organization-members.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { InvitationsController } from './invitations.controller';
import { OrganizationInvitations } from '@gatehouse/identity';
import { InvitationsRepository } from '@gatehouse/organizations';
import { InvitationsService } from './invitations.service';

@Module({
  imports: [OrganizationsModule, OrganizationMembersModule],
  controllers: [InvitationsController],
  providers: [AdminGuard, InvitationsRepository, InvitationsService, OrganizationInvitations],
})
export class InvitationsModule {}
