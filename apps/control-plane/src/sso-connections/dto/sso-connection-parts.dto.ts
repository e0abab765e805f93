import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { ROLE_KEY } from '@gatehouse/organizations';
import { ruleDecorator } from '../../common/rule-decorator';
import { IsRoleKey } from '../../roles/dto/role-rules';

/** A member that may be left out, but not sent as null. */
export const Given = () => ValidateIf((_, v) => v !== undefined);

const ATTRIBUTE = /^[\x21-\x7e]{1,256}$/;
export const MAX_GROUP_ROLES = 100;

/** Just-in-time provisioning: a user the connection does not know yet is created, and joins with this role. */
export class SsoJitDto {
  @ApiPropertyOptional({ default: true })
  @Given()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ default: 'member', pattern: ROLE_KEY.source })
  @Given()
  @IsRoleKey()
  default_role?: string;
}

/** Which asserted attribute (SAML) or claim (OIDC) gives each user field; left out, the usual names are read. */
export class SsoAttributeMappingDto {
  @ApiPropertyOptional({ example: 'email', maxLength: 256 })
  @Given()
  @IsString()
  @Matches(ATTRIBUTE, { message: 'must be an attribute name: 1-256 visible ASCII characters' })
  email?: string;

  @ApiPropertyOptional({ example: 'given_name', maxLength: 256 })
  @Given()
  @IsString()
  @Matches(ATTRIBUTE, { message: 'must be an attribute name: 1-256 visible ASCII characters' })
  given_name?: string;

  @ApiPropertyOptional({ example: 'family_name', maxLength: 256 })
  @Given()
  @IsString()
  @Matches(ATTRIBUTE, { message: 'must be an attribute name: 1-256 visible ASCII characters' })
  family_name?: string;

  @ApiPropertyOptional({ example: 'groups', maxLength: 256 })
  @Given()
  @IsString()
  @Matches(ATTRIBUTE, { message: 'must be an attribute name: 1-256 visible ASCII characters' })
  groups?: string;
}

/** A SAML identity provider: its metadata (XML, or a URL to fetch it from), and whether it may start a sign-in. */
export class SamlConnectionDto {
  @ApiPropertyOptional({
    maxLength: 262144,
    description:
      "The IdP's metadata (EntityDescriptor): its entity id, HTTP-Redirect SSO URL and signing certificates are read from it",
  })
  @Given()
  @IsString()
  @MaxLength(262144)
  idp_metadata_xml?: string;

  @ApiPropertyOptional({
    maxLength: 2048,
    description:
      'Where to fetch the metadata from instead (http or https; an address OAUTH_ALLOW_PRIVATE_URLS refuses is refused)',
  })
  @Given()
  @IsString()
  @MaxLength(2048)
  idp_metadata_url?: string;

  @ApiPropertyOptional({
    default: false,
    description: 'Accept responses the IdP sends unasked (no InResponseTo)',
  })
  @Given()
  @IsBoolean()
  allow_idp_initiated?: boolean;
}

/** An OpenID Connect identity provider: its issuer and this service's client there. */
export class OidcConnectionDto {
  @ApiPropertyOptional({
    example: 'https://acme.okta.com',
    maxLength: 2048,
    description: 'Its discovery document is at {issuer}/.well-known/openid-configuration',
  })
  @Given()
  @IsString()
  @MaxLength(2048)
  issuer?: string;

  @ApiPropertyOptional({ maxLength: 512 })
  @Given()
  @IsString()
  @Length(1, 512)
  client_id?: string;

  @ApiPropertyOptional({ maxLength: 2048, description: 'Write-only: stored sealed, never shown' })
  @Given()
  @IsString()
  @Length(1, 2048)
  client_secret?: string;

  @ApiPropertyOptional({
    type: [String],
    default: ['openid', 'email', 'profile'],
    description: 'Asked for at sign-in; openid is always among them',
  })
  @Given()
  @IsArray()
  @ArrayMaxSize(20)
  @ArrayUnique()
  @IsString({ each: true })
  @Matches(/^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/, {
    each: true,
    message: 'each item must be a scope',
  })
  scopes?: string[];
}

/** `group_roles`: IdP group → role key of the project. */
export const IsGroupRoles = () =>
  ruleDecorator('groupRoles', (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'must be an object';
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length > MAX_GROUP_ROLES) return `must have at most ${MAX_GROUP_ROLES} groups`;
    for (const [group, role] of entries) {
      if (!group.length || group.length > 256) return 'each group must be 1-256 characters';
      if (typeof role !== 'string' || !ROLE_KEY.test(role))
        return `the role of "${group.slice(0, 40)}" must be a role key`;
    }
    return null;
  });
