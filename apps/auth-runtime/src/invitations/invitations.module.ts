import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { OrganizationMembersRepository } from '../organizations/organization-members.repository';
import { InvitationsController } from './invitations.controller';
import { InvitationsRepository } from './invitations.repository';
import { InvitationsService } from './invitations.service';

/** `POST /v1/auth/invitations/accept`; guards and users come from AccountsModule. */
@Module({
  imports: [AccountsModule],
  controllers: [InvitationsController],
  providers: [InvitationsRepository, InvitationsService, OrganizationMembersRepository],
})
export class InvitationsModule {}
