import type { Readable } from 'node:stream';
import { csvRecords } from './csv';
import {
  bool,
  compact,
  DEFAULT_CONVERT_OPTIONS,
  e164,
  isoDate,
  jsonObject,
  lineOf,
  numbered,
  refused,
  text,
  type ConvertOptions,
  type ConvertedLine,
  type ImportLine,
} from './lines';

/**
 * Clerk's `password_hasher` values whose `password_digest` is a string our import reads as it is:
 * bcrypt's modular crypt, Argon2's PHC string, Django's `pbkdf2_sha256$…`. Clerk's other hashers
 * (for users Clerk itself imported) write digests in Clerk's own layouts, which we do not guess at.
 */
const DIGEST_AS_IS = new Set(['bcrypt', 'argon2i', 'argon2id', 'pbkdf2_sha256_django']);

/**
 * Clerk's CSV export (Dashboard → the instance's Settings → User exports) as our lines: `id`,
 * `first_name`, `last_name`, `username`, `primary_email_address`, `primary_phone_number`,
 * `verified_email_addresses`, `unverified_email_addresses`, `verified_phone_numbers`,
 * `unverified_phone_numbers`, `totp_secret`, `password_digest`, `password_hasher` (and
 * `created_at` or metadata columns where an export has them). Line numbers are the file's.
 */
export async function* clerkLines(
  input: Readable,
  options: ConvertOptions = DEFAULT_CONVERT_OPTIONS,
): AsyncGenerator<ConvertedLine> {
  yield* numbered(csvRecords(input), (value) =>
    fromClerk(value as Record<string, unknown>, options),
  );
}

/** The addresses of a list cell (Clerk separates them; we accept `|`, `,`, `;` or spaces). */
function list(value: unknown): string[] {
  return (text(value) ?? '').split(/[|,;\s]+/).filter(Boolean);
}

/**
 * One row of Clerk's export as our line. The CSV does not say which numbers were second factors
 * (Clerk's phones also sign in): the primary one, when verified, is an SMS factor here only with
 * `loginPhones`.
 */
export function fromClerk(
  row: Record<string, unknown>,
  options: ConvertOptions = DEFAULT_CONVERT_OPTIONS,
): ConvertedLine {
  const id = text(row.id);
  const who = id ? ` ${id}` : '';
  const email =
    text(row.primary_email_address) ??
    list(row.verified_email_addresses)[0] ??
    list(row.unverified_email_addresses)[0];
  if (!email)
    return refused(
      `The user${who} has no email address: Gatehouse signs users in by email (phone-only and username-only users cannot be imported).`,
    );
  const digest = text(row.password_digest);
  const hasher = text(row.password_hasher)?.toLowerCase();
  if (digest && !DIGEST_AS_IS.has(hasher ?? '')) {
    return refused(
      `The user${who} has a password digest from Clerk's ${hasher ?? 'unnamed'} hasher, which Gatehouse does not import (bcrypt, argon2i, argon2id and pbkdf2_sha256_django are): remove the digest to import the user without a password.`,
    );
  }
  const verified = list(row.verified_email_addresses).map((e) => e.toLowerCase());
  const phone = text(row.primary_phone_number);
  const verifiedPhones = list(row.verified_phone_numbers);
  const line: ImportLine = {
    email,
    email_verified: verified.includes(email.toLowerCase()),
    // Banned or locked in Clerk (columns of some exports): imported disabled.
    status: bool(row.banned) === true || bool(row.locked) === true ? 'disabled' : undefined,
    username: text(row.username),
    metadata: compact({
      first_name: text(row.first_name),
      last_name: text(row.last_name),
      public_metadata: jsonObject(row.public_metadata),
      unsafe_metadata: jsonObject(row.unsafe_metadata),
      private_metadata: jsonObject(row.private_metadata),
    }),
    created_at: isoDate(row.created_at),
    external_id: id,
    password_hash: digest,
    totp_secret: text(row.totp_secret),
    phone_number:
      options.loginPhones && phone && verifiedPhones.includes(phone) ? e164(phone) : undefined,
  };
  return lineOf(line);
}
