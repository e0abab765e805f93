import type { User } from '@gatehouse/entities';
import {
  LockoutService,
  PasswordHasher,
  UsersRepository,
  type PasswordAttempt,
  type ResolvedProject,
} from '@gatehouse/identity';
import { ProblemError } from '@gatehouse/problem-details';
import { newTestService } from '@gatehouse/testing';
import { UserEvents } from '../sign-in/user-events';
import { AccountsService } from './accounts.service';
import { PasswordMigrationService } from './password-migration.service';

/**
 * The password check of sign-in, with fake repositories: the lockout slot taken first and settled
 * once, the migration of an unknown email, and the events a refusal or a lock records.
 */
describe('AccountsService.verifyPassword decides on the lockout, the stored credential and the migration', () => {
  const project = { id: 'project-1', tenantId: 'tenant-1', settings: {} } as ResolvedProject;
  const meta = { ip: '192.0.2.1', userAgent: 'test' };
  const user = {
    id: 'user-1',
    email: 'ada@example.com',
    username: 'ada',
    status: 'active',
    emailVerified: true,
  } as User;
  const credential = { passwordHash: '$2b$10$hash', scheme: 'bcrypt' } as const;
  const lockedUntil = new Date('2026-11-25T12:15:00Z');

  interface Given {
    found?: { user: User; credential: typeof credential | null } | null;
    right?: boolean;
    migrationApplies?: boolean;
    lockStarts?: boolean;
  }

  function service({
    found = { user, credential },
    right = false,
    migrationApplies = false,
    lockStarts = false,
  }: Given = {}) {
    const t = newTestService(AccountsService);
    const attempt = {
      failed: jest.fn(async () => (lockStarts ? lockedUntil : null)),
      succeeded: jest.fn(async () => undefined),
      release: jest.fn(async () => undefined),
    } satisfies PasswordAttempt;
    t.mock(LockoutService).beginAttempt.mockResolvedValue(attempt);
    t.mock(UsersRepository).findByIdentifier.mockResolvedValue(found);
    t.mock(PasswordHasher).verify.mockResolvedValue(right);
    t.mock(PasswordHasher).verifyDummy.mockResolvedValue(false);
    t.mock(PasswordHasher).needsRehash.mockReturnValue(false);
    t.mock(PasswordMigrationService).applies.mockReturnValue(migrationApplies);
    t.mock(PasswordMigrationService).waitAsLongAsACall.mockResolvedValue(undefined);
    t.mock(UserEvents).signInFailed.mockResolvedValue(undefined);
    return {
      ...t,
      attempt,
      events: () =>
        t.mock(UserEvents).signInFailed.mock.calls.map(([, , failure, action]) => ({
          action: action ?? 'user.sign_in_failed',
          ...failure,
        })),
    };
  }

  const refusal = (slug: string) => expect.objectContaining({ slug }) as unknown as ProblemError;

  it('a right password: the streak ends under the email and username, the slot is released, nothing is recorded', async () => {
    const t = service({ right: true });
    expect(
      await t.sut.verifyPassword(
        project,
        { identifier: ' Ada@Example.com ', password: 'pw' },
        meta,
      ),
    ).toBe(user);
    expect(t.mock(LockoutService).beginAttempt.mock.calls).toEqual([
      ['project-1', 'ada@example.com'],
    ]);
    expect(t.mock(PasswordHasher).verify.mock.calls).toEqual([
      ['pw', credential.passwordHash, 'bcrypt', { projectId: 'project-1', userId: 'user-1' }],
    ]);
    expect(t.attempt.succeeded.mock.calls).toEqual([['ada@example.com', 'ada']]);
    expect([t.attempt.failed.mock.calls.length, t.attempt.release.mock.calls.length]).toEqual([
      0, 1,
    ]);
    expect(t.events()).toEqual([]);
  });

  it('a wrong password: 401, one failure recorded with the identifier, the slot released', async () => {
    const t = service();
    await expect(
      t.sut.verifyPassword(project, { identifier: 'ada@example.com', password: 'wrong' }, meta),
    ).rejects.toEqual(refusal('invalid-credentials'));
    expect(t.events()).toEqual([
      {
        action: 'user.sign_in_failed',
        userId: 'user-1',
        meta,
        data: { identifier: 'ada@example.com', reason: 'invalid_credentials' },
      },
    ]);
    expect([
      t.attempt.failed.mock.calls.length,
      t.attempt.succeeded.mock.calls.length,
      t.attempt.release.mock.calls.length,
    ]).toEqual([1, 0, 1]);
  });

  it('the failure that starts a lock records user.locked with locked_until besides the failure', async () => {
    const t = service({ lockStarts: true });
    await expect(
      t.sut.verifyPassword(project, { identifier: 'ada@example.com', password: 'wrong' }, meta),
    ).rejects.toEqual(refusal('invalid-credentials'));
    expect(t.events()).toEqual([
      {
        action: 'user.sign_in_failed',
        userId: 'user-1',
        meta,
        data: { identifier: 'ada@example.com', reason: 'invalid_credentials' },
      },
      {
        action: 'user.locked',
        userId: 'user-1',
        meta,
        data: { identifier: 'ada@example.com', locked_until: lockedUntil.toISOString() },
      },
    ]);
  });

  it('while locked the lockout refuses before any password is compared, and the failure is recorded as locked (docs/api-contract.md §13)', async () => {
    const t = service({ right: true });
    t.mock(LockoutService).beginAttempt.mockRejectedValue(
      new ProblemError('account-locked', { detail: 'locked' }),
    );
    await expect(
      t.sut.verifyPassword(project, { identifier: 'ada@example.com', password: 'pw' }, meta),
    ).rejects.toEqual(refusal('account-locked'));
    expect(t.mock(PasswordHasher).verify).not.toHaveBeenCalled();
    expect(t.events()).toEqual([
      {
        action: 'user.sign_in_failed',
        userId: 'user-1',
        meta,
        data: { identifier: 'ada@example.com', reason: 'locked' },
      },
    ]);
  });

  it('an attempt that finds no free slot of the account in time is recorded as rate_limited, its password not compared', async () => {
    const t = service({ found: null });
    t.mock(LockoutService).beginAttempt.mockRejectedValue(
      new ProblemError('rate-limited', { detail: 'busy' }),
    );
    await expect(
      t.sut.verifyPassword(project, { identifier: 'nobody@example.com', password: 'pw' }, meta),
    ).rejects.toEqual(refusal('rate-limited'));
    expect(t.mock(PasswordHasher).verifyDummy).not.toHaveBeenCalled();
    expect(t.events()).toEqual([
      {
        action: 'user.sign_in_failed',
        userId: null,
        meta,
        data: { identifier: 'nobody@example.com', reason: 'rate_limited' },
      },
    ]);
  });

  it('an unknown identifier costs the dummy comparison and gets the same 401 (the failure has no user)', async () => {
    const t = service({ found: null });
    await expect(
      t.sut.verifyPassword(project, { identifier: 'nobody', password: 'pw' }, meta),
    ).rejects.toEqual(refusal('invalid-credentials'));
    expect(t.mock(PasswordHasher).verifyDummy.mock.calls).toEqual([['pw']]);
    expect(t.events()).toEqual([
      {
        action: 'user.sign_in_failed',
        userId: null,
        meta,
        data: { identifier: 'nobody', reason: 'invalid_credentials' },
      },
    ]);
  });

  it('an unknown email is migrated when the project migrates: the migrated user signs in, no failure', async () => {
    const t = service({ found: null, migrationApplies: true });
    const migrated = { user: { ...user, id: 'user-2' }, credential };
    t.mock(PasswordMigrationService).migrate.mockResolvedValue(migrated);
    expect(
      await t.sut.verifyPassword(project, { identifier: 'ada@example.com', password: 'pw' }, meta),
    ).toBe(migrated.user);
    expect(t.mock(PasswordMigrationService).migrate.mock.calls).toEqual([
      [project, 'ada@example.com', 'pw', null, meta],
    ]);
    expect(t.attempt.succeeded.mock.calls).toEqual([['ada@example.com', 'ada']]);
    expect(t.events()).toEqual([]);
  });

  it('a known email with a wrong password is not migrated, but waits as long as a migration call', async () => {
    const t = service({ migrationApplies: true });
    await expect(
      t.sut.verifyPassword(project, { identifier: 'ada@example.com', password: 'wrong' }, meta),
    ).rejects.toEqual(refusal('invalid-credentials'));
    expect(t.mock(PasswordMigrationService).migrate).not.toHaveBeenCalled();
    expect(t.mock(PasswordMigrationService).waitAsLongAsACall.mock.calls).toEqual([[project]]);
  });

  it('a disabled account with the right password: 403 with reason disabled, the streak still ends', async () => {
    const t = service({
      found: { user: { ...user, status: 'disabled' }, credential },
      right: true,
    });
    await expect(
      t.sut.verifyPassword(project, { identifier: 'ada@example.com', password: 'pw' }, meta),
    ).rejects.toEqual(refusal('account-disabled'));
    expect(t.events()).toEqual([
      {
        action: 'user.sign_in_failed',
        userId: 'user-1',
        meta,
        data: { identifier: 'ada@example.com', reason: 'disabled' },
      },
    ]);
    expect(t.attempt.succeeded).toHaveBeenCalledTimes(1);
  });

  it('a right password over an old scheme is hashed again and stored', async () => {
    const t = service({ right: true });
    t.mock(PasswordHasher).needsRehash.mockReturnValue(true);
    t.mock(PasswordHasher).hash.mockResolvedValue({
      hash: '$argon2id$new',
      scheme: 'argon2id',
    } as never);
    t.mock(UsersRepository).setPassword.mockResolvedValue(undefined);
    await t.sut.verifyPassword(project, { identifier: 'ada@example.com', password: 'pw' }, meta);
    expect(t.mock(UsersRepository).setPassword.mock.calls).toEqual([
      [t.manager, 'user-1', '$argon2id$new', 'argon2id'],
    ]);
  });
});
