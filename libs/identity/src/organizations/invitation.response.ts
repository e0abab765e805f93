import { ApiProperty } from '@nestjs/swagger';
import type { Invitation, InvitationStatus, MemberRole } from '@gatehouse/entities';

type ShownInvitationStatus = InvitationStatus | 'expired';

/** Invitation resource; a pending invitation past `expires_at` shows as `expired`. The token is never shown. */
export class InvitationResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) organization_id!: string;
  @ApiProperty() email!: string;
  @ApiProperty({
    type: String,
    example: 'member',
    description: "A role key of the organization's project",
  })
  role!: MemberRole;
  @ApiProperty({
    enum: ['pending', 'accepted', 'revoked', 'expired'] satisfies ShownInvitationStatus[],
  })
  status!: ShownInvitationStatus;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The inviting admin; null once that user is deleted',
  })
  invited_by!: string | null;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) accepted_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revoked_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export function toInvitationResponse(i: Invitation, nowMs: number): InvitationResponse {
  return {
    id: i.id,
    organization_id: i.organizationId,
    email: i.email,
    role: i.role,
    status: i.status === 'pending' && i.expiresAt.getTime() <= nowMs ? 'expired' : i.status,
    invited_by: i.invitedBy,
    expires_at: i.expiresAt.toISOString(),
    accepted_at: i.acceptedAt ? i.acceptedAt.toISOString() : null,
    revoked_at: i.revokedAt ? i.revokedAt.toISOString() : null,
    created_at: i.createdAt.toISOString(),
  };
}
