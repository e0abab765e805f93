import { projectOidcSettings, type ResolvedProject } from '@gatehouse/identity';

/** The pages the auth runtime hosts for a project's OpenID Connect provider (docs/oidc.md, "Hosted pages"). */
export type HostedPage = 'sign-in' | 'consent' | 'signed-out' | 'error';

/** `{PUBLIC_AUTH_URL}/v1/projects/{id}/pages/{page}`. */
export function hostedPageUrl(publicAuthUrl: string, projectId: string, page: HostedPage): string {
  return `${publicAuthUrl.replace(/\/+$/, '')}/v1/projects/${projectId}/pages/${page}`;
}

/** A URL in its canonical string form after parsing, or null when it is not an absolute http(s) URL. */
export function canonicalUrl(value: string): string | null {
  try {
    const u = new URL(value);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    if (u.username || u.password) return null;
    return u.toString();
  } catch {
    return null;
  }
}

/**
 * docs/api-contract.md §5: a `redirect_url` must equal, as a string after URL parsing, one of the project's
 * registered redirect URLs. No wildcards, no prefix matching. Returns the registered form or null.
 * Given `publicAuthUrl`, a project whose OpenID Connect provider is on also has its hosted sign-in
 * page registered (social sign-in and magic links come back to it), and only that page.
 */
export function matchRedirectUrl(
  project: Pick<ResolvedProject, 'id' | 'redirectUrls' | 'settings'>,
  candidate: string,
  publicAuthUrl?: string,
): string | null {
  const wanted = canonicalUrl(candidate);
  if (!wanted) return null;
  for (const registered of project.redirectUrls)
    if (canonicalUrl(registered) === wanted) return registered;
  if (publicAuthUrl !== undefined && projectOidcSettings(project.settings ?? {}).enabled) {
    const page = hostedPageUrl(publicAuthUrl, project.id, 'sign-in');
    if (canonicalUrl(page) === wanted) return page;
  }
  return null;
}

/** Appends query parameters to a redirect target, keeping what it already has. */
export function withQuery(target: string, params: Record<string, string>): string {
  const u = new URL(target);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}
