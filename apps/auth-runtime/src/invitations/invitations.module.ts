import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { InvitationsController } from './invitations.controller';
import { InvitationsRepository, OrganizationMembersRepository } from '@gatehouse/organizations';
import { InvitationsService } from './invitations.service';

/** `POST /v1/auth/invitations/accept`. */
@Module({
  imports: [UsersModule],
  controllers: [InvitationsController],
  providers: [InvitationsRepository, InvitationsService, OrganizationMembersRepository],
})
export class InvitationsModule {}
