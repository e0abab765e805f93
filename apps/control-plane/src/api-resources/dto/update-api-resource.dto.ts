import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, Max, Min, ValidateIf } from 'class-validator';
import {
  API_RESOURCE_MAX_SCOPES,
  MAX_ACCESS_TOKEN_TTL_SECONDS,
  MIN_ACCESS_TOKEN_TTL_SECONDS,
} from '@gatehouse/identity';
import { IsApiResourceIdentifier, IsScopeList } from './api-resource-rules';
import { ApiResourceScopeDto } from './create-api-resource.dto';
import { IsNonBlank } from '../../common/dto-rules';

const present = (_: object, v: unknown) => v !== undefined;

/** `PATCH /v1/admin/projects/{id}/api-resources/{resource_id}`: any subset of the create members, each replacing the stored one. */
export class UpdateApiResourceDto {
  @ApiPropertyOptional({ example: 'https://mcp.example.com/mcp' })
  @ValidateIf(present)
  @IsApiResourceIdentifier()
  identifier?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @ValidateIf(present)
  @IsNonBlank(100)
  name?: string;

  @ApiPropertyOptional({ type: [ApiResourceScopeDto], maxItems: API_RESOURCE_MAX_SCOPES })
  @ValidateIf(present)
  @IsScopeList()
  scopes?: ApiResourceScopeDto[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_ACCESS_TOKEN_TTL_SECONDS,
    maximum: MAX_ACCESS_TOKEN_TTL_SECONDS,
    nullable: true,
    description: "null: back to the project's access_token_ttl_seconds",
  })
  @ValidateIf((_: object, v: unknown) => v !== undefined && v !== null)
  @IsInt()
  @Min(MIN_ACCESS_TOKEN_TTL_SECONDS)
  @Max(MAX_ACCESS_TOKEN_TTL_SECONDS)
  access_token_ttl_seconds?: number | null;

  @ApiPropertyOptional()
  @ValidateIf(present)
  @IsBoolean()
  allow_dynamic_clients?: boolean;
}
