import { ApiProperty } from '@nestjs/swagger';
import type { ApiKey } from '@gatehouse/entities';
import { PaginationResponse } from '@gatehouse/http';

/** API key resource; the secret appears only in the create response (docs/api-contract.md §6). */
export class ApiKeyResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({
    description: 'The first 11 characters of the secret, to tell keys apart',
    example: 'sk_Q2x9LmPa',
  })
  key_prefix!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_used_at!: string | null;
}

/** `POST /v1/admin/projects/{id}/api-keys` (201). */
export class ApiKeyCreatedResponse extends ApiKeyResponse {
  @ApiProperty({ description: 'The `sk_…` secret, shown this once only' }) secret!: string;
}

/** `GET /v1/admin/projects/{id}/api-keys`. */
export class ApiKeyListResponse {
  @ApiProperty({ type: [ApiKeyResponse] }) api_keys!: ApiKeyResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}

export function toApiKeyResponse(k: ApiKey): ApiKeyResponse {
  return {
    id: k.id,
    project_id: k.projectId,
    name: k.name,
    key_prefix: k.keyPrefix,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt ? k.lastUsedAt.toISOString() : null,
  };
}
