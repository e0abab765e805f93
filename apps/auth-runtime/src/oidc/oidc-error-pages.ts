import type { ErrorOut, KoaContextWithOIDC } from 'oidc-provider';
import { randomToken } from '@gatehouse/crypto';
import { hostedPagesCsp } from '../hosted-pages/hosted-pages-files';

/**
 * How the provider's errors reach a person or a developer: the hosted error page (with the client
 * setting to change named), and, for a self-registered client's error before sign-in, a page of
 * its own instead of a redirect (RFC 9700 §4.11.2).
 */

/** `renderError`: a held error's page, else the hosted error page with fixed words chosen by where it happened and which setting is the cause. */
export function renderError(
  ctx: KoaContextWithOIDC,
  out: ErrorOut,
  err: unknown,
  page: { issuer: string; projectName: string; authOrigin: string },
): void {
  if (err && typeof err === 'object' && heldRedirects.has(err))
    return heldErrorPage(ctx, out, page.projectName, page.authOrigin);
  const target = new URL(`${page.issuer}/pages/error`);
  target.searchParams.set('error', String(out.error ?? 'server_error'));
  if (out.error_description)
    target.searchParams.set('error_description', String(out.error_description));
  // The page's own words, chosen by two fixed values: where it happened, and which client setting is the cause.
  target.searchParams.set(
    'context',
    String(ctx.oidc?.route ?? '').startsWith('end_session') ? 'sign-out' : 'sign-in',
  );
  const hint = out.error_description ? settingHintKey(String(out.error_description)) : null;
  if (hint) target.searchParams.set('hint', hint);
  ctx.redirect(target.href);
}

/**
 * The provider's error descriptions that a developer fixes in the client's (or the project's)
 * settings, with the setting named: the description alone says what is wrong, not where to change it.
 */
const SETTING_HINTS: { pattern: RegExp; key: string; text: string }[] = [
  {
    pattern: /^redirect_uri did not match any of the client's registered redirect_uris/,
    key: 'redirect_uris',
    text: "add it to the client's redirect_uris setting (admin API or console)",
  },
  {
    pattern: /^post_logout_redirect_uri not registered/,
    key: 'post_logout_redirect_uris',
    text: "add it to the client's post_logout_redirect_uris setting (admin API or console)",
  },
  {
    pattern: /^requested scope is not allowed/,
    key: 'scopes',
    text: "add the scope to the client's scopes setting (admin API or console)",
  },
  {
    pattern: /^openid scope must be requested /,
    key: 'openid',
    text: "ask for the openid scope, and list openid in the client's scopes setting",
  },
  {
    pattern: /^Authorization Server policy requires PKCE /,
    key: 'require_pkce',
    text: 'send code_challenge with code_challenge_method S256 (a confidential client may instead be set to require_pkce: false and send a nonce)',
  },
  {
    pattern: /^Pushed Authorization Request must be used/,
    key: 'require_pushed_authorization_requests',
    text: "push the request to the pushed_authorization_request_endpoint first (the client's or the project's require_pushed_authorization_requests setting)",
  },
];

/** The description with the setting to change named after it (once). */
export function settingHint(description: string): string {
  const hint = SETTING_HINTS.find(({ pattern }) => pattern.test(description));
  return hint && !description.endsWith(hint.text) ? `${description}: ${hint.text}` : description;
}

/** Which setting the description is about, for the hosted error page (which shows fixed words only, never the description). */
function settingHintKey(description: string): string | null {
  return SETTING_HINTS.find(({ pattern }) => pattern.test(description))?.key ?? null;
}

/** Applies settingHint to the provider's answer: a JSON error body, or an error redirect's query or fragment. */
export function withSettingHints(ctx: {
  body: unknown;
  status: number;
  response: { get(field: string): string; set(field: string, value: string): void };
}): void {
  const body = ctx.body as { error_description?: unknown } | undefined;
  if (
    body &&
    typeof body === 'object' &&
    !Buffer.isBuffer(body) &&
    typeof body.error_description === 'string'
  )
    body.error_description = settingHint(body.error_description);
  const location = ctx.status >= 300 && ctx.status < 400 ? ctx.response.get('Location') : '';
  if (!location || !location.includes('error_description=')) return;
  let target: URL;
  try {
    target = new URL(location);
  } catch {
    return;
  }
  const described = target.searchParams.get('error_description');
  if (described !== null) target.searchParams.set('error_description', settingHint(described));
  const fragment = new URLSearchParams(target.hash.slice(1));
  const inFragment = fragment.get('error_description');
  if (inFragment !== null) {
    fragment.set('error_description', settingHint(inFragment));
    target.hash = fragment.toString();
  }
  ctx.response.set('Location', target.href);
}

/** Errors of self-registered clients that the authorization endpoint shows instead of redirecting (holdErrorRedirect). */
const heldRedirects = new WeakSet<object>();

/**
 * RFC 9700 §4.11.2: anyone can register a client with any https redirect URI, so an error the
 * authorization endpoint finds before a user has signed in (a request without PKCE, a bad scope
 * or response type, `prompt=none` without a session, an interaction aborted before sign-in) would
 * make the sign-in origin an open redirector to it. For a self-registered client such an error is
 * shown (heldErrorPage) with a link the person may follow; an admin-created client keeps the
 * standard redirect, and so does any error once the user has signed in (a consent denied).
 * Runs from the provider's error events, before its handler decides whether to redirect.
 */
export function holdErrorRedirect(ctx: KoaContextWithOIDC, err: unknown): void {
  const oidc = ctx?.oidc;
  if (!oidc || (oidc.route !== 'authorization' && oidc.route !== 'resume')) return;
  if (
    !err ||
    typeof err !== 'object' ||
    (err as { allow_redirect?: boolean }).allow_redirect === false
  )
    return;
  if (oidc.client?.metadata().self_registered !== true) return;
  const signedIn =
    oidc.entities.Account !== undefined ||
    (oidc.route === 'resume' && oidc.session?.accountId !== undefined);
  if (signedIn) return;
  (err as { allow_redirect?: boolean }).allow_redirect = false;
  heldRedirects.add(err);
}

const ERROR_TITLES: Record<string, string> = {
  access_denied: 'Access was denied',
  login_required: 'You need to sign in',
  interaction_required: 'You need to sign in',
  consent_required: 'You need to sign in',
  invalid_client: 'The application is not recognised',
  unauthorized_client: 'The application is not recognised',
  temporarily_unavailable: 'The service is temporarily unavailable',
  server_error: 'Something went wrong',
};

/**
 * The hosted error page of a held error (holdErrorRedirect): the client's name and a link to its
 * redirect URI with the error (what the standard redirect would have sent), which the person may
 * follow or not; 400, under the hosted pages' CSP (no script at all). The name and the link are
 * the client's own choice, so both are escaped, and the link is shown only for a redirect URI the
 * client registered (http or https).
 */
function heldErrorPage(
  ctx: KoaContextWithOIDC,
  out: object,
  projectName: string,
  authOrigin: string,
): void {
  const oidc = ctx.oidc;
  const client = oidc.client;
  const params = (oidc.params ?? (ctx.method === 'POST' ? oidc.body : ctx.query) ?? {}) as Record<
    string,
    unknown
  >;
  const redirectUri = typeof params.redirect_uri === 'string' ? params.redirect_uri : null;
  let link: URL | null = null;
  if (client && redirectUri && client.redirectUriAllowed(redirectUri)) {
    const target = new URL(redirectUri);
    if (target.protocol === 'https:' || target.protocol === 'http:') {
      const response = new URLSearchParams();
      for (const [k, v] of Object.entries(out as Record<string, unknown>))
        if (typeof v === 'string') response.set(k, v);
      if (params.response_mode === 'fragment') target.hash = response.toString();
      else for (const [k, v] of response) target.searchParams.set(k, v);
      link = target;
    }
  }
  const error = (out as { error?: unknown }).error;
  const code = typeof error === 'string' ? error : 'server_error';
  const title = ERROR_TITLES[code] ?? 'The application sent an invalid request';
  const name = escapeHtml(client?.clientName ?? client?.clientId ?? 'The application');
  const nonce = randomToken(16);
  ctx.status = 400;
  ctx.type = 'html';
  ctx.set('Content-Security-Policy', hostedPagesCsp(nonce, authOrigin));
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cache-Control', 'no-store');
  const back = link
    ? `<p>If you trust it, you can go back to it: <a id="client-link" href="${escapeHtml(link.href)}" rel="noreferrer noopener">Return to ${name}</a> <span class="host">(${escapeHtml(link.host)})</span></p>`
    : '<p>Go back to the application and try again.</p>';
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style nonce="${nonce}">body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1b1e;line-height:1.5}.project,.host,.code{color:#495057;font-size:.875rem}a{color:#1864ab}@media (prefers-color-scheme:dark){body{background:#1a1b1e;color:#e9ecef}.project,.host,.code{color:#adb5bd}a{color:#74c0fc}}</style></head>
<body><main><p class="project">${escapeHtml(projectName)}</p><h1>${escapeHtml(title)}</h1>
<p role="alert">The sign-in could not be completed: <strong id="client-name">${name}</strong> sent a request that cannot be accepted.</p>
<p>This application registered itself with this sign-in service, so you are not sent back to it automatically.</p>
${back}
<p class="code">Error code: <code>${escapeHtml(code)}</code></p></main></body></html>`;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
