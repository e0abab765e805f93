import { Module } from '@nestjs/common';
import { OrganizationMembersRepository } from '../organizations/organization-members.repository';
import { UsersModule } from '../users/users.module';
import { InvitationsController } from './invitations.controller';
import { InvitationsRepository } from './invitations.repository';
import { InvitationsService } from './invitations.service';

/** `POST /v1/auth/invitations/accept`. */
@Module({
  imports: [UsersModule],
  controllers: [InvitationsController],
  providers: [InvitationsRepository, InvitationsService, OrganizationMembersRepository],
})
export class InvitationsModule {}
