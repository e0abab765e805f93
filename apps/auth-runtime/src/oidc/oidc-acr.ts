/** The provider's authentication context classes, weakest first (docs/oidc.md, "Scopes and claims"). */
export const ACR_VALUES = ['urn:gatehouse:loa:1', 'urn:gatehouse:loa:2'] as const;
export const LOA_2 = ACR_VALUES[1];

/** How a Gatehouse session was proved → its class: a second factor or a passkey is the second level. */
export function acrOfAuthMethod(authMethod: string): string {
  return authMethod === 'mfa' || authMethod === 'passkey' ? ACR_VALUES[1] : ACR_VALUES[0];
}

/**
 * The class an authorization request needs, from its `acr_values` (the request's, or the client's
 * `default_acr_values` the provider put there): the weakest of the known values it names, so a
 * request naming both levels is met by either, one naming only `loa:2` only by the second. Unknown
 * values are no demand (they are voluntary, OpenID Connect Core §3.1.2.1); null when none is known.
 */
export function requiredAcr(acrValues: unknown): string | null {
  if (typeof acrValues !== 'string') return null;
  const levels = acrValues
    .split(' ')
    .map((v) => (ACR_VALUES as readonly string[]).indexOf(v))
    .filter((i) => i >= 0);
  return levels.length ? ACR_VALUES[Math.min(...levels)] : null;
}

/** Whether a session of class `acr` meets the request's demand (a higher class meets a lower one). */
export function acrSatisfies(acr: string | undefined, required: string | null): boolean {
  if (required === null) return true;
  return (ACR_VALUES as readonly string[]).indexOf(acr ?? '') >= (ACR_VALUES as readonly string[]).indexOf(required);
}
