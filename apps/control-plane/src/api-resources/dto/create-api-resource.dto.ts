import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, Max, Min, ValidateIf } from 'class-validator';
import {
  API_RESOURCE_MAX_SCOPES,
  MAX_ACCESS_TOKEN_TTL_SECONDS,
  MIN_ACCESS_TOKEN_TTL_SECONDS,
} from '@gatehouse/identity';
import { IsApiResourceIdentifier, IsScopeList, SCOPE_DESCRIPTION_MAX } from './api-resource-rules';
import { IsNonBlank } from '../../common/dto-rules';

const present = (_: object, v: unknown) => v !== undefined;

/** One scope of an API resource: its name in the `scope` parameter and the words the consent screen shows. */
export class ApiResourceScopeDto {
  @ApiProperty({
    example: 'mcp:tools',
    minLength: 1,
    maxLength: 100,
    description: 'A scope token (RFC 6749 §3.3), not one of openid, profile, email, offline_access',
  })
  name!: string;

  @ApiPropertyOptional({
    example: 'Use the tools of the MCP server',
    maxLength: SCOPE_DESCRIPTION_MAX,
    default: '',
  })
  description?: string;
}

/**
 * `POST /v1/admin/projects/{id}/api-resources`: an API the project's OpenID Connect provider
 * issues RFC 9068 JWT access tokens for (`aud` = `identifier`).
 */
export class CreateApiResourceDto {
  @ApiProperty({
    example: 'https://mcp.example.com/mcp',
    description:
      'The RFC 8707 resource indicator: an absolute https URL (plain http only on localhost or loopback), no query or fragment; stored URL-normalised; unique in the project',
  })
  @IsApiResourceIdentifier()
  identifier!: string;

  @ApiProperty({ example: 'MCP server', minLength: 1, maxLength: 100 })
  @IsNonBlank(100)
  name!: string;

  @ApiProperty({
    type: [ApiResourceScopeDto],
    maxItems: API_RESOURCE_MAX_SCOPES,
    description: 'The scopes a token for this API may carry',
  })
  @IsScopeList()
  scopes!: ApiResourceScopeDto[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_ACCESS_TOKEN_TTL_SECONDS,
    maximum: MAX_ACCESS_TOKEN_TTL_SECONDS,
    nullable: true,
    description:
      "Lifetime of its access tokens; null or absent: the project's access_token_ttl_seconds",
  })
  @ValidateIf((_: object, v: unknown) => v !== undefined && v !== null)
  @IsInt()
  @Min(MIN_ACCESS_TOKEN_TTL_SECONDS)
  @Max(MAX_ACCESS_TOKEN_TTL_SECONDS)
  access_token_ttl_seconds?: number | null;

  @ApiPropertyOptional({
    default: false,
    description:
      'Whether self-registered clients (RFC 7591) may get tokens for it, after the user consents',
  })
  @ValidateIf(present)
  @IsBoolean()
  allow_dynamic_clients?: boolean;
}
