/**
 * Where an SSO connection's routes are, under the auth runtime's public URL (docs/api-contract.md
 * §15): a SAML connection's service provider (its entity id is its metadata URL) and an OpenID
 * Connect connection's redirect URI. The control plane shows them; the auth runtime serves them.
 */
export function ssoUrls(publicAuthUrl: string, connectionId: string) {
  const saml = `${publicAuthUrl}/v1/sso/saml/${connectionId}`;
  return {
    entityId: `${saml}/metadata`,
    acsUrl: `${saml}/acs`,
    metadataUrl: `${saml}/metadata`,
    redirectUri: `${publicAuthUrl}/v1/auth/sso/${connectionId}/callback`,
  };
}
