import { ApiProperty } from '@nestjs/swagger';

class MeUser {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() email!: string;
  @ApiProperty() is_admin!: boolean;
}

class MeOrganization {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['admin', 'member'] }) role!: string;
}

/** `GET /v1/auth/me` with a valid session (SERVICE-SPEC, current-user result). */
export class MeResponse {
  @ApiProperty({ type: MeUser }) user!: MeUser;
  @ApiProperty({ type: 'integer', description: "The user's sessions that are neither revoked nor expired" }) active_sessions!: number;
  @ApiProperty({ type: [MeOrganization], description: 'By name' }) organizations!: MeOrganization[];
}

/**
 * `GET /v1/auth/me` without a valid session (or project key): `{user: null}`, nothing else. The
 * member is `type: null` (JSON Schema): OpenAPI 3.0's `nullable` + `enum: [null]` reads the same but
 * doubles the null for JSON Schema validators (the e2e conformance check among them).
 */
export class NoCurrentUserResponse {
  @ApiProperty({ type: 'null', description: 'Always null' }) user!: null;
}
