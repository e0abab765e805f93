import { ApiProperty } from '@nestjs/swagger';
import type { MemberRole } from '@gatehouse/entities';

class InvitingOrganization {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
}

/** `POST /v1/auth/invitations/accept`: the membership the invitation gave. */
export class InvitationAcceptedResponse {
  @ApiProperty({ type: InvitingOrganization }) organization!: InvitingOrganization;
  @ApiProperty({
    type: String,
    example: 'member',
    description:
      "The resulting role key: an existing member keeps their role unless the invitation's is admin",
  })
  role!: MemberRole;
}
