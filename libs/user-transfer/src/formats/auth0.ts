import type { Readable } from 'node:stream';
import { jsonArrayRecords } from './json';
import {
  bool,
  compact,
  DEFAULT_CONVERT_OPTIONS,
  e164,
  isoDate,
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

/** Auth0 connection strategies that are no social identity: the database, and passwordless by email or SMS. */
const NOT_SOCIAL = new Set(['auth0', 'email', 'sms']);

/**
 * Auth0's exports as our lines: the bulk user export (`POST /api/v2/jobs/users-exports` with
 * `format: json`: NDJSON, gzipped, which the CLI opens as it is) or the User Import / Export
 * extension's JSON, and the password hashes export Auth0 support hands over (NDJSON of
 * `{_id: {$oid}, email, email_verified, passwordHash, …}`). A JSON array is read element by element.
 */
export async function* auth0Lines(
  input: Readable,
  options: ConvertOptions = DEFAULT_CONVERT_OPTIONS,
): AsyncGenerator<ConvertedLine> {
  const { first, stream } = await sniff(input);
  yield* numbered(first === '[' ? jsonArrayRecords(stream) : ndjsonRecords(stream), (value) =>
    fromAuth0(value as Record<string, unknown>, options),
  );
}

/**
 * One Auth0 user (from either export) as our line. Auth0's `phone_number` is a profile or SMS
 * passwordless number (Guardian's SMS enrolments are not exported): a second factor here only
 * with `loginPhones`, and only when verified.
 */
export function fromAuth0(
  u: Record<string, unknown>,
  options: ConvertOptions = DEFAULT_CONVERT_OPTIONS,
): ConvertedLine {
  const email = text(u.email);
  const oid = oidOf(u._id);
  // The database connection's users are `auth0|<_id>`: the id the password hashes export names them by.
  const userId = text(u.user_id) ?? (oid ? `auth0|${oid}` : undefined);
  if (!email)
    return refused(
      `The user${userId ? ` ${userId}` : ''} has no email address: Gatehouse signs users in by email (phone-only or username-only users cannot be imported).`,
    );
  const line: ImportLine = {
    email,
    email_verified: bool(u.email_verified),
    // Blocked in Auth0: imported disabled, so it does not arrive active.
    status: bool(u.blocked) === true ? 'disabled' : undefined,
    username: text(u.username),
    metadata: compact({
      name: text(u.name),
      given_name: text(u.given_name),
      family_name: text(u.family_name),
      nickname: text(u.nickname),
      picture: text(u.picture),
      user_metadata: objectOrUndefined(u.user_metadata),
      app_metadata: objectOrUndefined(u.app_metadata),
    }),
    created_at: isoDate(u.created_at),
    external_id: userId,
    password_hash: text(u.passwordHash) ?? text(u.password_hash),
    identities: identitiesOf(u, email),
    phone_number:
      options.loginPhones && bool(u.phone_verified) === true ? e164(u.phone_number) : undefined,
  };
  if (line.identities?.length === 0) delete line.identities;
  return lineOf(line);
}

/** MongoDB's `{"$oid": "…"}` (the password hashes export) or a plain id string. */
function oidOf(value: unknown): string | undefined {
  if (value && typeof value === 'object' && '$oid' in value) return text(value.$oid);
  return text(value);
}

function objectOrUndefined(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * The social identities: each of `identities[]` whose provider is not the database or passwordless,
 * provider names mapped to ours (`google-oauth2` → `google`, `windowslive` → `microsoft`…), the
 * subject being the provider's own user id. Without `identities` (an export that did not ask for
 * them), a social `user_id` (`google-oauth2|123…`) still names one.
 */
function identitiesOf(u: Record<string, unknown>, email: string): ImportLine['identities'] {
  const found: NonNullable<ImportLine['identities']> = [];
  const add = (
    provider: string | undefined,
    subject: string | undefined,
    idEmail: string | undefined,
  ) => {
    if (!provider || !subject || NOT_SOCIAL.has(provider.toLowerCase())) return;
    const name = providerName(provider);
    if (!found.some((i) => i.provider === name && i.subject === subject))
      found.push({ provider: name, subject, email: idEmail ?? email });
  };
  if (Array.isArray(u.identities)) {
    for (const i of u.identities as unknown[]) {
      if (!i || typeof i !== 'object') continue;
      const id = i as Record<string, unknown>;
      // A custom OAuth2 connection's provider is `oauth2`: its connection names it.
      const provider = text(id.provider) === 'oauth2' ? text(id.connection) : text(id.provider);
      const profile = objectOrUndefined(id.profileData);
      add(provider, text(id.user_id), text(profile?.email));
    }
  } else {
    const userId = text(u.user_id);
    const bar = userId?.indexOf('|') ?? -1;
    if (userId && bar > 0) add(userId.slice(0, bar), userId.slice(bar + 1), undefined);
  }
  return found;
}
