import { randomToken } from '@gatehouse/crypto';

export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX = 64;

/** A URL-safe slug from a name: ASCII letters and digits, words joined by `-`; random when nothing is left. */
export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX - 7)
    .replace(/-+$/g, '');
  return base || `org-${randomSuffix()}`;
}

/** Six lower-case letters and digits, to tell apart organizations of the same name. */
export function randomSuffix(): string {
  return randomToken(8)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .padEnd(6, '0')
    .slice(0, 6);
}
