/** The pure rules of the hosted pages: which screen a path is, what a return trip brought back, how scopes and errors read. */

export type PageName = 'sign-in' | 'consent' | 'signed-out' | 'error';
const PAGES: readonly PageName[] = ['sign-in', 'consent', 'signed-out', 'error'];

/** The screen of `/v1/projects/{id}/pages/{page}` (its last path segment), or null for anything else. */
export function pageOf(pathname: string): PageName | null {
  const last = pathname.replace(/\/+$/, '').split('/').pop() ?? '';
  return (PAGES as readonly string[]).includes(last) ? (last as PageName) : null;
}

/** The page's own URL, as registered: what social sign-in and magic links come back to (no query). */
export function signInPageUrl(authUrl: string, projectId: string): string {
  return `${authUrl.replace(/\/+$/, '')}/v1/projects/${encodeURIComponent(projectId)}/pages/sign-in`;
}

/** An interaction uid as oidc-provider makes them (URL-safe, bounded); anything else is ignored. */
const UID = /^[A-Za-z0-9_-]{1,128}$/;

/** Keys in sessionStorage (per tab): the interaction and the round trip under way across a social sign-in or a magic link. */
export const STORAGE_KEYS = {
  interaction: 'gatehouse-pages:interaction',
  pending: 'gatehouse-pages:pending',
} as const;
export type PendingTrip = 'social' | 'magic-link';

/** What the page's URL says when it opens: the interaction, and what a social sign-in or magic link came back with. */
export interface Arrival {
  /** From `?interaction=`, else the one this tab kept before leaving. */
  interaction: string | null;
  /** `?mfa_required=true&mfa_token=…`: the user has MFA and must pass the challenge. */
  mfaToken: string | null;
  /** `?error=…` of a social sign-in or a magic link (`account_exists`, `access_denied`, `invalid_token`, …). */
  error: string | null;
  /** Whether this tab left for a social sign-in or sent a magic link (then a session found now is the result). */
  pending: PendingTrip | null;
  /** `?token=` of a mailed password-reset link (the forgot-password form sends it back to this page). */
  resetToken: string | null;
}

export function arrivalOf(
  search: string,
  stored: { interaction: string | null; pending: string | null },
): Arrival {
  const q = new URLSearchParams(search);
  const fromUrl = q.get('interaction');
  const interaction =
    fromUrl && UID.test(fromUrl)
      ? fromUrl
      : stored.interaction && UID.test(stored.interaction)
        ? stored.interaction
        : null;
  const token = q.get('mfa_required') === 'true' ? q.get('mfa_token') : null;
  const error = q.get('error');
  const pending =
    stored.pending === 'social' || stored.pending === 'magic-link' ? stored.pending : null;
  const reset = q.get('token');
  return {
    interaction,
    mfaToken: token && token.length <= 512 ? token : null,
    error: error ? error.slice(0, 64) : null,
    pending,
    resetToken: reset && reset.length <= 512 ? reset : null,
  };
}

/** The query the page keeps after reading its arrival: only the interaction (one-time tokens and errors are dropped from the address bar). */
export function cleanSearch(interaction: string | null): string {
  return interaction ? `?interaction=${encodeURIComponent(interaction)}` : '';
}

/** Plain-language descriptions of the standard scopes; others are shown by name. */
const SCOPES: Record<string, { label: string; description: string }> = {
  openid: { label: 'Sign you in', description: 'Confirm who you are with your account.' },
  profile: { label: 'Your profile', description: 'Your username.' },
  email: {
    label: 'Your email address',
    description: 'Your email address and whether it is verified.',
  },
  offline_access: {
    label: 'Stay connected',
    description: 'Keep access while you are away, until you revoke it.',
  },
  organizations: {
    label: 'Your organizations',
    description: 'The organizations you belong to and your role in each.',
  },
};

/**
 * A scope in the person's words: the standard ones as above; a scope of one of the project's API
 * resources the request names with the description its admin wrote (and the scope and API by name);
 * any other by its name.
 */
export function describeScope(
  scope: string,
  resources: readonly {
    name: string;
    scopes: readonly { name: string; description: string }[];
  }[] = [],
): { scope: string; label: string; description: string } {
  const known = Object.prototype.hasOwnProperty.call(SCOPES, scope) ? SCOPES[scope] : undefined;
  if (known) return { scope, ...known };
  for (const api of resources) {
    const found = api.scopes.find((s) => s.name === scope);
    if (found)
      return found.description
        ? { scope, label: found.description, description: `${scope} · ${api.name}` }
        : { scope, label: scope, description: `A permission of ${api.name}.` };
  }
  return { scope, label: scope, description: 'A permission this application defines.' };
}

/** What a social sign-in or a magic link's `?error=` means to the person. */
export function returnErrorMessage(code: string): string {
  switch (code) {
    case 'access_denied':
      return 'The sign-in was cancelled at the provider.';
    case 'account_exists':
      return 'An account with this email address already exists. Sign in with your password or another method, then link the provider from your account.';
    case 'invalid_state':
      return 'The sign-in took too long or was started in another browser. Please try again.';
    case 'provider_error':
      return 'The provider could not complete the sign-in. Please try again.';
    case 'invalid_token':
      return 'The sign-in link is invalid, used or expired. Ask for a new one.';
    default:
      return `The sign-in did not complete (${code}).`;
  }
}

/** Titles of the provider's errors (OAuth 2.0 / OpenID Connect codes) for the error page. */
export function errorTitle(code: string | null): string {
  switch (code) {
    case 'access_denied':
      return 'Access was denied';
    case 'login_required':
    case 'interaction_required':
    case 'consent_required':
      return 'You need to sign in';
    case 'invalid_request':
    case 'invalid_request_uri':
    case 'invalid_request_object':
    case 'unsupported_response_type':
    case 'invalid_scope':
    case 'invalid_redirect_uri':
      return 'The application sent an invalid request';
    case 'invalid_client':
    case 'unauthorized_client':
      return 'The application is not recognised';
    case 'session_not_found':
    case 'invalid_token':
      return 'This sign-in request has expired';
    case 'temporarily_unavailable':
      return 'The service is temporarily unavailable';
    default:
      return 'Something went wrong';
  }
}

/**
 * The standard's own description of an error code (RFC 6749 §4.1.2.1 and §5.2, OpenID Connect
 * Core §3.1.2.6, RFC 9126 §2.3, RFC 7591 §3.2.2): fixed words a developer can look up, never the
 * request's `error_description` (anyone can link to the error page with any text).
 */
export function errorDescription(code: string | null): string | null {
  const descriptions: Record<string, string> = {
    invalid_request:
      'The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed.',
    unauthorized_client:
      'The client is not authorized to request an authorization code using this method.',
    access_denied: 'The resource owner or authorization server denied the request.',
    unsupported_response_type:
      'The authorization server does not support obtaining an authorization code using this method.',
    invalid_scope: 'The requested scope is invalid, unknown, or malformed.',
    server_error:
      'The authorization server encountered an unexpected condition that prevented it from fulfilling the request.',
    temporarily_unavailable:
      'The authorization server is currently unable to handle the request due to a temporary overloading or maintenance of the server.',
    invalid_client:
      'Client authentication failed (e.g., unknown client, no client authentication included, or unsupported authentication method).',
    interaction_required:
      'The Authorization Server requires End-User interaction of some form to proceed.',
    login_required: 'The Authorization Server requires End-User authentication.',
    account_selection_required:
      'The End-User is required to select a session at the Authorization Server.',
    consent_required: 'The Authorization Server requires End-User consent.',
    invalid_request_uri:
      'The request_uri in the Authorization Request returns an error or contains invalid data.',
    invalid_request_object: 'The request parameter contains an invalid Request Object.',
    request_not_supported: 'The OP does not support use of the request parameter.',
    request_uri_not_supported: 'The OP does not support use of the request_uri parameter.',
    registration_not_supported: 'The OP does not support use of the registration parameter.',
    invalid_redirect_uri: 'The value of one or more redirection URIs is invalid.',
  };
  return code && Object.prototype.hasOwnProperty.call(descriptions, code)
    ? descriptions[code]
    : null;
}

/** What the error page's `?hint=` (set by the provider, one of these keys) tells the application's developer to change. */
export function errorHint(hint: string | null): string | null {
  const hints: Record<string, string> = {
    redirect_uris:
      "The redirect URI is not one of the client's registered redirect_uris: add it to the client's settings.",
    post_logout_redirect_uris:
      "The post_logout_redirect_uri is not one of the client's registered post_logout_redirect_uris: add it to the client's settings.",
    scopes: "A requested scope is not in the client's scopes: add it to the client's settings.",
    openid:
      "The request needs the openid scope: ask for it, and list openid in the client's scopes.",
    require_pkce:
      'The request has no PKCE: send code_challenge with S256 (or set the confidential client to require_pkce: false and send a nonce).',
    require_pushed_authorization_requests:
      'The client (or project) requires pushed authorization requests: push the request first.',
  };
  return hint && Object.prototype.hasOwnProperty.call(hints, hint) ? hints[hint] : null;
}

/** The provider names config.json lists, as people know them. */
export function providerLabel(provider: string): string {
  const names: Record<string, string> = {
    google: 'Google',
    github: 'GitHub',
    microsoft: 'Microsoft',
    apple: 'Apple',
  };
  return names[provider] ?? provider.charAt(0).toUpperCase() + provider.slice(1);
}
