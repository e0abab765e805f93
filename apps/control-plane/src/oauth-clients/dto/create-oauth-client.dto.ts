import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, ValidateIf } from 'class-validator';
import {
  ID_TOKEN_SIGNING_ALGS,
  OAUTH_CLIENT_AUTH_METHODS,
  OAUTH_CLIENT_MAX_LIST,
  OAUTH_CLIENT_SCOPES,
  OAUTH_GRANT_TYPES,
} from '@gatehouse/identity';
import { IsRedirectUrlList } from '../../projects/url-rules';
import { IsNonBlank, IsListOf } from '../../common/dto-rules';

const present = (_: object, v: unknown) => v !== undefined;

/**
 * `POST /v1/admin/projects/{id}/oauth-clients` (docs/api-contract.md §11): the members of a client
 * of the project's OpenID Connect provider. Omitted members take their defaults; `null` is refused.
 * The rules between members (a public client and `client_credentials`, `refresh_token` without
 * `authorization_code`, a code client without redirect URI) are judged by the service.
 */
export class CreateOAuthClientDto {
  @ApiProperty({ example: 'Grafana', minLength: 1, maxLength: 100 })
  @IsNonBlank(100)
  name!: string;

  @ApiProperty({
    type: [String],
    maxItems: OAUTH_CLIENT_MAX_LIST,
    example: ['https://grafana.example.com/login/generic_oauth'],
    description:
      'Exact redirect URIs (absolute https, or http for loopback; no wildcard, no fragment); at least one for the authorization_code grant',
  })
  @IsRedirectUrlList(undefined, OAUTH_CLIENT_MAX_LIST)
  redirect_uris!: string[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: OAUTH_CLIENT_MAX_LIST,
    default: [],
    description: 'Where RP-initiated logout may return to; the same rules as redirect_uris',
  })
  @ValidateIf(present)
  @IsRedirectUrlList(undefined, OAUTH_CLIENT_MAX_LIST)
  post_logout_redirect_uris?: string[];

  @ApiPropertyOptional({
    enum: OAUTH_GRANT_TYPES,
    isArray: true,
    default: ['authorization_code', 'refresh_token'],
  })
  @ValidateIf(present)
  @IsListOf(OAUTH_GRANT_TYPES, OAUTH_CLIENT_MAX_LIST)
  grant_types?: string[];

  @ApiPropertyOptional({
    enum: OAUTH_CLIENT_AUTH_METHODS,
    default: 'client_secret_basic',
    description: '`none` makes a public client (PKCE, no secret); it cannot be changed later',
  })
  @ValidateIf(present)
  @IsIn(OAUTH_CLIENT_AUTH_METHODS)
  token_endpoint_auth_method?: string;

  @ApiPropertyOptional({
    enum: OAUTH_CLIENT_SCOPES,
    isArray: true,
    default: ['openid', 'profile', 'email', 'offline_access'],
  })
  @ValidateIf(present)
  @IsListOf(OAUTH_CLIENT_SCOPES, OAUTH_CLIENT_MAX_LIST)
  scopes?: string[];

  @ApiPropertyOptional({
    default: false,
    description: 'A first-party client skips the consent screen',
  })
  @ValidateIf(present)
  @IsBoolean()
  first_party?: boolean;

  @ApiPropertyOptional({
    enum: ID_TOKEN_SIGNING_ALGS,
    default: 'RS256',
    description:
      'How ID tokens are signed: RS256 unless the client asks for ES256 (OpenID Connect Dynamic Client Registration §2)',
  })
  @ValidateIf(present)
  @IsIn(ID_TOKEN_SIGNING_ALGS)
  id_token_signed_response_alg?: string;

  @ApiPropertyOptional({
    default: true,
    description:
      'PKCE on every authorization request. `false` (a confidential client only) lets an OpenID Connect request use a `nonce` instead (RFC 9700 §2.1.1)',
  })
  @ValidateIf(present)
  @IsBoolean()
  require_pkce?: boolean;

  @ApiPropertyOptional({
    default: false,
    description:
      'Authorization requests only through the pushed authorization request endpoint (RFC 9126 §6)',
  })
  @ValidateIf(present)
  @IsBoolean()
  require_pushed_authorization_requests?: boolean;
}
