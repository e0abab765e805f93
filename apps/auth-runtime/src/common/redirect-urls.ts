import type { ResolvedProject } from '@gatehouse/identity';

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
 */
export function matchRedirectUrl(project: Pick<ResolvedProject, 'redirectUrls'>, candidate: string): string | null {
  const wanted = canonicalUrl(candidate);
  if (!wanted) return null;
  for (const registered of project.redirectUrls) if (canonicalUrl(registered) === wanted) return registered;
  return null;
}

/** Appends query parameters to a redirect target, keeping what it already has. */
export function withQuery(target: string, params: Record<string, string>): string {
  const u = new URL(target);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}
