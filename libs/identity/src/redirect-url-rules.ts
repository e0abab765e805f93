/** URL rules shared by the admin API (project redirect URLs, OAuth client redirect URIs) and the OpenID Connect provider's dynamic registration. */

export const MAX_URL_LENGTH = 2048;

/** `localhost` (and `*.localhost`), 127.0.0.0/8 and `[::1]`: the hosts that may use plain http. */
export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127(\.\d{1,3}){3}$/.test(hostname) ||
    hostname === '[::1]'
  );
}

export function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/**
 * A redirect URL (docs/api-contract.md §6): an absolute http(s) URL without wildcards, credentials or fragment;
 * plain `http` only for localhost/loopback. Returns what is wrong, or null.
 */
export function redirectUrlProblem(value: string): string | null {
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  if (value.includes('*')) return 'must not contain wildcards';
  if (/\s/.test(value)) return 'must not contain whitespace';
  const url = parseUrl(value);
  if (
    !url ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    !/^https?:\/\//i.test(value)
  ) {
    return 'must be an absolute http(s) URL such as https://app.example.com/callback';
  }
  if (url.username || url.password) return 'must not contain credentials';
  if (value.includes('#')) return 'must not contain a fragment';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return 'may use plain http only for localhost or loopback addresses';
  return null;
}
