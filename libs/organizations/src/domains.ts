import { domainToASCII } from 'node:url';

/** The DNS name whose TXT record proves a domain (docs/api-contract.md §14). */
export const VERIFICATION_PREFIX = '_gatehouse-verification';
export const DOMAIN_MAX = 253;
export const DOMAIN_ENROLLMENTS = ['none', 'suggest', 'auto_join'] as const;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A domain as stored: lower case, an IDN in punycode (`domainToASCII`), no trailing dot, at least
 * two labels of letters, digits and inner hyphens, at most 253 characters; null when it is not one.
 */
export function normalizeDomain(input: string): string | null {
  const trimmed = input.trim().replace(/\.$/, '');
  if (!trimmed || trimmed.length > DOMAIN_MAX * 4) return null;
  const ascii = domainToASCII(trimmed.toLowerCase());
  if (!ascii || ascii.length > DOMAIN_MAX) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  // The top-level label is never all digits (that would be an IPv4 address).
  if (/^\d+$/.test(labels[labels.length - 1])) return null;
  return ascii;
}

/** The domain of an email address as domains are stored, or null. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at < 0 ? null : normalizeDomain(email.slice(at + 1));
}

export const verificationName = (domain: string) => `${VERIFICATION_PREFIX}.${domain}`;
