import { ScureBase32Plugin } from 'otplib';
import { documentFormat } from './json';
import {
  bool,
  compact,
  DEFAULT_CONVERT_OPTIONS,
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

/** Keycloak's PBKDF2 providers and the PHC name our import reads them under. */
const PBKDF2: Record<string, string> = {
  pbkdf2: 'pbkdf2',
  'pbkdf2-sha256': 'pbkdf2-sha256',
  'pbkdf2-sha512': 'pbkdf2-sha512',
};
const USERNAME = /^[A-Za-z0-9_.-]{3,32}$/;
const base32 = new ScureBase32Plugin();

/**
 * A Keycloak realm's users as our lines: `kc.sh export --realm R --users realm_file --file R.json`
 * (the realm file, `users` among its members) or one `R-users-N.json` of `--users different_files`
 * (`{"realm", "users"}`), streamed user by user. Credentials come as Keycloak stores them: a
 * password's `secretData`/`credentialData` (JSON texts) become the PHC string of its algorithm
 * (PBKDF2-SHA1/256/512, Argon2id/i, a bcrypt provider's modular crypt), an OTP credential's secret
 * our base32 TOTP secret, `federatedIdentities` social identities.
 */
export const keycloakLines = documentFormat(
  'users',
  'A Keycloak export is one JSON object with "users": the realm file of `kc.sh export --users realm_file`, or a users file of `--users different_files`.',
  fromKeycloak,
);

/** One Keycloak user representation as our line (Keycloak has no standard phone number: `options` has nothing to choose here). */
export function fromKeycloak(
  u: Record<string, unknown>,
  _options: ConvertOptions = DEFAULT_CONVERT_OPTIONS,
): ConvertedLine {
  const id = text(u.id);
  const who = id ? ` ${id}` : '';
  const serviceAccount = text(u.serviceAccountClientId);
  if (serviceAccount)
    return refused(
      `The user${who} is the service account of client ${serviceAccount}: not a person, not imported.`,
    );
  const email = text(u.email);
  if (!email)
    return refused(
      `The user${who} has no email address: Gatehouse signs users in by email (username-only users cannot be imported).`,
    );
  const credentials = Array.isArray(u.credentials)
    ? (u.credentials as unknown[]).filter(
        (c): c is Record<string, unknown> => !!c && typeof c === 'object',
      )
    : [];
  // A password Keycloak asks to change at the next sign-in (a temporary one an administrator set)
  // is not carried: it must not become a lasting one here. The user then has none (a reset, or lazy migration).
  const mustChange =
    Array.isArray(u.requiredActions) &&
    (u.requiredActions as unknown[]).includes('UPDATE_PASSWORD');
  const password = credentials.find((c) => text(c.type) === 'password');
  const hash = password && !mustChange ? passwordHashOf(password) : undefined;
  if (typeof hash === 'object') return refused(`The user${who} has ${hash.refusal}`);
  // Keycloak before 12 called the type `totp`; the user is refused rather than imported without a second factor it cannot read.
  const otp = credentials.find((c) => text(c.type) === 'otp' || text(c.type) === 'totp');
  const totp = otp ? totpSecretOf(otp) : undefined;
  if (typeof totp === 'object') return refused(`The user${who} has ${totp.refusal}`);
  const username = text(u.username);
  const keepUsername =
    username !== undefined &&
    USERNAME.test(username) &&
    username.toLowerCase() !== email.toLowerCase();
  const line: ImportLine = {
    email,
    email_verified: bool(u.emailVerified) ?? false,
    // Disabled in Keycloak (`enabled: false`): imported disabled.
    status: bool(u.enabled) === false ? 'disabled' : undefined,
    username: keepUsername ? username : undefined,
    metadata: compact({
      first_name: text(u.firstName),
      last_name: text(u.lastName),
      // A username our rules do not take (an email of another address, spaces…) is kept here.
      keycloak_username:
        !keepUsername && username && username.toLowerCase() !== email.toLowerCase()
          ? username
          : undefined,
      attributes:
        u.attributes && typeof u.attributes === 'object' && !Array.isArray(u.attributes)
          ? u.attributes
          : undefined,
    }),
    created_at: isoDate(u.createdTimestamp),
    external_id: id,
    password_hash: hash,
    totp_secret: totp,
    identities: identitiesOf(u.federatedIdentities, email),
  };
  return lineOf(line);
}

/** A JSON text (as Keycloak exports `secretData` and `credentialData`) or an object. */
function data(value: unknown): Record<string, unknown> {
  return jsonObject(value) ?? {};
}

/** A Keycloak `additionalParameters` value: `{"memory": ["7168"]}`. */
function param(parameters: Record<string, unknown>, key: string): string | undefined {
  const v = parameters[key];
  return text(Array.isArray(v) ? v[0] : v);
}

const unpadded = (b64: string) => b64.replace(/=+$/, '');

/** The password credential as a hash string our import reads, or why it cannot be one. */
function passwordHashOf(
  credential: Record<string, unknown>,
): string | { refusal: string } | undefined {
  const secret = data(credential.secretData);
  const params = data(credential.credentialData);
  const algorithm = text(params.algorithm)?.toLowerCase();
  const value = text(secret.value);
  const salt = text(secret.salt);
  const iterations =
    typeof params.hashIterations === 'number'
      ? params.hashIterations
      : Number(text(params.hashIterations));
  if (!value) return undefined;
  // A bcrypt provider (an extension) stores the modular crypt string itself.
  if (/^\$2[aby]\$/.test(value)) return value;
  if (algorithm && PBKDF2[algorithm] && salt && Number.isInteger(iterations))
    return `$${PBKDF2[algorithm]}$i=${iterations}$${salt}$${value}`;
  if (algorithm === 'argon2' && salt && Number.isInteger(iterations)) {
    const extra = data(params.additionalParameters);
    const type = param(extra, 'type') ?? 'id';
    const version = param(extra, 'version') ?? '1.3';
    if ((type !== 'id' && type !== 'i') || version !== '1.3')
      return {
        refusal: `an Argon2${type} version ${version} password, which Gatehouse does not import (Argon2id and Argon2i 1.3 are): remove the credential to import the user without a password.`,
      };
    return `$argon2${type}$v=19$m=${param(extra, 'memory') ?? '7168'},t=${iterations},p=${param(extra, 'parallelism') ?? '1'}$${unpadded(salt)}$${unpadded(value)}`;
  }
  return {
    refusal: `a password hashed by Keycloak's ${algorithm ?? 'unnamed'} provider, which Gatehouse does not import (pbkdf2, pbkdf2-sha256, pbkdf2-sha512, argon2 and bcrypt are): remove the credential to import the user without a password.`,
  };
}

/**
 * The OTP credential as our base32 TOTP secret. Keycloak keeps the secret as the text whose bytes
 * the authenticator app has (its QR code shows their base32), or already base32 where
 * `secretEncoding` says so. Only the codes our TOTP checks (6 digits, 30 s, SHA-1) can keep working.
 */
function totpSecretOf(credential: Record<string, unknown>): string | { refusal: string } {
  // Keycloak 12+ keeps the secret in `secretData` and the settings in `credentialData`; older exports have both on the credential.
  const secret = text(data(credential.secretData).value) ?? text(credential.value);
  if (!secret)
    return {
      refusal:
        'an OTP credential whose secret the export does not carry (an older or encrypted layout): remove the credential to import the user without it.',
    };
  const params =
    credential.credentialData !== undefined
      ? data(credential.credentialData)
      : { subType: 'totp', ...credential };
  const digits = Number(params.digits ?? 6);
  const period = Number(params.period ?? 30);
  const algorithm = text(params.algorithm) ?? 'HmacSHA1';
  if (
    (text(params.subType) ?? 'totp') !== 'totp' ||
    digits !== 6 ||
    period !== 30 ||
    algorithm !== 'HmacSHA1'
  ) {
    return {
      refusal: `an OTP credential (${text(params.subType) ?? 'unknown'}, ${digits} digits, ${period} s, ${algorithm}) Gatehouse cannot check (TOTP, 6 digits, 30 s, HmacSHA1): remove the credential to import the user without it.`,
    };
  }
  return text(params.secretEncoding)?.toUpperCase() === 'BASE32'
    ? secret.toUpperCase()
    : base32.encode(new TextEncoder().encode(secret));
}

/** `federatedIdentities`: the identity provider's alias (`google`, `github`…), the provider's user id as the subject. */
function identitiesOf(value: unknown, email: string): ImportLine['identities'] {
  if (!Array.isArray(value)) return undefined;
  const found: NonNullable<ImportLine['identities']> = [];
  for (const f of value as unknown[]) {
    if (!f || typeof f !== 'object') continue;
    const r = f as Record<string, unknown>;
    const provider = text(r.identityProvider);
    const subject = text(r.userId);
    if (!provider || !subject) continue;
    const userName = text(r.userName);
    found.push({
      provider: providerName(provider),
      subject,
      email: userName?.includes('@') ? userName : email,
    });
  }
  return found.length ? found : undefined;
}
