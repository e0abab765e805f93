import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  MAX_ACCESS_TOKEN_TTL_SECONDS,
  MIN_ACCESS_TOKEN_TTL_SECONDS,
  TOKEN_CLAIMS_MAX,
  tokenClaimsProblems,
} from '@gatehouse/identity';
import { ruleDecorator } from '../../common/rule-decorator';
import { IsRedirectUrl } from '../url-rules';
import { OAuthProvidersDto } from './oauth-providers.dto';
import { OidcSettingsDto } from './oidc-settings.dto';
import { PasswordMigrationSettingsDto } from './password-migration-settings.dto';
import { SmsSettingsDto } from './sms-settings.dto';

const HOSTNAME =
  /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * `settings` of a project. A PATCH merges at the top level (given keys replace theirs, docs/api-contract.md §10);
 * a key set to null goes back to its default (is removed). Unknown keys are refused.
 */
/** `settings.organizations`. */
export class ProjectOrganizationsSettingsDto {
  @ApiPropertyOptional({
    default: false,
    description: 'Whether signed-in users may create organizations (POST /v1/auth/organizations)',
  })
  @IsOptional()
  @IsBoolean()
  allow_user_create?: boolean;
}

export class ProjectSettingsDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'https://app.example.com/callback',
  })
  @IsOptional()
  @IsRedirectUrl()
  default_redirect_url?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'WebAuthn relying party id (a host name)',
    example: 'app.example.com',
  })
  @IsOptional()
  @IsString()
  @Matches(HOSTNAME, { message: 'must be a lower-case host name such as app.example.com' })
  rp_id?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  rp_name?: string | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true })
  @IsOptional()
  @IsBoolean()
  require_email_verification?: boolean | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: MIN_ACCESS_TOKEN_TTL_SECONDS,
    maximum: MAX_ACCESS_TOKEN_TTL_SECONDS,
    default: DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  })
  @IsOptional()
  @IsInt()
  @Min(MIN_ACCESS_TOKEN_TTL_SECONDS)
  @Max(MAX_ACCESS_TOKEN_TTL_SECONDS)
  access_token_ttl_seconds?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 30,
    maximum: 86400,
    default: 600,
    description: 'How recent a proof of identity (auth_time) sensitive self-service actions need',
  })
  @IsOptional()
  @IsInt()
  @Min(30)
  @Max(86400)
  reauthentication_max_age_seconds?: number | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Page the verification mail links to (default: default_redirect_url)',
  })
  @IsOptional()
  @IsRedirectUrl()
  email_verification_url?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Page the reset mail links to (default: default_redirect_url)',
  })
  @IsOptional()
  @IsRedirectUrl()
  password_reset_url?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Page the invitation mail links to (default: default_redirect_url)',
  })
  @IsOptional()
  @IsRedirectUrl()
  invitation_url?: string | null;

  @ApiPropertyOptional({
    type: SmsSettingsDto,
    nullable: true,
    description: 'Hourly SMS budget and allowed countries; omitted members take their defaults',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => SmsSettingsDto)
  sms?: SmsSettingsDto | null;

  @ApiPropertyOptional({
    type: OidcSettingsDto,
    nullable: true,
    description:
      "The project's OpenID Connect provider; omitted members take their defaults, null resets it (off)",
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => OidcSettingsDto)
  oidc?: OidcSettingsDto | null;

  @ApiPropertyOptional({
    type: PasswordMigrationSettingsDto,
    nullable: true,
    description:
      'Lazy password migration from an old system (docs/migration.md); null turns it off and forgets the secret',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PasswordMigrationSettingsDto)
  password_migration?: PasswordMigrationSettingsDto | null;

  @ApiPropertyOptional({
    type: ProjectOrganizationsSettingsDto,
    nullable: true,
    description: 'What end users may do with organizations; replaced as a whole, null resets it',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ProjectOrganizationsSettingsDto)
  organizations?: ProjectOrganizationsSettingsDto | null;

  @ApiPropertyOptional({ type: OAuthProvidersDto, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => OAuthProvidersDto)
  oauth_providers?: OAuthProvidersDto | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    maxProperties: TOKEN_CLAIMS_MAX,
    nullable: true,
    example: { plan: '{{user.metadata.plan}}', tier: '{{org.metadata.tier}}' },
    description:
      'Custom claims of access tokens (and of the OpenID Connect ID token and UserInfo for the scope profile): claim name → template with {{user.metadata.…}}, {{org.metadata.…}} or {{user.email_verified}}; a whole {{…}} keeps its JSON type, a missing value leaves the claim out; at most 20 claims and 4 KiB rendered; registered and Gatehouse claim names are refused',
  })
  @IsOptional()
  @ruleDecorator('tokenClaims', (v) => tokenClaimsProblems(v).join('; ') || null)
  token_claims?: Record<string, string> | null;
}
