import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from './admin.guard';

/**
 * An admin action that hands out or overwrites credentials (an export with password hashes and
 * TOTP secrets, an `on_conflict=update` import) needs the admin's recent proof of identity, as the
 * runtime's sensitive self-service actions do (SessionAuthGuard): the token's `auth_time` within
 * the console project's `settings.reauthentication_max_age_seconds`, else 403
 * `reauthentication-required` with the same body (`POST /v1/auth/reauthenticate` renews it).
 * A token without `auth_time` is not recent.
 */
export function assertRecentProof(admin: AdminContext, nowMs: number): void {
  const maxAge = admin.reauthenticationMaxAgeSeconds;
  const recent =
    typeof admin.authTime === 'number' &&
    typeof maxAge === 'number' &&
    nowMs / 1000 - admin.authTime <= maxAge;
  if (!recent) {
    throw new ProblemError('reauthentication-required', {
      detail:
        'This action needs a recent proof of identity; re-authenticate with POST /v1/auth/reauthenticate and try again.',
      extensions: { max_age_seconds: maxAge ?? null },
    });
  }
}
