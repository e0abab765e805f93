import type { KoaContextWithOIDC } from 'oidc-provider';
import { hostedPageTemplate } from '../hosted-pages/hosted-pages-files';
import { escapeHtml } from './oidc-error-pages';

/**
 * RP-initiated logout's confirmation (`logoutSource`): the hosted pages' sign-out page
 * (apps/auth-pages/public/sign-out.html, a plain form, no script) with the client's name and the
 * provider's form put in, under a strict CSP. The form posts to `end-session/confirm`, which
 * answers 303 to the client's `post_logout_redirect_uri`, and browsers apply `form-action` to that
 * redirect too: so the directive names, besides 'self', exactly the origins of the client's
 * registered post-logout redirect URIs (RP-Initiated Logout 1.0 §3).
 */
export function logoutPage(ctx: KoaContextWithOIDC, form: string): void {
  const postLogoutOrigins = new Set<string>();
  for (const uri of ctx.oidc.client?.postLogoutRedirectUris ?? []) {
    try {
      const { protocol, origin } = new URL(uri);
      if (protocol === 'https:' || protocol === 'http:') postLogoutOrigins.add(origin);
    } catch {
      // not a URL: nothing to allow
    }
  }
  const formAction = ["'self'", ...postLogoutOrigins].join(' ');
  ctx.set(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  );
  ctx.set('Cache-Control', 'no-store');
  ctx.body = signOutPageHtml(ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId, form);
}

/** The sign-out page for a client (by name, escaped) and the provider's form (its script taken out: the page runs none). */
export function signOutPageHtml(client: string | undefined, form: string): string {
  const question = client
    ? `${escapeHtml(client)} asks you to sign out.`
    : 'Do you want to sign out?';
  return hostedPageTemplate('sign-out.html')
    .replace('GATEHOUSE_SIGN_OUT_QUESTION', () => question)
    .replace('GATEHOUSE_SIGN_OUT_FORM', () => form.replace(/<script[\s\S]*?<\/script>/gi, ''));
}
