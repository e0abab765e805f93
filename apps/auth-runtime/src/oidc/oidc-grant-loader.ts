import type { KoaContextWithOIDC } from 'oidc-provider';
import { grantContinuation } from './oidc-grant-policy';
import { oidcRequestState } from './oidc-request-state';

/**
 * The provider's `loadExistingGrant`: the grant an authorization request continues with, as
 * grantContinuation decides it (oidc-grant-policy.ts). A `new` grant carries the earlier grant's
 * scopes over and, for a first-party client, adds what the request asks (no consent); it is saved
 * tied to the Gatehouse session of this request (OidcStore.recordGrant). Either way the grant
 * names the organization of the request's `organization` parameter, or none.
 */
export async function loadExistingGrant(
  ctx: KoaContextWithOIDC,
  nameOrganization: (grantId: string, organizationId: string | null) => Promise<void>,
) {
  const oidc = ctx.oidc;
  const client = oidc.client!;
  const session = oidc.session!;
  const account = oidc.account!;
  const grantId =
    (oidc.result?.consent as { grantId?: string } | undefined)?.grantId ??
    session.grantIdFor(client.clientId);
  const existing = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
  const firstParty = client.metadata().first_party === true;
  const decision = grantContinuation({
    existing: existing !== undefined,
    afterSignIn: Boolean(oidc.result?.login),
    firstParty,
    gatehouseSession: Boolean(oidcRequestState.getStore()?.sid),
  });
  // The organization this request names (or none) is the grant's from now on (`organization=`).
  const organization =
    typeof oidc.params?.organization === 'string' ? oidc.params.organization : null;
  if (decision === 'existing') {
    await nameOrganization(existing!.jti, organization);
    return existing;
  }
  if (decision === 'none') return undefined;
  const grant = new oidc.provider.Grant({
    accountId: account.accountId,
    clientId: client.clientId,
  });
  if (existing) {
    const scope = existing.getOIDCScope();
    if (scope) grant.addOIDCScope(scope);
    const claims = existing.getOIDCClaims();
    if (claims.length) grant.addOIDCClaims(claims);
    for (const [resource, scopes] of Object.entries(existing.resources ?? {}))
      if (typeof scopes === 'string') grant.addResourceScope(resource, scopes);
  }
  if (firstParty) {
    grant.addOIDCScope([...oidc.requestParamOIDCScopes].join(' '));
    for (const [resource, server] of Object.entries(oidc.resourceServers ?? {})) {
      const allowed = new Set((server.scope ?? '').split(' '));
      const asked = [...oidc.requestParamScopes].filter((s) => allowed.has(s));
      grant.addResourceScope(resource, asked.join(' '));
    }
  }
  await grant.save();
  await nameOrganization(grant.jti, organization);
  return grant;
}
