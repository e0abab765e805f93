import { setTimeout as sleep } from 'node:timers/promises';
import { Clock, MemoryCacheStore } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import { LOCK_DURATIONS_MS, LockoutService, SecondFactorLockout } from './lockout.service';

/** The in-process twin of the lockout scripts (standalone mode); the Redis scripts run in the e2e suites. */
describe('LockoutService on the in-process store', () => {
  let offset = 0;
  const clock = new (class extends Clock {
    override now() {
      return new Date(Date.UTC(2026, 10, 22) + offset);
    }
  })();
  class QuickLockout extends LockoutService {
    protected override readonly slotWaitMs = 300;
  }
  let lockout: LockoutService;
  const P = 'project-1';

  beforeEach(() => {
    offset = 0;
    lockout = new QuickLockout(new MemoryCacheStore(() => clock.nowMs()), clock);
  });

  /** One attempt whose password is checked in `checkMs` and found `right` or wrong; its outcome or refusal. */
  const attempt = async (
    right: boolean,
    identifier = 'a@example.com',
    checkMs = 0,
  ): Promise<string | Date | null> => {
    try {
      const begun = await lockout.beginAttempt(P, identifier);
      await sleep(checkMs);
      if (!right) return await begun.failed();
      await begun.succeeded();
      return 'signed in';
    } catch (err) {
      if (err instanceof ProblemError) return err.slug;
      throw err;
    }
  };

  it('locks at the fifth failure, for 15 minutes, then 30, 1 h and 2 h', async () => {
    for (const duration of [...LOCK_DURATIONS_MS, LOCK_DURATIONS_MS[3]]) {
      for (let i = 0; i < 4; i++) expect(await attempt(false)).toBeNull();
      expect(await attempt(false)).toEqual(new Date(clock.nowMs() + duration));
      const refused = await lockout
        .beginAttempt(P, ' A@Example.com ')
        .catch((err: ProblemError) => err);
      expect(refused).toBeInstanceOf(ProblemError);
      expect((refused as ProblemError).options.extensions).toEqual({
        locked_until: new Date(clock.nowMs() + duration).toISOString(),
      });
      offset += duration;
    }
  });

  it('checks five of 20 concurrent wrong passwords; the rest wait and find the one lock they earned', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => attempt(false, 'a@example.com', 20)),
    );
    const until = new Date(clock.nowMs() + LOCK_DURATIONS_MS[0]);
    expect(outcomes.filter((o) => o === null)).toHaveLength(4);
    expect(outcomes.filter((o) => o instanceof Date)).toEqual([until]);
    expect(outcomes.filter((o) => o === 'account-locked')).toHaveLength(15);
    // The burst raised the level once: the next lock is the second level.
    offset += LOCK_DURATIONS_MS[0];
    for (let i = 0; i < 4; i++) await attempt(false);
    expect(await attempt(false)).toEqual(new Date(clock.nowMs() + LOCK_DURATIONS_MS[1]));
  });

  it('lets 20 concurrent right passwords all through, five at a time, and locks nothing', async () => {
    let inProgress = 0;
    let most = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const begun = await lockout.beginAttempt(P, 'a@example.com');
        most = Math.max(most, ++inProgress);
        await sleep(10);
        inProgress--;
        await begun.succeeded();
        return 'signed in';
      }),
    );
    expect(outcomes).toEqual(Array(20).fill('signed in'));
    expect(most).toBe(5);
    for (let i = 0; i < 4; i++) expect(await attempt(false)).toBeNull();
    expect(await attempt(false)).toEqual(new Date(clock.nowMs() + LOCK_DURATIONS_MS[0]));
  });

  it('frees the slot of an attempt that ended in an error, and answers rate-limited when no slot frees in time', async () => {
    const stuck = await Promise.all(
      Array.from({ length: 5 }, () => lockout.beginAttempt(P, 'a@example.com')),
    );
    expect(await attempt(true)).toBe('rate-limited');
    await stuck[0].release();
    await stuck[0].failed(); // settled already: counts nothing
    expect(await attempt(true)).toBe('signed in');
    // A right password ends the streak but not the slots of attempts still in progress.
    expect(await attempt(true)).toBe('signed in');
    await Promise.all(stuck.slice(1).map((s) => s.release()));
    for (let i = 0; i < 4; i++) expect(await attempt(false)).toBeNull();
  });

  it('an expired slot (its instance died mid-check) frees itself; a right password found after a lock does not lift it', async () => {
    const [late] = await Promise.all(
      Array.from({ length: 5 }, () => lockout.beginAttempt(P, 'a@example.com')),
    );
    offset += 60_001;
    expect(await attempt(true)).toBe('signed in');
    for (let i = 0; i < 4; i++) expect(await attempt(false)).toBeNull();
    const until = await attempt(false);
    expect(until).toEqual(new Date(clock.nowMs() + LOCK_DURATIONS_MS[0]));
    await expect(late.succeeded()).rejects.toMatchObject({ slug: 'account-locked' });
    expect(await attempt(true)).toBe('account-locked');
  });

  it('keeps the slot of an attempt whose outcome could not be recorded, until it is released', async () => {
    let down = false;
    const store = new (class extends MemoryCacheStore {
      override runScript(...args: Parameters<MemoryCacheStore['runScript']>) {
        return down ? Promise.reject(new Error('cache down')) : super.runScript(...args);
      }
    })(() => clock.nowMs());
    lockout = new QuickLockout(store, clock);
    const held = await Promise.all(
      Array.from({ length: 5 }, () => lockout.beginAttempt(P, 'a@example.com')),
    );
    down = true;
    await expect(held[0].failed()).rejects.toThrow('cache down');
    down = false;
    expect(await attempt(true)).toBe('rate-limited');
    await held[0].release();
    expect(await attempt(true)).toBe('signed in');
  });

  it('reset clears the streak and the level; identifiers and projects are counted apart', async () => {
    for (let i = 0; i < 5; i++) await attempt(false);
    await lockout.reset(P, 'a@example.com');
    for (let i = 0; i < 4; i++) await attempt(false);
    expect(await attempt(false)).toEqual(new Date(clock.nowMs() + LOCK_DURATIONS_MS[0]));
    expect(await attempt(false, 'b@example.com')).toBeNull();
    const otherProject = await lockout.beginAttempt('project-2', 'a@example.com');
    expect(await otherProject.failed()).toBeNull();
  });

  it('a right password also ends the streaks of the account’s other identifiers', async () => {
    for (let i = 0; i < 4; i++) await attempt(false, 'alice');
    const begun = await lockout.beginAttempt(P, 'a@example.com');
    await begun.succeeded('a@example.com', 'alice');
    for (let i = 0; i < 4; i++) expect(await attempt(false, 'alice')).toBeNull();
  });

  it('answers a lock with 429 account-locked, Retry-After and locked_until', () => {
    const problem = lockout.lockedError(new Date(clock.nowMs() + 90_500));
    expect(problem.slug).toBe('account-locked');
    expect(problem.options.headers).toEqual({ 'Retry-After': '91' });
    expect(problem.options.extensions).toEqual({
      locked_until: new Date(clock.nowMs() + 90_500).toISOString(),
    });
  });
});

describe('SecondFactorLockout on the in-process store', () => {
  let offset = 0;
  const clock = new (class extends Clock {
    override now() {
      return new Date(Date.UTC(2026, 10, 22) + offset);
    }
  })();
  class QuickSecondFactor extends SecondFactorLockout {
    protected override readonly slotWaitMs = 300;
  }
  let store: MemoryCacheStore;
  let mfa: SecondFactorLockout;
  const P = 'project-1';
  const USER = '5b0d3c55-1d0e-4c1f-9a43-2f5a4c0b6e11';

  beforeEach(() => {
    offset = 0;
    store = new MemoryCacheStore(() => clock.nowMs());
    mfa = new QuickSecondFactor(store, clock);
  });

  const guess = async (right: boolean, checkMs = 0): Promise<string | Date | null> => {
    try {
      const begun = await mfa.beginAttempt(P, USER);
      await sleep(checkMs);
      if (!right) return await begun.failed();
      await begun.succeeded();
      return 'verified';
    } catch (err) {
      if (err instanceof ProblemError) return err.slug;
      throw err;
    }
  };

  it('locks at the tenth wrong code on the progressive schedule, and refuses even a right code while locked', async () => {
    for (const duration of LOCK_DURATIONS_MS) {
      for (let i = 0; i < 9; i++) expect(await guess(false)).toBeNull();
      expect(await guess(false)).toEqual(new Date(clock.nowMs() + duration));
      expect(await guess(true)).toBe('account-locked');
      const refused = (await mfa
        .beginAttempt(P, USER)
        .catch((err: unknown) => err)) as ProblemError;
      expect(refused.options.detail).toMatch(/second factor/);
      expect(refused.options.extensions).toEqual({
        locked_until: new Date(clock.nowMs() + duration).toISOString(),
      });
      offset += duration;
    }
  });

  it('a right code once the lock has ended clears the streak and the level', async () => {
    for (let i = 0; i < 10; i++) await guess(false);
    offset += LOCK_DURATIONS_MS[0];
    for (let i = 0; i < 9; i++) await guess(false);
    expect(await guess(true)).toBe('verified');
    for (let i = 0; i < 9; i++) expect(await guess(false)).toBeNull();
    expect(await guess(false)).toEqual(new Date(clock.nowMs() + LOCK_DURATIONS_MS[0]));
  });

  it('checks ten of 30 concurrent wrong codes; the rest find the lock', async () => {
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => guess(false, 20)));
    expect(outcomes.filter((o) => o === null)).toHaveLength(9);
    expect(outcomes.filter((o) => o instanceof Date)).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'account-locked')).toHaveLength(20);
  });

  it('remembers a streak for 30 days, not one: nine guesses a day never add up to a fresh start', async () => {
    for (let i = 0; i < 5; i++) expect(await guess(false)).toBeNull();
    offset += 25 * 3600_000;
    for (let i = 0; i < 4; i++) expect(await guess(false)).toBeNull();
    expect(await guess(false)).toEqual(new Date(clock.nowMs() + LOCK_DURATIONS_MS[0]));
  });

  it('is counted apart from the password lockout of the same project', async () => {
    const passwords = new LockoutService(store, clock);
    for (let i = 0; i < 9; i++) await guess(false);
    const attempt = await passwords.beginAttempt(P, USER);
    await attempt.succeeded();
    expect(await guess(false)).toEqual(new Date(clock.nowMs() + LOCK_DURATIONS_MS[0]));
    await mfa.reset(P, USER);
    expect(await guess(true)).toBe('verified');
  });
});
