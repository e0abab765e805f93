import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { OAuthClient } from '@gatehouse/entities';
import {
  ID_TOKEN_SIGNING_ALGS,
  isPublicClient,
  OAUTH_CLIENT_AUTH_METHODS,
  OAUTH_CLIENT_SCOPES,
  OAUTH_GRANT_TYPES,
} from '@gatehouse/identity';
import { PaginationResponse } from '@gatehouse/http';

/** A client of the project's OpenID Connect provider (docs/api-contract.md §11); never its secret or the secret's hash. */
export class OAuthClientResponse {
  @ApiProperty({
    example: 'oc_3mQ1b8gk0yJv6Tz1dR9aXw',
    description: 'The public `client_id` (`oc_…`)',
  })
  client_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String] }) redirect_uris!: string[];
  @ApiProperty({ type: [String] }) post_logout_redirect_uris!: string[];
  @ApiProperty({ enum: OAUTH_GRANT_TYPES, isArray: true }) grant_types!: string[];
  @ApiProperty({ enum: OAUTH_CLIENT_AUTH_METHODS }) token_endpoint_auth_method!: string;
  @ApiProperty({ enum: OAUTH_CLIENT_SCOPES, isArray: true }) scopes!: string[];
  @ApiProperty({ description: 'First-party clients skip the consent screen' })
  first_party!: boolean;
  @ApiProperty({ enum: ID_TOKEN_SIGNING_ALGS }) id_token_signed_response_alg!: string;
  @ApiProperty({
    description:
      'PKCE on every authorization request (false: a confidential client that uses the OpenID Connect nonce instead)',
  })
  require_pkce!: boolean;
  @ApiProperty({
    description:
      'Authorization requests only through the pushed authorization request endpoint (RFC 9126)',
  })
  require_pushed_authorization_requests!: boolean;
  @ApiProperty({
    description: 'A public client (`token_endpoint_auth_method: none`) has no secret and uses PKCE',
  })
  public!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** `POST /v1/admin/projects/{id}/oauth-clients` (201). */
export class OAuthClientCreatedResponse extends OAuthClientResponse {
  @ApiPropertyOptional({
    description:
      'The `ocs_…` secret of a confidential client, shown this once only; absent for a public client',
  })
  client_secret?: string;
}

/** `POST …/oauth-clients/{client_id}/secret/rotate` (201). */
export class OAuthClientSecretRotatedResponse extends OAuthClientResponse {
  @ApiProperty({
    description: 'The new `ocs_…` secret, shown this once only; the previous one no longer works',
  })
  client_secret!: string;
}

/** `GET /v1/admin/projects/{id}/oauth-clients`, newest first. */
export class OAuthClientListResponse {
  @ApiProperty({ type: [OAuthClientResponse] }) oauth_clients!: OAuthClientResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}

export function toOAuthClientResponse(c: OAuthClient): OAuthClientResponse {
  return {
    client_id: c.clientId,
    name: c.name,
    redirect_uris: c.redirectUris,
    post_logout_redirect_uris: c.postLogoutRedirectUris,
    grant_types: c.grantTypes,
    token_endpoint_auth_method: c.tokenEndpointAuthMethod,
    scopes: c.scopes,
    first_party: c.firstParty,
    id_token_signed_response_alg: c.idTokenSignedResponseAlg,
    require_pkce: c.requirePkce,
    require_pushed_authorization_requests: c.requirePushedAuthorizationRequests,
    public: isPublicClient(c),
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}
