import type { TokenEndpointAuthMethod } from '@gatehouse/entities';
import type { FieldErrors } from '@gatehouse/problem-details';

/**
 * What a client of a project's OpenID Connect provider may be registered with (docs/api-contract.md
 * §15, docs/api-contract.md §11), shared by the admin API and the provider's own registration endpoint.
 */
export const OAUTH_GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
] as const;
export type OAuthGrantType = (typeof OAUTH_GRANT_TYPES)[number];

export const OAUTH_CLIENT_AUTH_METHODS = [
  'client_secret_basic',
  'client_secret_post',
  'none',
] as const satisfies readonly TokenEndpointAuthMethod[];

export const OAUTH_CLIENT_SCOPES = [
  'openid',
  'profile',
  'email',
  'offline_access',
  'organizations',
] as const;
export type OAuthClientScope = (typeof OAUTH_CLIENT_SCOPES)[number];

export const ID_TOKEN_SIGNING_ALGS = ['ES256', 'RS256'] as const;
export type IdTokenSigningAlg = (typeof ID_TOKEN_SIGNING_ALGS)[number];

/** The defaults of an omitted member at registration. */
export const OAUTH_CLIENT_DEFAULTS = {
  grantTypes: ['authorization_code', 'refresh_token'] as OAuthGrantType[],
  tokenEndpointAuthMethod: 'client_secret_basic' as TokenEndpointAuthMethod,
  scopes: ['openid', 'profile', 'email', 'offline_access'] as OAuthClientScope[],
  firstParty: false,
  // OpenID Connect Dynamic Client Registration §2: RS256 unless the client asks for another.
  idTokenSignedResponseAlg: 'RS256' as IdTokenSigningAlg,
  requirePkce: true,
  requirePushedAuthorizationRequests: false,
};

/** At most this many redirect URIs, post-logout redirect URIs, grant types or scopes. */
export const OAUTH_CLIENT_MAX_LIST = 20;

/** A public client (a browser or native app) has no secret and authenticates with PKCE alone. */
export function isPublicClient(c: { tokenEndpointAuthMethod: string }): boolean {
  return c.tokenEndpointAuthMethod === 'none';
}

/**
 * The rules between a client's members, judged on the whole client as it would be stored (after
 * defaults, or after a PATCH is applied): each problem under the member to change.
 * - a public client cannot use `client_credentials` (it has no secret to prove itself with);
 * - `refresh_token` comes only with `authorization_code` (a refresh token is issued by a code exchange);
 * - `authorization_code` needs at least one redirect URI;
 * - a public client always uses PKCE (only a confidential one may use the nonce instead).
 * The form of each member (known values, URL rules, sizes) is the caller's DTO's business.
 */
export function oauthClientRuleErrors(c: {
  grantTypes: readonly string[];
  tokenEndpointAuthMethod: string;
  redirectUris: readonly string[];
  requirePkce?: boolean;
}): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) =>
    (errors[field] = [...(errors[field] ?? []), message]);
  const code = c.grantTypes.includes('authorization_code');
  if (isPublicClient(c) && c.grantTypes.includes('client_credentials')) {
    add(
      'grant_types',
      'must not include client_credentials for a public client (token_endpoint_auth_method "none")',
    );
  }
  if (c.grantTypes.includes('refresh_token') && !code)
    add('grant_types', 'must include authorization_code when it includes refresh_token');
  if (code && c.redirectUris.length === 0)
    add('redirect_uris', 'must list at least one redirect URI for the authorization_code grant');
  if (isPublicClient(c) && c.requirePkce === false)
    add(
      'require_pkce',
      'must be true for a public client (token_endpoint_auth_method "none"): it has no secret, PKCE is what binds its code',
    );
  return errors;
}
