import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from './admin.guard';
import { assertRecentProof } from './recent-proof';

describe('assertRecentProof (an admin action that hands out or overwrites credentials)', () => {
  const admin = (authTime: number | undefined): AdminContext => ({
    tenantId: 't',
    userId: 'u',
    sessionId: 's',
    consoleProjectId: 'p',
    reauthenticationMaxAgeSeconds: 600,
    ...(authTime === undefined ? {} : { authTime }),
  });
  const refusal = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      return err instanceof ProblemError
        ? {
            slug: err.slug,
            detail: err.message,
            max_age_seconds: err.options.extensions?.max_age_seconds,
          }
        : err;
    }
    return null;
  };
  const now = 1_800_000_000_000;

  it('lets a proof within the console project’s window through, up to its last second', () => {
    expect(refusal(() => assertRecentProof(admin(now / 1000 - 10), now))).toBeNull();
    expect(refusal(() => assertRecentProof(admin(now / 1000 - 600), now))).toBeNull();
  });

  it('refuses an older proof, and a token without auth_time, with reauthentication-required and the window', () => {
    const expected = {
      slug: 'reauthentication-required',
      detail:
        'This action needs a recent proof of identity; re-authenticate with POST /v1/auth/reauthenticate and try again.',
      max_age_seconds: 600,
    };
    expect(refusal(() => assertRecentProof(admin(now / 1000 - 601), now))).toEqual(expected);
    expect(refusal(() => assertRecentProof(admin(now / 1000 - 632), now))).toEqual(expected);
    expect(refusal(() => assertRecentProof(admin(undefined), now))).toEqual(expected);
  });
});
