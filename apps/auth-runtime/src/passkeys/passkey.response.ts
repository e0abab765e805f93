import { ApiProperty } from '@nestjs/swagger';
import type { Passkey } from '@gatehouse/entities';

/** A passkey as its owner sees it (docs/api-contract.md §10); the public key and credential id stay inside. */
export class PasskeyResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_used_at!: string | null;
  @ApiProperty({ enum: ['singleDevice', 'multiDevice'] }) device_type!: string;
  @ApiProperty() backed_up!: boolean;
}

/** `GET /v1/auth/passkeys`. */
export class PasskeyListResponse {
  @ApiProperty({ type: [PasskeyResponse] }) passkeys!: PasskeyResponse[];
}

export function toPasskeyResponse(p: Passkey): PasskeyResponse {
  return {
    id: p.id,
    name: p.name,
    created_at: p.createdAt.toISOString(),
    last_used_at: p.lastUsedAt ? p.lastUsedAt.toISOString() : null,
    device_type: p.deviceType,
    backed_up: p.backedUp,
  };
}
