import type { OAuthProvider } from '@gatehouse/identity';
import type { GitHubProfileDocuments } from './strategies/github.strategy';

/** Who the provider says the user is: a stable subject, and an email with its verified flag. */
export interface ProviderIdentity {
  provider: OAuthProvider;
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

export class ProviderProfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderProfileError';
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A plausible address, trimmed; anything else counts as no email at all. */
export function providerEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const email = value.trim();
  if (email.length < 3 || email.length > 320 || !email.isWellFormed()) return null;
  if (!/^[^\s@\u0000-\u001f]+@[^\s@\u0000-\u001f]+$/.test(email)) return null;
  return email;
}

/** Apple sends `"true"` as a string; the others a boolean, and a string from them asserts nothing. */
const asserted = (provider: OAuthProvider, v: unknown): boolean =>
  v === true || (provider === 'apple' && v === 'true');

/**
 * From validated ID token claims (Google, Microsoft, Apple), completed by the userinfo document
 * when the token carries no email. Microsoft rarely asserts `email_verified`; its `xms_edov`
 * (email domain owner verified) counts as the same assertion.
 */
export function identityFromClaims(
  provider: OAuthProvider,
  claims: Record<string, unknown>,
  userinfo: unknown = null,
): ProviderIdentity {
  const subject = claims.sub as string;
  let email = providerEmail(claims.email);
  let verified =
    email !== null &&
    (asserted(provider, claims.email_verified) ||
      (provider === 'microsoft' && asserted(provider, claims.xms_edov)));
  if (isRecord(userinfo) && userinfo.sub !== subject)
    throw new ProviderProfileError('userinfo is about another subject');
  if (email === null && isRecord(userinfo)) {
    email = providerEmail(userinfo.email);
    verified = email !== null && asserted(provider, userinfo.email_verified);
  }
  return { provider, subject, email, emailVerified: verified };
}

/**
 * GitHub: the subject is the numeric account id of `/user`; the email is the primary address of
 * `/user/emails`, verified only when GitHub says so (the public `/user` email is ignored).
 */
export function identityFromGitHub(docs: GitHubProfileDocuments): ProviderIdentity {
  const user = docs.user;
  if (!isRecord(user)) throw new ProviderProfileError('GitHub user document is not an object');
  const id = user.id;
  const subject =
    typeof id === 'number' && Number.isSafeInteger(id) && id > 0
      ? String(id)
      : typeof id === 'string' && /^[1-9]\d{0,19}$/.test(id)
        ? id
        : null;
  if (!subject) throw new ProviderProfileError('GitHub user has no id');
  if (!Array.isArray(docs.emails))
    throw new ProviderProfileError('GitHub emails document is not a list');
  const primary = (docs.emails as unknown[]).find(
    (e): e is Record<string, unknown> => isRecord(e) && e.primary === true,
  );
  const email = primary ? providerEmail(primary.email) : null;
  return {
    provider: 'github',
    subject,
    email,
    emailVerified: email !== null && primary?.verified === true,
  };
}
