import type { Readable } from 'node:stream';
import { csvRecords } from './csv';
import {
  DEFAULT_CONVERT_OPTIONS,
  e164,
  isoDate,
  jsonObject,
  lineOf,
  ndjsonRecords,
  numbered,
  providerName,
  refused,
  sniff,
  text,
  type ConvertOptions,
  type ConvertedLine,
  type ImportLine,
} from './lines';

/** `auth.identities` providers that are no social identity. */
const NOT_SOCIAL = new Set(['email', 'phone', 'anonymous']);

/** A TOTP secret as Supabase stores it unencrypted (base32); an encrypted one is a JSON text. */
const BASE32 = /^[A-Z2-7]+=*$/i;

/**
 * Supabase's `auth.users` rows as our lines: a CSV with a header (`\copy (select * from auth.users)
 * to 'users.csv' csv header`) or NDJSON (`select row_to_json(u) from auth.users u`), told apart by
 * the first character. A row may carry an `identities` column (a JSON array of its `auth.identities`
 * rows, docs/migration.md gives the query): its social identities are linked. The query's
 * `mfa_totp_secret` and `mfa_phone` columns (the user's verified `auth.mfa_factors`) keep MFA.
 */
export async function* supabaseLines(
  input: Readable,
  options: ConvertOptions = DEFAULT_CONVERT_OPTIONS,
  now: Date = new Date(),
): AsyncGenerator<ConvertedLine> {
  const { first, stream } = await sniff(input);
  yield* numbered(first === '{' ? ndjsonRecords(stream) : csvRecords(stream), (value) =>
    fromSupabase(value as Record<string, unknown>, options, now),
  );
}

/**
 * One `auth.users` row (CSV cells are text; JSON columns are JSON text there) as our line. A
 * verified phone factor (`mfa_phone`) is an SMS second factor; `phone`, the number users sign in
 * with, becomes one only with `loginPhones`. A TOTP secret Supabase encrypted (its database
 * encryption) cannot be carried: the user is refused rather than imported without their second factor.
 */
export function fromSupabase(
  row: Record<string, unknown>,
  options: ConvertOptions = DEFAULT_CONVERT_OPTIONS,
  now: Date = new Date(),
): ConvertedLine {
  const id = text(row.id);
  const who = id ? ` ${id}` : '';
  if (text(row.deleted_at))
    return refused(`The user${who} is deleted in Supabase (deleted_at is set): not imported.`);
  // Banned until a time still to come: imported disabled (a ban that has ended is no ban). Gatehouse has no ban with an end: an admin enables the user.
  const bannedUntil = isoDate(row.banned_until);
  const banned = typeof bannedUntil === 'string' && Date.parse(bannedUntil) > now.getTime();
  const email = text(row.email);
  if (!email)
    return refused(
      `The user${who} has no email address: Gatehouse signs users in by email (phone-only and anonymous users cannot be imported).`,
    );
  const totpSecret = text(row.mfa_totp_secret);
  if (totpSecret !== undefined && !BASE32.test(totpSecret)) {
    return refused(
      `The user${who} has a TOTP factor whose secret Supabase stored encrypted: decrypt it into mfa_totp_secret (base32), or leave the column out to import the user without TOTP.`,
    );
  }
  const line: ImportLine = {
    email,
    // Supabase confirms an email by setting the time it was confirmed.
    email_verified: text(row.email_confirmed_at) !== undefined,
    status: banned ? 'disabled' : undefined,
    metadata: nonEmpty(jsonObject(row.raw_user_meta_data)),
    created_at: isoDate(row.created_at),
    external_id: id,
    password_hash: text(row.encrypted_password),
    identities: identitiesOf(row.identities, email),
    totp_secret: totpSecret,
    phone_number:
      e164(row.mfa_phone) ??
      (options.loginPhones && text(row.phone_confirmed_at) !== undefined
        ? e164(row.phone)
        : undefined),
  };
  return lineOf(line);
}

function nonEmpty(o: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return o && Object.keys(o).length ? o : undefined;
}

/** `auth.identities` rows: `provider`, the subject in `provider_id` (or `identity_data.sub` before it existed), the email. */
function identitiesOf(value: unknown, email: string): ImportLine['identities'] {
  let rows = value;
  if (typeof rows === 'string') {
    try {
      rows = JSON.parse(rows) as unknown;
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(rows)) return undefined;
  const found: NonNullable<ImportLine['identities']> = [];
  for (const r of rows as unknown[]) {
    if (!r || typeof r !== 'object') continue;
    const row = r as Record<string, unknown>;
    const provider = text(row.provider);
    const data = jsonObject(row.identity_data);
    const subject = text(row.provider_id) ?? text(data?.sub);
    if (!provider || !subject || NOT_SOCIAL.has(provider.toLowerCase())) continue;
    found.push({
      provider: providerName(provider),
      subject,
      email: text(data?.email) ?? text(row.email) ?? email,
    });
  }
  return found.length ? found : undefined;
}
