import { isLoopbackHost, MAX_URL_LENGTH, parseUrl } from '../redirect-url-rules';

/** Scopes of OpenID Connect itself: an API resource's scopes are its own, never these. */
export const OIDC_STANDARD_SCOPES = [
  'openid',
  'profile',
  'email',
  'offline_access',
  'organizations',
] as const;
export const API_RESOURCE_MAX_SCOPES = 50;
/** RFC 6749 §3.3 scope-token: printable ASCII without space, `"` or `\`. */
export const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/;

/**
 * An API resource's identifier (RFC 8707 §2): an absolute https URL (plain http only for
 * localhost or a loopback address), without credentials, query or fragment. Returns what is
 * wrong, or null.
 */
export function apiResourceIdentifierProblem(value: string): string | null {
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  if (/\s/.test(value) || value.includes('*')) return 'must not contain whitespace or wildcards';
  const url = parseUrl(value);
  if (
    !url ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    !/^https?:\/\//i.test(value)
  ) {
    return 'must be an absolute https URL such as https://api.example.com/';
  }
  if (url.username || url.password) return 'must not contain credentials';
  if (value.includes('#')) return 'must not contain a fragment';
  if (value.includes('?')) return 'must not contain a query';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return 'may use plain http only for localhost or loopback addresses';
  return null;
}

/**
 * The form an identifier is stored and matched in: the URL as parsed (`https://API.example.com`
 * is `https://api.example.com/`), so a `resource` parameter matches whichever spelling the client
 * sends. Null for a value that is not a URL.
 */
export function normalizeApiResourceIdentifier(value: string): string | null {
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH) return null;
  return parseUrl(value)?.href ?? null;
}
