import { ApiProperty } from '@nestjs/swagger';
import type { MemberRole, MfaFactorType, UserStatus } from '@gatehouse/entities';
import type { UserOrganizationRow } from '@gatehouse/organizations';
import type { SessionRow, UserRow } from '@gatehouse/identity';
import { PaginationResponse } from '@gatehouse/http';

const iso = (d: Date | string) => new Date(d).toISOString();

/** Admin user resource (docs/api-contract.md §10); `mfa_factors` lists the enabled factor types. */
export class UserResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty() email!: string;
  @ApiProperty() email_verified!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Lower case' }) username!:
    string | null;
  @ApiProperty({ enum: ['active', 'disabled'] satisfies UserStatus[] }) status!: UserStatus;
  @ApiProperty({ description: 'An administrator of the tenant (console)' }) is_admin!: boolean;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Free-form JSON object' })
  metadata!: Record<string, unknown>;
  @ApiProperty({
    enum: ['sms', 'totp'] satisfies MfaFactorType[],
    isArray: true,
    description: 'Enabled factors, sorted',
  })
  mfa_factors!: string[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_sign_in_at!:
    string | null;
}

/** One of the user's active sessions. */
class UserSessionResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'How the session began', example: 'password' }) auth_method!: string;
  @ApiProperty({ type: String, nullable: true }) ip_address!: string | null;
  @ApiProperty({ type: String, nullable: true }) user_agent!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) last_active_at!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The admin who opened this session by impersonation (docs/api-contract.md §13); null for the user's own",
  })
  impersonator_id!: string | null;
}

/** One of the user's organizations, with their role in it. */
class UserOrganizationResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() slug!: string;
  @ApiProperty({
    type: String,
    example: 'member',
    description: "A role key of the organization's project",
  })
  role!: MemberRole;
  @ApiProperty({ format: 'date-time' }) joined_at!: string;
}

/** `GET /v1/admin/users/{id}` and `PATCH`: the user plus flat `sessions` (active ones) and `organizations`. */
export class UserDetailResponse extends UserResponse {
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'While too many wrong passwords (for the email or username) or second-factor codes lock the account: when the lock ends; null when none holds. `PATCH {status: "active"}` unlocks',
  })
  locked_until!: string | null;
  @ApiProperty({ type: [UserSessionResponse] }) sessions!: UserSessionResponse[];
  @ApiProperty({ type: [UserOrganizationResponse] }) organizations!: UserOrganizationResponse[];
}

/** `GET /v1/admin/users`, newest first. */
export class UserListResponse {
  @ApiProperty({ type: [UserResponse] }) users!: UserResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}

export function toUserResponse(u: UserRow): UserResponse {
  return {
    id: u.id,
    project_id: u.project_id,
    email: u.email,
    email_verified: u.email_verified,
    username: u.username,
    status: u.status,
    is_admin: u.is_admin,
    metadata: u.metadata,
    mfa_factors: u.mfa_factors,
    created_at: iso(u.created_at),
    updated_at: iso(u.updated_at),
    last_sign_in_at: u.last_sign_in_at === null ? null : iso(u.last_sign_in_at),
  };
}

export function toUserDetailResponse(
  u: UserRow,
  sessions: SessionRow[],
  organizations: UserOrganizationRow[],
  lockedUntil: Date | null,
): UserDetailResponse {
  return {
    ...toUserResponse(u),
    locked_until: lockedUntil === null ? null : lockedUntil.toISOString(),
    sessions: sessions.map((s) => ({
      id: s.id,
      auth_method: s.auth_method,
      ip_address: s.ip_address,
      user_agent: s.user_agent,
      created_at: iso(s.created_at),
      last_active_at: iso(s.last_active_at),
      expires_at: iso(s.expires_at),
      impersonator_id: s.impersonator_id ?? null,
    })),
    organizations: organizations.map((o) => ({
      id: o.id,
      name: o.name,
      slug: o.slug,
      role: o.role,
      joined_at: iso(o.joined_at),
    })),
  };
}
