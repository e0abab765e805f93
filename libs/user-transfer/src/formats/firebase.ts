import { documentFormat } from './json';
import {
  bool,
  compact,
  DEFAULT_CONVERT_OPTIONS,
  e164,
  isoDate,
  jsonObject,
  lineOf,
  providerName,
  refused,
  text,
  type ConvertOptions,
  type ConvertedLine,
  type ImportLine,
} from './lines';

/** Firebase provider ids that are no social identity. */
const NOT_SOCIAL = new Set(['password', 'phone', 'anonymous', 'emaillink']);

/**
 * `firebase auth:export users.json --format=json` as our lines: `{"users": [...]}`, streamed user
 * by user (the file is never parsed whole). A user is line N of the report for the Nth user of the
 * file. Password hashes become `{"algorithm":"firebase_scrypt","hash","salt"}`, verified with the
 * project's scrypt parameters given to the import (signer key, salt separator, rounds, memory cost).
 */
export const firebaseLines = documentFormat(
  'users',
  'A Firebase export is one JSON object {"users": [...]}, as `firebase auth:export users.json --format=json` writes it.',
  fromFirebase,
);

/** One user of a Firebase export as our line. */
export function fromFirebase(
  u: Record<string, unknown>,
  options: ConvertOptions = DEFAULT_CONVERT_OPTIONS,
): ConvertedLine {
  const localId = text(u.localId);
  const email = text(u.email);
  if (!email)
    return refused(
      `The user${localId ? ` ${localId}` : ''} has no email address: Gatehouse signs users in by email (phone-only and anonymous users cannot be imported).`,
    );
  const providers = Array.isArray(u.providerUserInfo)
    ? (u.providerUserInfo as unknown[]).filter(
        (p): p is Record<string, unknown> => !!p && typeof p === 'object',
      )
    : [];
  const identities: NonNullable<ImportLine['identities']> = [];
  let phone: string | undefined;
  for (const p of providers) {
    const id = text(p.providerId)?.toLowerCase();
    if (!id) continue;
    if (id === 'phone') phone ??= e164(p.phoneNumber ?? p.rawId);
    if (NOT_SOCIAL.has(id)) continue;
    const subject = text(p.rawId);
    if (subject)
      identities.push({ provider: providerName(id), subject, email: text(p.email) ?? email });
  }
  // A phone enrolled as Firebase's SMS second factor stays a second factor here; the phone
  // provider's number (phone sign-in) becomes one only with `loginPhones`.
  const mfaPhone = Array.isArray(u.mfaInfo)
    ? (u.mfaInfo as Record<string, unknown>[]).map((m) => e164(m?.phoneInfo)).find((p) => p)
    : undefined;
  const hash = text(u.passwordHash);
  const line: ImportLine = {
    email,
    email_verified: bool(u.emailVerified) ?? false,
    // Disabled in Firebase: imported disabled.
    status: bool(u.disabled) === true ? 'disabled' : undefined,
    metadata: compact({
      display_name: text(u.displayName),
      photo_url: text(u.photoUrl),
      // Custom claims: a JSON text in the export.
      custom_attributes: jsonObject(u.customAttributes) ?? text(u.customAttributes),
    }),
    created_at: isoDate(u.createdAt),
    external_id: localId,
    password_hash: hash
      ? { algorithm: 'firebase_scrypt', hash, salt: text(u.salt) ?? '' }
      : undefined,
    identities: identities.length ? identities : undefined,
    phone_number: mfaPhone ?? (options.loginPhones ? (phone ?? e164(u.phoneNumber)) : undefined),
  };
  return lineOf(line);
}
