import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

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

/** The admin acting as the user in an impersonated session (CONTRACT §13). */
class MeImpersonator {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() email!: string;
}

class MeOrganization {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['admin', 'member'] }) role!: string;
}

/** `GET /v1/auth/me` with a valid session (docs/api-contract.md §10). */
export class MeResponse {
  @ApiProperty({ type: MeUser }) user!: MeUser;
  @ApiProperty({
    type: 'integer',
    description: "The user's sessions that are neither revoked nor expired",
  })
  active_sessions!: number;
  @ApiProperty({ type: [MeOrganization], description: 'By name' }) organizations!: MeOrganization[];
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
