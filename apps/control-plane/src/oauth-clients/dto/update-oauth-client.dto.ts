import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  registerDecorator,
  ValidateIf,
  type ValidationOptions,
} from 'class-validator';
import {
  ID_TOKEN_SIGNING_ALGS,
  OAUTH_CLIENT_MAX_LIST,
  OAUTH_CLIENT_SCOPES,
  OAUTH_GRANT_TYPES,
} from '@gatehouse/identity';
import { IsRedirectUrlList } from '../../projects/url-rules';
import { IsNonBlank, IsListOf } from '../../common/dto-rules';

const present = (_: object, v: unknown) => v !== undefined;

/** A member a PATCH may not carry at all, with the reason as its message (kept out of the OpenAPI document). */
function Unchangeable(reason: string, options?: ValidationOptions): PropertyDecorator {
  return (object: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'unchangeable',
      target: object.constructor,
      propertyName: String(propertyName),
      options: { message: reason, ...options },
      validator: { validate: () => false },
    });
}

/**
 * `PATCH /v1/admin/projects/{id}/oauth-clients/{client_id}`: any subset of the create members,
 * each replacing the stored one, except `token_endpoint_auth_method` (switching between public and
 * confidential is a new client). The whole client is judged again after the PATCH is applied.
 */
export class UpdateOAuthClientDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @ValidateIf(present)
  @IsNonBlank(100)
  name?: string;

  @ApiPropertyOptional({ type: [String], maxItems: OAUTH_CLIENT_MAX_LIST })
  @ValidateIf(present)
  @IsRedirectUrlList(undefined, OAUTH_CLIENT_MAX_LIST)
  redirect_uris?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: OAUTH_CLIENT_MAX_LIST })
  @ValidateIf(present)
  @IsRedirectUrlList(undefined, OAUTH_CLIENT_MAX_LIST)
  post_logout_redirect_uris?: string[];

  @ApiPropertyOptional({ enum: OAUTH_GRANT_TYPES, isArray: true })
  @ValidateIf(present)
  @IsListOf(OAUTH_GRANT_TYPES, OAUTH_CLIENT_MAX_LIST)
  grant_types?: string[];

  @ApiPropertyOptional({ enum: OAUTH_CLIENT_SCOPES, isArray: true })
  @ValidateIf(present)
  @IsListOf(OAUTH_CLIENT_SCOPES, OAUTH_CLIENT_MAX_LIST)
  scopes?: string[];

  @ApiPropertyOptional()
  @ValidateIf(present)
  @IsBoolean()
  first_party?: boolean;

  @ApiPropertyOptional({ enum: ID_TOKEN_SIGNING_ALGS })
  @ValidateIf(present)
  @IsIn(ID_TOKEN_SIGNING_ALGS)
  id_token_signed_response_alg?: string;

  @ApiPropertyOptional({
    description:
      'PKCE on every authorization request; `false` only for a confidential client (it then uses the OpenID Connect `nonce`)',
  })
  @ValidateIf(present)
  @IsBoolean()
  require_pkce?: boolean;

  @ApiPropertyOptional({
    description:
      'Authorization requests only through the pushed authorization request endpoint (RFC 9126 §6)',
  })
  @ValidateIf(present)
  @IsBoolean()
  require_pushed_authorization_requests?: boolean;

  @ValidateIf(present)
  @Unchangeable(
    'cannot be changed: switching between a public and a confidential client is a new client',
  )
  token_endpoint_auth_method?: never;
}
