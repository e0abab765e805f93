import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';

class MeUser {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() email!: string;
  @ApiProperty() is_admin!: boolean;
  @ApiProperty({
    enum: ['totp', 'sms', 'passkey', 'backup_code'],
    isArray: true,
    description:
      'Enabled second factors (backup_code while unused codes remain beside a factor), in this order',
  })
  mfa_factors!: string[];
}

/** The admin acting as the user in an impersonated session (docs/api-contract.md §13). */
class MeImpersonator {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() email!: string;
}

class MeOrganization {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'member', description: 'A role key of the project' }) role!: string;
}

/** The session's active organization (docs/api-contract.md §14): the user's role and permissions there. */
export interface ActiveOrganization {
  id: string;
  name: string;
  slug: string;
  role: string;
  permissions: string[];
}

/** Inline, not a $ref: OpenAPI 3.0 cannot make a referenced object nullable. */
const ACTIVE_ORGANIZATION_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  required: ['id', 'name', 'slug', 'role', 'permissions'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    slug: { type: 'string' },
    role: { type: 'string', example: 'member', description: 'A role key of the project' },
    permissions: { type: 'array', items: { type: 'string' }, example: ['invoices:read'] },
  },
};

/** `GET /v1/auth/me` with a valid session (docs/api-contract.md §10). */
export class MeResponse {
  @ApiProperty({ type: MeUser }) user!: MeUser;
  @ApiProperty({
    type: 'integer',
    description: "The user's sessions that are neither revoked nor expired",
  })
  active_sessions!: number;
  @ApiProperty({ type: [MeOrganization], description: 'By name' }) organizations!: MeOrganization[];
  @ApiProperty({
    ...ACTIVE_ORGANIZATION_SCHEMA,
    description:
      'The organization the session made active (POST /v1/auth/organizations/active), while the user is a member; else null',
  })
  active_organization!: ActiveOrganization | null;
  @ApiPropertyOptional({
    type: MeImpersonator,
    description: 'Only in an impersonated session: the admin acting as the user',
  })
  impersonator?: MeImpersonator;
}

/**
 * `GET /v1/auth/me` without a valid session (or project key): `{user: null}`, nothing else
 * (OpenAPI 3.0 spells a member that is always null `nullable` with `enum: [null]`).
 */
export class NoCurrentUserResponse {
  @ApiProperty({ type: String, nullable: true, enum: [null], description: 'Always null' })
  user!: null;
}
