import { ApiProperty } from '@nestjs/swagger';
import type { ApiResource } from '@gatehouse/entities';
import { PaginationResponse } from '@gatehouse/http';

export class ApiResourceScopeResponse {
  @ApiProperty({ example: 'mcp:tools' }) name!: string;
  @ApiProperty({ example: 'Use the tools of the MCP server' }) description!: string;
}

/** An API the project's OpenID Connect provider issues access tokens for. */
export class ApiResourceResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({
    example: 'https://mcp.example.com/mcp',
    description: 'The resource indicator, URL-normalised: the `aud` of its tokens',
  })
  identifier!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [ApiResourceScopeResponse] }) scopes!: ApiResourceScopeResponse[];
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "null: the project's access_token_ttl_seconds",
  })
  access_token_ttl_seconds!: number | null;
  @ApiProperty() allow_dynamic_clients!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** `GET /v1/admin/projects/{id}/api-resources`, newest first. */
export class ApiResourceListResponse {
  @ApiProperty({ type: [ApiResourceResponse] }) api_resources!: ApiResourceResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}

export function toApiResourceResponse(r: ApiResource): ApiResourceResponse {
  return {
    id: r.id,
    identifier: r.identifier,
    name: r.name,
    scopes: r.scopes.map((s) => ({ name: s.name, description: s.description })),
    access_token_ttl_seconds: r.accessTokenTtlSeconds,
    allow_dynamic_clients: r.allowDynamicClients,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}
