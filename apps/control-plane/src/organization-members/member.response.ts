import { ApiProperty } from '@nestjs/swagger';
import type { MemberRole } from '@gatehouse/entities';
import type { MemberRow } from '@gatehouse/organizations';
import { PaginationResponse } from '@gatehouse/http';

/** Organization member resource: the user's id and email with the role. */
export class MemberResponse {
  @ApiProperty({ format: 'uuid' }) organization_id!: string;
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ type: String, nullable: true }) username!: string | null;
  @ApiProperty({
    type: String,
    example: 'member',
    description: "A role key of the organization's project",
  })
  role!: MemberRole;
  @ApiProperty({ format: 'date-time', description: 'When the user joined' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** `GET /v1/admin/organizations/{id}/members`. */
export class MemberListResponse {
  @ApiProperty({ type: [MemberResponse] }) members!: MemberResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}

export function toMemberResponse(m: MemberRow): MemberResponse {
  return {
    organization_id: m.organization_id,
    user_id: m.user_id,
    email: m.email,
    username: m.username,
    role: m.role,
    created_at: new Date(m.created_at).toISOString(),
    updated_at: new Date(m.updated_at).toISOString(),
  };
}
