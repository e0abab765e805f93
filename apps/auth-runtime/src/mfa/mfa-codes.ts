import { randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verifySync } from 'otplib';
import { hmacSha256 } from '@gatehouse/crypto';

export const TOTP_PERIOD_SECONDS = 30;
export const BACKUP_CODE_COUNT = 10;
const BACKUP_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A 160-bit TOTP secret, base32 (RFC 4226 recommends 160 bits). */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

export function totpUri(issuer: string, account: string, secret: string): string {
  return generateURI({ issuer, label: account, secret });
}

/**
 * The time step of `code` if it is valid within ±1 step of `nowSeconds`, else null. The caller
 * claims the step atomically so a code is accepted once.
 */
export function matchTotpStep(secret: string, code: string, nowSeconds: number): number | null {
  const result = verifySync({
    secret,
    token: code,
    epoch: nowSeconds,
    epochTolerance: TOTP_PERIOD_SECONDS,
    period: TOTP_PERIOD_SECONDS,
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** Ten backup codes like `k7pqz-3mwxa` (about 50 bits each). */
export function newBackupCodes(): string[] {
  return Array.from({ length: BACKUP_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)]
      .map((b) => BACKUP_ALPHABET[b % BACKUP_ALPHABET.length])
      .join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

export function normalizeBackupCode(code: string): string | null {
  const c = code.trim().toLowerCase().replace(/[\s-]/g, '');
  return /^[a-z0-9]{10}$/.test(c) ? c : null;
}

/** Backup codes and SMS codes are stored as keyed HMACs, bound to their user. */
export function codeHash(key: Buffer, userId: string, code: string): string {
  return hmacSha256(key, `${userId}\u0000${code}`).toString('hex');
}
