import type { ValidationOptions } from 'class-validator';
import type { PrivateUrlMode } from '@gatehouse/config';
import { OAUTH_PRIVATE_ADDRESS_MESSAGE, refusedUrlHost } from '@gatehouse/outbound';
import {
  isLoopbackHost,
  MAX_URL_LENGTH,
  parseUrl as parse,
  redirectUrlProblem,
} from '@gatehouse/identity';
import type { FieldErrors } from '@gatehouse/problem-details';
import { ruleDecorator } from '../common/rule-decorator';

export { isLoopbackHost, redirectUrlProblem };

/**
 * An allowed origin (docs/api-contract.md §6): exactly `scheme://host[:port]` as a browser sends it in `Origin`
 * — no path, query, trailing slash, credentials or wildcard; `https`, or `http` for loopback only.
 * Returns what is wrong, or null.
 */
export function originProblem(value: string): string | null {
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  if (value.includes('*')) return 'must not contain wildcards';
  const url = parse(value);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    return 'must be an origin such as https://app.example.com';
  if (url.origin !== value)
    return 'must be exactly scheme://host[:port], without path, query or trailing slash';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return 'may use plain http only for localhost or loopback addresses';
  return null;
}

/**
 * Whether `candidate` equals one of `registered` as a string after URL parsing (docs/api-contract.md
 * §5: no wildcards, no prefix matching), as the runtime matches a `redirect_url`.
 */
export function isRegisteredRedirectUrl(registered: readonly string[], candidate: string): boolean {
  const wanted = parse(candidate)?.toString();
  return wanted !== undefined && registered.some((r) => parse(r)?.toString() === wanted);
}

/**
 * An absolute http(s) URL of an identity provider endpoint (any host name: self-hosted providers;
 * which addresses the server may call depends on the config, see `providerAddressErrors`).
 */
export function providerUrlProblem(value: string): string | null {
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  const url = parse(value);
  if (
    !url ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    !/^https?:\/\//i.test(value) ||
    /\s/.test(value)
  ) {
    return 'must be an absolute http(s) URL';
  }
  if (url.username || url.password) return 'must not contain credentials';
  return null;
}

/** Provider settings whose URL the auth runtime itself calls; `authorization_url` is visited by browsers only. */
const SERVER_CALLED_PROVIDER_URLS = ['issuer', 'token_url', 'userinfo_url', 'emails_url'] as const;

/**
 * SSRF (issue 20): the provider URLs the runtime calls, refused when their host is a literal
 * address or a name that `mode` (OAUTH_ALLOW_PRIVATE_URLS) refuses, each under its dotted path
 * (`settings.oauth_providers.google.issuer`). Names are not resolved here: the runtime judges the
 * addresses a name resolves to when it connects. Runs after the DTO checked each URL's form.
 */
export function providerAddressErrors(
  providers: object | null | undefined,
  mode: PrivateUrlMode,
  path = 'settings.oauth_providers',
): FieldErrors {
  const errors: FieldErrors = {};
  for (const [name, cfg] of Object.entries(providers ?? {})) {
    if (!cfg || typeof cfg !== 'object') continue;
    for (const field of SERVER_CALLED_PROVIDER_URLS) {
      const value = (cfg as Record<string, unknown>)[field];
      const url = typeof value === 'string' ? parse(value) : null;
      if (url && refusedUrlHost(url, mode))
        errors[`${path}.${name}.${field}`] = [OAUTH_PRIVATE_ADDRESS_MESSAGE];
    }
  }
  return errors;
}

type Rule = (value: string) => string | null;

function listProblem(rule: Rule, value: unknown, maxItems = 100): string | null {
  if (!Array.isArray(value)) return 'must be an array of strings';
  if (value.length > maxItems) return `must have at most ${maxItems} items`;
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'string') return `item ${i} must be a string`;
    const problem = rule(item);
    if (problem) return `item ${i} (${JSON.stringify(item.slice(0, 100))}) ${problem}`;
  }
  return null;
}

const single = (rule: Rule) => (value: unknown) =>
  typeof value === 'string' ? rule(value) : 'must be a string';

export const IsOriginList = (o?: ValidationOptions) =>
  ruleDecorator('isOriginList', (v) => listProblem(originProblem, v), o);
export const IsRedirectUrlList = (o?: ValidationOptions, maxItems = 100) =>
  ruleDecorator('isRedirectUrlList', (v) => listProblem(redirectUrlProblem, v, maxItems), o);
export const IsRedirectUrl = (o?: ValidationOptions) =>
  ruleDecorator('isRedirectUrl', single(redirectUrlProblem), o);
export const IsProviderUrl = (o?: ValidationOptions) =>
  ruleDecorator('isProviderUrl', single(providerUrlProblem), o);
