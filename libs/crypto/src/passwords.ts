import { createHash } from 'node:crypto';
import * as bcrypt from 'bcrypt';
import { verifyImportedHash, type ImportedScheme } from './imported-hashes';

/** Ours (`bcrypt-sha256`), or an imported hash's own scheme until the next sign-in replaces it. */
export type PasswordScheme = 'bcrypt-sha256' | ImportedScheme;

/** NFKC, as docs/api-contract.md §3 requires, before any length check or hashing. */
export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

/**
 * bcrypt reads at most 72 bytes. The `bcrypt-sha256` scheme hashes the normalised password with
 * SHA-256 first (base64, 44 bytes, no NUL) so every byte of a long password counts.
 */
function preHash(password: string): string {
  return createHash('sha256').update(normalizePassword(password), 'utf8').digest('base64');
}

export async function hashPassword(
  password: string,
  cost: number,
): Promise<{ hash: string; scheme: PasswordScheme }> {
  return { hash: await bcrypt.hash(preHash(password), cost), scheme: 'bcrypt-sha256' };
}

/** Verifies against our scheme or an imported hash's own (plain `bcrypt` is an imported `$2a$/$2b$/$2y$` hash). */
export async function verifyPassword(
  password: string,
  hash: string,
  scheme: PasswordScheme,
): Promise<boolean> {
  if (scheme === 'bcrypt-sha256') return bcrypt.compare(preHash(password), hash);
  if (scheme === 'bcrypt') return bcrypt.compare(normalizePassword(password), hash);
  return verifyImportedHash(password, hash, scheme);
}

export function bcryptCostOf(hash: string): number {
  const m = /^\$2[abxy]\$(\d{2})\$/.exec(hash);
  return m ? Number(m[1]) : 0;
}

/**
 * A stored hash as an import line's `password_hash` (docs/api-contract.md §12): the string where the scheme
 * names itself, else the object form (ours and Firebase's carry their parameters).
 */
export function exportedPasswordHash(
  hash: string,
  scheme: PasswordScheme,
): string | Record<string, unknown> {
  if (scheme === 'bcrypt-sha256') return { algorithm: 'bcrypt_sha256', hash };
  if (scheme === 'firebase-scrypt')
    return { algorithm: 'firebase_scrypt', ...(JSON.parse(hash) as Record<string, unknown>) };
  if (scheme === 'sha256' || scheme === 'sha512' || scheme === 'md5')
    return { algorithm: scheme, ...(JSON.parse(hash) as Record<string, unknown>) };
  return hash;
}

/** True when a stored hash should be replaced at the next successful sign-in. */
export function needsRehash(hash: string, scheme: PasswordScheme, cost: number): boolean {
  return scheme !== 'bcrypt-sha256' || bcryptCostOf(hash) < cost;
}

/** A hash of a random password at the given cost, compared against when the user does not exist. */
export async function makeDummyHash(cost: number): Promise<string> {
  return bcrypt.hash(
    preHash(createHash('sha256').update(String(Math.random())).digest('hex')),
    cost,
  );
}
