import { ApiProperty } from '@nestjs/swagger';
import { InvitationResponse } from '@gatehouse/identity';
import { PaginationResponse } from '@gatehouse/http';

/** `GET /v1/admin/organizations/{id}/invitations`, newest first. */
export class InvitationListResponse {
  @ApiProperty({ type: [InvitationResponse] }) invitations!: InvitationResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}
