import { safeEqual, sha256Hex } from '@gatehouse/crypto';

/**
 * The OpenID Connect provider's grant rules, as pure decisions: each is given what it decides on
 * (read by the storage adapter, the interaction API or a provider hook) and returns the decision,
 * with no I/O and no request state. Unit tests: oidc-grant-policy.spec.ts; the places that apply
 * them: docs/oidc.md, "How the provider is built".
 */

// ---------------------------------------------------------------- grant-bound records

/** Models whose records name a grant: none is honoured once the grant, its session or its user is gone. */
export const GRANT_BOUND_MODELS: ReadonlySet<string> = new Set([
  'AccessToken',
  'RefreshToken',
  'AuthorizationCode',
  'Grant',
  'BackchannelAuthenticationRequest',
  'DeviceCode',
]);
/** Single-use models: the first `consume` wins, a second one is a replay (which ends the grant). */
export const SINGLE_USE_MODELS: ReadonlySet<string> = new Set([
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PushedAuthorizationRequest',
]);

/**
 * The grant whose liveness decides whether a stored record may be used: a grant's own id, a
 * grant-bound record's `grantId`; null when nothing binds it (a session, an interaction, a client).
 */
export function boundGrantId(
  model: string,
  id: string,
  payload: { grantId?: unknown },
): string | null {
  if (!GRANT_BOUND_MODELS.has(model)) return null;
  const grantId = model === 'Grant' ? id : payload.grantId;
  return typeof grantId === 'string' ? grantId : null;
}

// ---------------------------------------------------------------- the completion binding

/**
 * What Gatehouse adds to an interaction's result (beside oidc-provider's `login`, `consent` and
 * `error`): the Gatehouse session that completed it, and the SHA-256 of the completion value only
 * the completer was given (the resume must present it).
 */
export interface GatehouseCompletion {
  sid: string | null;
  hash: string;
  /** The sign-in is another account than the browser's provider session had: the resume starts a new provider session. */
  fresh?: boolean;
}

export function completionOf(result: unknown): GatehouseCompletion | null {
  const g = (result as { gatehouse?: unknown } | undefined)?.gatehouse as
    Partial<GatehouseCompletion> | undefined;
  return g && typeof g.hash === 'string'
    ? {
        sid: typeof g.sid === 'string' ? g.sid : null,
        hash: g.hash,
        ...(g.fresh === true ? { fresh: true } : {}),
      }
    : null;
}

/**
 * A resume of an interaction, as the provider may see it: `open` (no Gatehouse completion yet:
 * nothing to bind), `accepted` (the browser presents the completion value given to whoever
 * completed it: the provider continues as that Gatehouse session), or `refused` (any other browser:
 * the interaction is as good as unknown to it).
 */
export type ResumeDecision =
  { kind: 'open' } | { kind: 'accepted'; sid: string | null; fresh: boolean } | { kind: 'refused' };

export function resumeDecision(result: unknown, presented: string | null): ResumeDecision {
  const completion = completionOf(result);
  if (!completion) return { kind: 'open' };
  if (presented === null || !safeEqual(sha256Hex(presented), completion.hash))
    return { kind: 'refused' };
  return { kind: 'accepted', sid: completion.sid, fresh: completion.fresh === true };
}

/**
 * Whether the interaction API's sign-in replaces the browser's provider session: it was another
 * account's (the resume then starts a new provider session for this one, instead of the provider's
 * own sign-out detour, which would lose the completion).
 */
export function switchesAccount(
  providerSessionAccountId: string | undefined,
  signedInUserId: string,
): boolean {
  return providerSessionAccountId !== undefined && providerSessionAccountId !== signedInUserId;
}

// ---------------------------------------------------------------- the fresh-session check

export interface FreshnessInput {
  /** The provider asks for a new sign-in (`prompt=login`: its `login_prompt` reason). */
  loginPrompt: boolean;
  /** The request's `max_age` in seconds, when it has one. */
  maxAge: number | null;
  /** When the Gatehouse session was last proved: its `auth_time` claim (seconds) and, when known, the row's own time (ms). */
  authTime: number;
  authTimeMs: number | null;
  /** When the authorization request began (ms), and now (ms). */
  startedMs: number;
  nowMs: number;
}

/**
 * `prompt=login` needs a proof made after the request began (ordered in milliseconds: the
 * provider's own `iat` is whole seconds, too coarse for a sign-in in the same second); `max_age`
 * one at most that old. A stale session proves itself again first (POST /v1/auth/reauthenticate).
 */
export function isStale(input: FreshnessInput): boolean {
  const provedMs = input.authTimeMs ?? input.authTime * 1000;
  if (input.loginPrompt && provedMs <= input.startedMs) return true;
  return (
    input.maxAge !== null &&
    Number.isFinite(input.maxAge) &&
    input.nowMs / 1000 - input.authTime > input.maxAge
  );
}

/** A request's `max_age` parameter as a number of seconds, or null when it has none. */
export function maxAgeOf(value: unknown): number | null {
  return value === undefined ? null : Number(value);
}

// ---------------------------------------------------------------- acr

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
  return (
    (ACR_VALUES as readonly string[]).indexOf(acr ?? '') >=
    (ACR_VALUES as readonly string[]).indexOf(required)
  );
}

/**
 * The sign-in the interaction API completes, against the request's `acr_values`: `met` with the
 * session's class, or unmet with the class it needs. A password-only session is not enough for the
 * second level; the caller then tells `signInRefusal` whether the user could prove it at all.
 */
export function signInAcr(
  authMethod: string,
  acrValues: unknown,
): { acr: string; met: true } | { acr: string; met: false; required: string } {
  const acr = acrOfAuthMethod(authMethod);
  const required = requiredAcr(acrValues);
  return required === null || acrSatisfies(acr, required)
    ? { acr, met: true }
    : { acr, met: false, required };
}

/**
 * Why an unmet class refuses the sign-in: the user has no second factor or passkey to meet
 * `loa:2` with (`no-second-factor`: the interaction stays open so a login page may have them set
 * one up), or they have one and must use it (`step-up`). Never a code with a level not proved.
 */
export function signInRefusal(
  required: string,
  hasSecondFactor: boolean,
): 'no-second-factor' | 'step-up' {
  return required === LOA_2 && !hasSecondFactor ? 'no-second-factor' : 'step-up';
}

/**
 * The provider's own check (its login prompt): a provider session weaker than the request's
 * `acr_values` (or the client's `default_acr_values`) asks for the interaction again, so the
 * browser goes through a sign-in with the second factor (or a step-up), never straight back with a
 * code; `prompt=none` then answers `login_required`.
 */
export function providerSessionMeetsAcr(
  sessionAcr: string | undefined,
  acrValues: unknown,
): boolean {
  return acrSatisfies(sessionAcr, requiredAcr(acrValues));
}

// ---------------------------------------------------------------- grants the provider continues with

export interface GrantContinuationInput {
  /** A grant for this client already exists (the consent's, or the provider session's). */
  existing: boolean;
  /** The request comes straight from a sign-in (the interaction result has `login`). */
  afterSignIn: boolean;
  firstParty: boolean;
  /** The Gatehouse session behind the provider's session is known. */
  gatehouseSession: boolean;
}

/**
 * The grant an authorization request continues with. A grant belongs to the Gatehouse session that
 * signed the user in: one made under an earlier session is not reused after a sign-in (its tokens
 * may have been taken back with that session); a `new` grant carries the earlier one's scopes over
 * (so the user is not asked again) and, for a first-party client, what the request asks (no
 * consent). `none`: the provider asks for consent, or (no Gatehouse session) nothing is granted.
 */
export function grantContinuation(input: GrantContinuationInput): 'existing' | 'new' | 'none' {
  if (input.existing && !input.afterSignIn) return 'existing';
  if (!input.existing && !input.firstParty) return 'none';
  return input.gatehouseSession ? 'new' : 'none';
}

/**
 * The `sid` of the provider's session for a client (in every ID token): the Gatehouse session that
 * signed the user in (the `sid` of Gatehouse's own access tokens), else the one already there, else
 * a new random one.
 */
export function clientSid(
  gatehouseSid: string | null,
  current: string | undefined,
  fresh: () => string,
): string {
  return gatehouseSid ?? current ?? fresh();
}

// ---------------------------------------------------------------- RP-initiated logout

/**
 * A `post_logout_redirect_uri` the client registered (`registered`), as RP-Initiated Logout 1.0 §3
 * allows it: an admin-created client is redirected; a self-registered one only with its own ID
 * token (a valid `id_token_hint`); with only `client_id` the logout ends on the signed-out page
 * (`signed-out-page`: the URI is accepted but dropped). An unregistered URI is refused, and so is a
 * self-registered client's outside a logout request (`idTokenHint` null: no request to read it from).
 */
export function postLogoutRedirect(input: {
  registered: boolean;
  selfRegistered: boolean;
  idTokenHint: boolean | null;
}): 'redirect' | 'signed-out-page' | 'refused' {
  if (!input.registered) return 'refused';
  if (!input.selfRegistered) return 'redirect';
  if (input.idTokenHint === null) return 'refused';
  return input.idTokenHint ? 'redirect' : 'signed-out-page';
}
