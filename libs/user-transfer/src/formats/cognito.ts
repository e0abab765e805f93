import { documentFormat } from './json';
import {
  bool,
  compact,
  DEFAULT_CONVERT_OPTIONS,
  e164,
  isoDate,
  lineOf,
  providerName,
  refused,
  text,
  type ConvertOptions,
  type ConvertedLine,
  type ImportLine,
} from './lines';

/** Cognito `UserStatus` values of users who may no longer sign in there. */
const DISABLED_STATUSES = new Set(['ARCHIVED', 'COMPROMISED']);
/** Cognito's standard profile attributes kept in metadata under their own names. */
const PROFILE = [
  'name',
  'given_name',
  'family_name',
  'middle_name',
  'nickname',
  'preferred_username',
  'picture',
  'locale',
  'zoneinfo',
  'website',
  'profile',
  'birthdate',
  'gender',
];

/**
 * An Amazon Cognito user pool's users as our lines: `aws cognito-idp list-users --user-pool-id P`
 * (`{"Users": [...]}`, the CLI fetching every page), streamed user by user. Cognito never exports
 * password hashes or TOTP secrets: the users arrive without a password (`needs_migration`) and
 * their first password sign-in asks the pool through lazy migration (docs/migration.md).
 */
export const cognitoLines = documentFormat(
  'Users',
  'A Cognito export is one JSON object {"Users": [...]}, as `aws cognito-idp list-users --user-pool-id …` prints it.',
  fromCognito,
);

/**
 * One Cognito user as our line: its `Attributes` (`[{Name, Value}]`, all text), `sub` as the
 * external id; a federated user's (`EXTERNAL_PROVIDER`, `Google_1047…`) provider and subject from
 * the `identities` attribute or the username. `phone_number` is the number of SMS MFA or of
 * sign-in, which the export does not tell apart: a second factor here only with `loginPhones`.
 */
export function fromCognito(
  u: Record<string, unknown>,
  options: ConvertOptions = DEFAULT_CONVERT_OPTIONS,
): ConvertedLine {
  const username = text(u.Username);
  const who = username ? ` ${username}` : '';
  const attributes = new Map<string, string>();
  if (Array.isArray(u.Attributes)) {
    for (const a of u.Attributes as unknown[]) {
      if (!a || typeof a !== 'object') continue;
      const name = text((a as Record<string, unknown>).Name);
      const value = text((a as Record<string, unknown>).Value);
      if (name && value !== undefined) attributes.set(name, value);
    }
  }
  const email = attributes.get('email');
  if (!email)
    return refused(
      `The user${who} has no email attribute: Gatehouse signs users in by email (phone-only and username-only users cannot be imported).`,
    );
  const custom = Object.fromEntries(
    [...attributes]
      .filter(([k]) => k.startsWith('custom:'))
      .map(([k, v]) => [k.slice('custom:'.length), v]),
  );
  const line: ImportLine = {
    email,
    email_verified: bool(attributes.get('email_verified')) ?? false,
    // Disabled in the pool (`Enabled: false`), or a user Cognito no longer lets sign in (`ARCHIVED`, `COMPROMISED`): imported disabled.
    status:
      bool(u.Enabled) === false || DISABLED_STATUSES.has(text(u.UserStatus) ?? '')
        ? 'disabled'
        : undefined,
    metadata: compact({
      ...Object.fromEntries(PROFILE.map((k) => [k, attributes.get(k)])),
      custom: Object.keys(custom).length ? custom : undefined,
      // The pool's username when it is not the sub (pools where users sign in by username): what a lazy-migration endpoint asks Cognito with.
      cognito_username: username !== attributes.get('sub') ? username : undefined,
    }),
    created_at: cognitoDate(u.UserCreateDate),
    external_id: attributes.get('sub') ?? username,
    identities: identitiesOf(
      attributes.get('identities'),
      text(u.UserStatus) === 'EXTERNAL_PROVIDER' ? username : undefined,
      email,
    ),
    phone_number:
      options.loginPhones && bool(attributes.get('phone_number_verified')) === true
        ? e164(attributes.get('phone_number'))
        : undefined,
  };
  return lineOf(line);
}

/** AWS CLI v2 prints ISO 8601 (`2024-01-15T10:30:00.123000+00:00`); v1 and the SDKs' JSON, seconds since the epoch. */
function cognitoDate(value: unknown): unknown {
  const seconds =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{9,11}(\.\d+)?$/.test(value.trim())
        ? Number(value)
        : null;
  return seconds !== null && Number.isFinite(seconds)
    ? new Date(Math.round(seconds * 1000)).toISOString()
    : isoDate(value);
}

/** The `identities` attribute (JSON text of `[{providerName, userId}]`), else a federated username `Provider_subject`. */
function identitiesOf(
  json: string | undefined,
  federatedUsername: string | undefined,
  email: string,
): ImportLine['identities'] {
  const found: NonNullable<ImportLine['identities']> = [];
  if (json) {
    try {
      const list = JSON.parse(json) as unknown;
      if (Array.isArray(list)) {
        for (const i of list as Record<string, unknown>[]) {
          const provider = text(i?.providerName);
          const subject = text(i?.userId);
          if (provider && subject) found.push({ provider: providerName(provider), subject, email });
        }
      }
    } catch {
      // Not JSON: fall back to the username.
    }
  }
  if (found.length === 0 && federatedUsername) {
    const at = federatedUsername.indexOf('_');
    if (at > 0 && at < federatedUsername.length - 1)
      found.push({
        provider: providerName(federatedUsername.slice(0, at)),
        subject: federatedUsername.slice(at + 1),
        email,
      });
  }
  return found.length ? found : undefined;
}
