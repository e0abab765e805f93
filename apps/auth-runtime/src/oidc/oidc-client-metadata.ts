import type { OAuthClient } from '@gatehouse/entities';

/**
 * A client row as oidc-provider's client metadata. The secret member carries the SHA-256 of the
 * secret, never the secret: the provider's comparison is replaced by one against the hash
 * (OidcProviders), and no algorithm that would use the secret as a key (HS256, client_secret_jwt)
 * is enabled.
 */
export function oidcClientMetadata(row: OAuthClient): Record<string, unknown> {
  const code = row.grantTypes.includes('authorization_code');
  return {
    client_id: row.clientId,
    client_name: row.name,
    ...(row.secretHash ? { client_secret: row.secretHash } : {}),
    redirect_uris: code ? row.redirectUris : [],
    post_logout_redirect_uris: row.postLogoutRedirectUris,
    grant_types: row.grantTypes,
    response_types: code ? ['code'] : [],
    token_endpoint_auth_method: row.tokenEndpointAuthMethod,
    scope: row.scopes.join(' '),
    id_token_signed_response_alg: row.idTokenSignedResponseAlg,
    // A confidential client may use the OpenID Connect nonce instead of PKCE (OidcProviders' pkce policy).
    require_pkce: row.requirePkce !== false,
    require_pushed_authorization_requests: row.requirePushedAuthorizationRequests === true,
    first_party: row.firstParty,
    // Errors before sign-in are shown, not redirected, and a post-logout redirect needs the client's ID token (docs/oidc.md).
    self_registered: row.selfRegistered === true,
    ...(row.defaultAcrValues?.length ? { default_acr_values: row.defaultAcrValues } : {}),
    // No `require_auth_time`: the provider would refuse every request without `openid` (an OAuth 2.1
    // client asking for API scopes only, RFC 6749 §3.3). `auth_time` is in every ID token all the
    // same: it is a claim of the `openid` scope (OidcProviders).
  };
}
