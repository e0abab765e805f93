import { ApiProperty } from '@nestjs/swagger';
import type { SessionRow } from '@gatehouse/identity';

/** One of the caller's sessions (`GET /v1/auth/sessions`). */
export class SessionResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', description: 'The last refresh, else the start' })
  last_active_at!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
  @ApiProperty({ type: String, nullable: true }) ip_address!: string | null;
  @ApiProperty({ type: String, nullable: true }) user_agent!: string | null;
  @ApiProperty({ description: 'The session of the presented access token' }) current!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The admin who opened this session by impersonation (docs/api-contract.md §13); null for your own',
  })
  impersonator_id!: string | null;
}

/** `GET /v1/auth/sessions`. */
export class SessionListResponse {
  @ApiProperty({ type: [SessionResponse] }) sessions!: SessionResponse[];
}

export function toSessionResponse(s: SessionRow, currentSessionId: string): SessionResponse {
  return {
    id: s.id,
    created_at: s.created_at.toISOString(),
    last_active_at: s.last_active_at.toISOString(),
    expires_at: s.expires_at.toISOString(),
    ip_address: s.ip_address,
    user_agent: s.user_agent,
    current: s.id === currentSessionId,
    impersonator_id: s.impersonator_id ?? null,
  };
}

/** A fresh access token of the same session (refresh, re-authentication). */
export class AccessTokenResponse {
  @ApiProperty({ description: 'An ES256 JWT (docs/api-contract.md §2)' }) access_token!: string;
  @ApiProperty({ description: 'Seconds until it expires' }) expires_in!: number;
}
