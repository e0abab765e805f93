import { ApiProperty } from '@nestjs/swagger';
import type { SigningKey, SigningKeyAlgorithm, SigningKeyStatus } from '@gatehouse/entities';
import { publicJwkMembers } from '@gatehouse/crypto';
import { PublicJwkResponse } from '@gatehouse/identity';
import { PaginationResponse } from '@gatehouse/http';

/**
 * Signing key resource (docs/api-contract.md §6). A `retiring` key whose `retire_after` has passed no longer
 * verifies anything and is shown as `retired` (the row itself is updated at the next rotation).
 */
export class SigningKeyResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: ['ES256', 'RS256'] satisfies SigningKeyAlgorithm[] })
  algorithm!: SigningKeyAlgorithm;
  @ApiProperty({ enum: ['active', 'retiring', 'retired', 'revoked'] satisfies SigningKeyStatus[] })
  status!: SigningKeyStatus;
  @ApiProperty({ type: PublicJwkResponse }) public_jwk!: PublicJwkResponse;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

/** `GET /v1/admin/projects/{id}/signing-keys`, newest first. */
export class SigningKeyListResponse {
  @ApiProperty({ type: [SigningKeyResponse] }) signing_keys!: SigningKeyResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}

export function toSigningKeyResponse(k: SigningKey, nowMs: number): SigningKeyResponse {
  const status: SigningKeyStatus =
    k.status === 'retiring' && (!k.retireAfter || k.retireAfter.getTime() <= nowMs)
      ? 'retired'
      : k.status;
  return {
    id: k.id,
    algorithm: k.algorithm,
    status,
    // The JWK stored with the key (jsonb) is the one `generateSigningKey` made; only its public members go out.
    public_jwk: publicJwkMembers(k.publicJwk) as unknown as PublicJwkResponse,
    created_at: k.createdAt.toISOString(),
  };
}
