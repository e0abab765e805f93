import { Clock, MemoryCacheStore } from '@gatehouse/platform';
import { LOCK_DURATIONS_MS, LockoutService } from './lockout.service';

/** The in-process twin of the lockout scripts (standalone mode); the Redis scripts run in the e2e suites. */
describe('LockoutService on the in-process store', () => {
  let offset = 0;
  const clock = new (class extends Clock {
    override now() {
      return new Date(Date.UTC(2026, 10, 22) + offset);
    }
  })();
  let lockout: LockoutService;
  const P = 'project-1';

  beforeEach(() => {
    offset = 0;
    lockout = new LockoutService(new MemoryCacheStore(() => clock.nowMs()), clock);
  });

  const fail = async (identifier = 'a@example.com') => {
    const begun = await lockout.beginAttempt(P, identifier);
    return begun.lockedUntil ? begun : lockout.recordFailure(P, identifier);
  };

  it('locks at the fifth failure, for 15 minutes, then 30, 1 h and 2 h', async () => {
    for (const duration of [...LOCK_DURATIONS_MS, LOCK_DURATIONS_MS[3]]) {
      for (let i = 0; i < 4; i++) expect(await fail()).toEqual({ lockedUntil: null, started: false });
      const fifth = await fail();
      expect(fifth).toEqual({ lockedUntil: new Date(clock.nowMs() + duration), started: true });
      expect(await lockout.beginAttempt(P, ' A@Example.com ')).toEqual({ lockedUntil: fifth.lockedUntil, started: false });
      offset += duration;
    }
  });

  it('counts attempts as they begin: of 20 concurrent ones, 5 go ahead and the sixth starts one lock', async () => {
    const begun = await Promise.all(Array.from({ length: 20 }, () => lockout.beginAttempt(P, 'a@example.com')));
    expect(begun.filter((b) => b.lockedUntil === null)).toHaveLength(5);
    expect(begun.filter((b) => b.started)).toHaveLength(1);
    const until = new Date(clock.nowMs() + LOCK_DURATIONS_MS[0]);
    expect(begun.filter((b) => b.lockedUntil?.getTime() === until.getTime())).toHaveLength(15);
    // The five that went ahead fail afterwards: the lock stands, nobody raises the level again.
    const failed = await Promise.all(Array.from({ length: 5 }, () => lockout.recordFailure(P, 'a@example.com')));
    expect(failed).toEqual(Array(5).fill({ lockedUntil: until, started: false }));
    offset += LOCK_DURATIONS_MS[0];
    for (let i = 0; i < 4; i++) await fail();
    expect((await fail()).lockedUntil).toEqual(new Date(clock.nowMs() + LOCK_DURATIONS_MS[1]));
  });

  it('reset clears the streak and the level; identifiers and projects are counted apart', async () => {
    for (let i = 0; i < 5; i++) await fail();
    await lockout.reset(P, 'a@example.com');
    for (let i = 0; i < 4; i++) await fail();
    expect((await fail()).lockedUntil).toEqual(new Date(clock.nowMs() + LOCK_DURATIONS_MS[0]));
    expect(await lockout.beginAttempt(P, 'b@example.com')).toEqual({ lockedUntil: null, started: false });
    expect(await lockout.beginAttempt('project-2', 'a@example.com')).toEqual({ lockedUntil: null, started: false });
  });

  it('answers a lock with 429 account-locked, Retry-After and locked_until', () => {
    const problem = lockout.lockedError(new Date(clock.nowMs() + 90_500));
    expect(problem.slug).toBe('account-locked');
    expect(problem.options.headers).toEqual({ 'Retry-After': '91' });
    expect(problem.options.extensions).toEqual({ locked_until: new Date(clock.nowMs() + 90_500).toISOString() });
  });
});
