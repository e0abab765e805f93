import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import {
  Given,
  IsGroupRoles,
  OidcConnectionDto,
  SamlConnectionDto,
  SsoAttributeMappingDto,
  SsoJitDto,
} from './sso-connection-parts.dto';

export const MAX_CONNECTION_DOMAINS = 50;

/** `POST /v1/admin/organizations/{id}/sso-connections` (docs/api-contract.md §15). */
export class CreateSsoConnectionDto {
  @ApiProperty({ enum: ['saml', 'oidc'] })
  @IsIn(['saml', 'oidc'])
  type!: 'saml' | 'oidc';

  @ApiProperty({ example: 'Acme Okta', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'must not be blank' })
  name!: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['acme.com'],
    description: 'Verified domains of the organization whose people sign in through it',
  })
  @Given()
  @IsArray()
  @ArrayMaxSize(MAX_CONNECTION_DOMAINS)
  @IsString({ each: true })
  @MaxLength(253, { each: true })
  domains?: string[];

  @ApiPropertyOptional({ default: true })
  @Given()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    default: false,
    description:
      "People at the connection's domains may sign in only through it (403 sso-required elsewhere)",
  })
  @Given()
  @IsBoolean()
  enforce?: boolean;

  @ApiPropertyOptional({ type: SsoJitDto })
  @Given()
  @IsObject()
  @ValidateNested()
  @Type(() => SsoJitDto)
  jit?: SsoJitDto;

  @ApiPropertyOptional({ type: SsoAttributeMappingDto })
  @Given()
  @IsObject()
  @ValidateNested()
  @Type(() => SsoAttributeMappingDto)
  attribute_mapping?: SsoAttributeMappingDto;

  @ApiPropertyOptional({ type: SamlConnectionDto, description: 'With type saml: required' })
  @Given()
  @IsObject()
  @ValidateNested()
  @Type(() => SamlConnectionDto)
  saml?: SamlConnectionDto;

  @ApiPropertyOptional({ type: OidcConnectionDto, description: 'With type oidc: required' })
  @Given()
  @IsObject()
  @ValidateNested()
  @Type(() => OidcConnectionDto)
  oidc?: OidcConnectionDto;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { 'acme-admins': 'admin', billing: 'billing' },
    description:
      'IdP group → role key of the project; at each sign-in the member gets the role of their first mapped group, else jit.default_role',
  })
  @Given()
  @IsGroupRoles()
  group_roles?: Record<string, string>;
}
