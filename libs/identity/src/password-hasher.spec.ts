import { Logger } from '@nestjs/common';
import { loadConfig } from '@gatehouse/config';
import * as crypto from '@gatehouse/crypto';
import { ProblemError } from '@gatehouse/problem-details';
import { PasswordHasher } from './password-hasher';

jest.mock('@gatehouse/crypto', () => ({
  ...jest.requireActual('@gatehouse/crypto'),
  verifyPassword: jest.fn(),
  hashPassword: jest.fn(),
  makeDummyHash: jest.fn(),
  lowPriorityVerifier: jest.fn(() => null),
}));

const config = (concurrency: number, timeoutMs = 10_000) =>
  loadConfig({
    ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    PASSWORD_HASH_CONCURRENCY: String(concurrency),
    PASSWORD_HASH_QUEUE_TIMEOUT_MS: String(timeoutMs),
  });
const BCRYPT_12 = `$2b$12$${'a'.repeat(53)}`;
const ARGON2 = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g';

/** Each bcrypt stand-in stays running until released; counts how many run at once. */
function gate() {
  let running = 0;
  let peak = 0;
  const releases: (() => void)[] = [];
  const job =
    <T>(value: T) =>
    () =>
      new Promise<T>((resolve) => {
        running++;
        peak = Math.max(peak, running);
        releases.push(() => {
          running--;
          resolve(value);
        });
      });
  const settle = () => new Promise((r) => setImmediate(r));
  return { job, releases, settle, peak: () => peak, running: () => running };
}

describe('PasswordHasher', () => {
  afterEach(() => jest.resetAllMocks());

  it('runs at most PASSWORD_HASH_CONCURRENCY bcrypt operations at once and queues the rest in order', async () => {
    const g = gate();
    jest.mocked(crypto.verifyPassword).mockImplementation(g.job(true));
    jest
      .mocked(crypto.hashPassword)
      .mockImplementation(g.job({ hash: 'h', scheme: 'bcrypt-sha256' as const }));
    const hasher = new PasswordHasher(config(2));
    const all = Promise.all([
      hasher.verify('a', 'h', 'bcrypt-sha256'),
      hasher.hash('b'),
      hasher.verify('c', 'h', 'bcrypt-sha256'),
      hasher.hash('d'),
      hasher.verify('e', 'h', 'bcrypt-sha256'),
    ]);
    await g.settle();
    expect(g.running()).toBe(2);
    while (g.releases.length > 0) {
      g.releases.shift()?.();
      await g.settle();
      expect(g.running()).toBeLessThanOrEqual(2);
    }
    expect(await all).toEqual([
      true,
      { hash: 'h', scheme: 'bcrypt-sha256' },
      true,
      { hash: 'h', scheme: 'bcrypt-sha256' },
      true,
    ]);
    expect(g.peak()).toBe(2);
    expect(jest.mocked(crypto.verifyPassword).mock.calls.map((c) => c[0])).toEqual(['a', 'c', 'e']);
  });

  it('counts the dummy check for unknown users against the same limit', async () => {
    const g = gate();
    jest.mocked(crypto.makeDummyHash).mockResolvedValue('dummy-hash');
    jest.mocked(crypto.verifyPassword).mockImplementation(g.job(true));
    const hasher = new PasswordHasher(config(1));
    const unknown = hasher.verifyDummy('x');
    const known = hasher.verify('y', 'h', 'bcrypt-sha256');
    await g.settle();
    expect(g.running()).toBe(1);
    g.releases.shift()?.();
    await g.settle();
    g.releases.shift()?.();
    expect(await unknown).toBe(false);
    expect(await known).toBe(true);
    expect(g.peak()).toBe(1);
    expect(jest.mocked(crypto.verifyPassword).mock.calls).toEqual(
      expect.arrayContaining([
        ['x', 'dummy-hash', 'bcrypt-sha256'],
        ['y', 'h', 'bcrypt-sha256'],
      ]),
    );
  });

  it('refuses a check that waited PASSWORD_HASH_QUEUE_TIMEOUT_MS for its turn with 503 at that moment, while the slot is still taken, and runs the others', async () => {
    const g = gate();
    jest.mocked(crypto.verifyPassword).mockImplementation(g.job(true));
    const hasher = new PasswordHasher(config(1, 30));
    const first = hasher.verify('a', 'h', 'bcrypt-sha256');
    const queued = hasher.verify('b', 'h', 'bcrypt-sha256').catch((err: unknown) => err);
    // Refused by its own timer: the running check has not finished (before, only when a slot opened).
    const refused = await queued;
    expect(g.running()).toBe(1);
    expect(refused).toBeInstanceOf(ProblemError);
    expect(refused).toMatchObject({
      slug: 'service-unavailable',
      options: { headers: { 'Retry-After': '1' } },
    });
    g.releases.shift()?.();
    expect(await first).toBe(true);
    expect(jest.mocked(crypto.verifyPassword).mock.calls.map((c) => c[0])).toEqual(['a']);
    const later = hasher.verify('c', 'h', 'bcrypt-sha256');
    await g.settle();
    g.releases.shift()?.();
    expect(await later).toBe(true);
  });

  it('checks imported hashes beside ours, one at a time per project, projects taking turns', async () => {
    const g = gate();
    jest.mocked(crypto.verifyPassword).mockImplementation(g.job(true));
    // Two cores: two of ours at once, and one imported check at once beside them.
    const hasher = new PasswordHasher(config(2));
    const b1 = hasher.verify('b1', ARGON2, 'argon2', { projectId: 'B' });
    const b2 = hasher.verify('b2', ARGON2, 'argon2', { projectId: 'B' });
    const b3 = hasher.verify('b3', BCRYPT_12, 'bcrypt', { projectId: 'B' });
    const a1 = hasher.verify('a1', ARGON2, 'argon2', { projectId: 'A' });
    const ours = [
      hasher.verify('o1', 'h', 'bcrypt-sha256'),
      hasher.verify('o2', 'h', 'bcrypt-sha256'),
    ];
    await g.settle();
    // B's first imported check and both of ours run; B's backlog waits.
    expect(jest.mocked(crypto.verifyPassword).mock.calls.map((c) => c[0])).toEqual([
      'b1',
      'o1',
      'o2',
    ]);
    g.releases.splice(1, 2).forEach((release) => release());
    expect(await Promise.all(ours)).toEqual([true, true]);
    g.releases.shift()?.();
    await g.settle();
    // A's turn comes before the rest of B's, though B queued first.
    expect(jest.mocked(crypto.verifyPassword).mock.calls.map((c) => c[0])).toEqual([
      'b1',
      'o1',
      'o2',
      'a1',
    ]);
    for (let i = 0; i < 3; i++) {
      expect(g.running()).toBe(1);
      g.releases.shift()?.();
      await g.settle();
    }
    expect(await Promise.all([b1, b2, b3, a1])).toEqual([true, true, true, true]);
    expect(jest.mocked(crypto.verifyPassword).mock.calls.map((c) => c[0])).toEqual([
      'b1',
      'o1',
      'o2',
      'a1',
      'b2',
      'b3',
    ]);
    expect(g.peak()).toBe(3);
  });

  it('a bcrypt-sha256 hash above BCRYPT_COST (an imported Gatehouse export) waits in its project’s queue, not ours', async () => {
    const g = gate();
    jest.mocked(crypto.verifyPassword).mockImplementation(g.job(true));
    const hasher = new PasswordHasher(config(2));
    const imported = [
      hasher.verify('x', BCRYPT_12, 'bcrypt-sha256', { projectId: 'B' }),
      hasher.verify('y', BCRYPT_12, 'bcrypt-sha256', { projectId: 'B' }),
    ];
    const ours = hasher.verify('z', 'h', 'bcrypt-sha256');
    await g.settle();
    expect(jest.mocked(crypto.verifyPassword).mock.calls.map((c) => c[0])).toEqual(['x', 'z']);
    while (g.releases.length > 0) {
      g.releases.shift()?.();
      await g.settle();
    }
    expect(await Promise.all([...imported, ours])).toEqual([true, true, true]);
  });

  it('refuses at once an imported check beyond the 32 waiting for one project, with 503', async () => {
    const g = gate();
    jest.mocked(crypto.verifyPassword).mockImplementation(g.job(true));
    const hasher = new PasswordHasher(config(2));
    const all = Array.from({ length: 34 }, (_, i) =>
      hasher.verify(`p${i}`, ARGON2, 'argon2', { projectId: 'B' }).catch((err: unknown) => err),
    );
    // One runs, 32 wait, the 34th is refused without waiting.
    expect(await all[33]).toMatchObject({
      slug: 'service-unavailable',
      options: { headers: { 'Retry-After': '1' } },
    });
    const other = hasher.verify('a', ARGON2, 'argon2', { projectId: 'A' });
    while (g.releases.length > 0) {
      g.releases.shift()?.();
      await g.settle();
    }
    expect(await Promise.all(all.slice(0, 33))).toEqual(Array(33).fill(true));
    expect(await other).toBe(true);
  });

  it('never computes a stored hash over the work budget: refused after the dummy check, logged once per hash', async () => {
    jest.mocked(crypto.makeDummyHash).mockResolvedValue('dummy-hash');
    jest.mocked(crypto.verifyPassword).mockResolvedValue(true);
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const hasher = new PasswordHasher(config(2));
    const scrypt = '$scrypt$ln=20,r=16,p=4$c2FsdA$aGFzaA';
    expect(await hasher.verify('right', scrypt, 'scrypt', { projectId: 'B', userId: 'u1' })).toBe(
      false,
    );
    expect(await hasher.verify('right', scrypt, 'scrypt', { projectId: 'B', userId: 'u1' })).toBe(
      false,
    );
    expect(
      await hasher.verify('right', `$2b$16$${'a'.repeat(53)}`, 'bcrypt', {
        projectId: 'B',
        userId: 'u2',
      }),
    ).toBe(false);
    expect(jest.mocked(crypto.verifyPassword).mock.calls).toEqual([
      ['right', 'dummy-hash', 'bcrypt-sha256'],
      ['right', 'dummy-hash', 'bcrypt-sha256'],
      ['right', 'dummy-hash', 'bcrypt-sha256'],
    ]);
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(/scrypt .*user u1.*128·N·r/),
      expect.stringMatching(/bcrypt .*user u2.*cost 16/),
    ]);
    warn.mockRestore();
  });

  describe('with the low-priority child (compiled builds)', () => {
    /** A stand-in for LowPriorityVerifier: records pause and resume; each check waits until released. */
    function child() {
      const events: string[] = [];
      const checks: ((ok: boolean) => void)[] = [];
      const verifier = {
        pause: jest.fn(() => events.push('pause')),
        resume: jest.fn(() => events.push('resume')),
        verify: jest.fn(() => new Promise<boolean>((resolve) => checks.push(resolve))),
      };
      jest
        .mocked(crypto.lowPriorityVerifier)
        .mockReturnValue(verifier as unknown as crypto.LowPriorityVerifier);
      return { verifier, events, checks };
    }

    it('stops the child while any of our own hashes is queued or running, and lets it go on once none has been for 50 ms (found by the fairness bench: nice 19 alone cost another project a third of its sign-ins)', async () => {
      const c = child();
      const g = gate();
      jest.mocked(crypto.verifyPassword).mockImplementation(g.job(true));
      const hasher = new PasswordHasher(config(1));
      const imported = hasher.verify('pw', ARGON2, 'argon2', { projectId: 'b' });
      await g.settle();
      expect(c.verifier.verify).toHaveBeenCalledTimes(1);
      expect(c.events).toEqual([]);
      const first = hasher.verify('a', 'h', 'bcrypt-sha256');
      const second = hasher.verify('b', 'h', 'bcrypt-sha256');
      await g.settle();
      // One runs, one waits: the child is stopped once, for both.
      expect(c.events).toEqual(['pause']);
      g.releases.shift()!();
      await g.settle();
      await g.settle();
      expect(c.events).toEqual(['pause']);
      g.releases.shift()!();
      await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
      // Not at once: a sign-in's next hash usually follows within milliseconds (its statements and
      // token come between), and the child must not run there either.
      expect(c.events).toEqual(['pause']);
      const third = hasher.verify('c', 'h', 'bcrypt-sha256');
      await g.settle();
      g.releases.shift()!();
      await expect(third).resolves.toBe(true);
      await new Promise((r) => setTimeout(r, 30));
      expect(c.events).toEqual(['pause']);
      await new Promise((r) => setTimeout(r, 40));
      expect(c.events).toEqual(['pause', 'resume']);
      c.checks.shift()!(true);
      await expect(imported).resolves.toBe(true);
    });

    it('answers 503 an imported check the child has not answered PASSWORD_HASH_QUEUE_TIMEOUT_MS after it started (stopped while ours keep coming)', async () => {
      jest.useFakeTimers();
      try {
        const c = child();
        const hasher = new PasswordHasher(config(2, 1000));
        const imported = hasher.verify('pw', ARGON2, 'argon2', { projectId: 'b' });
        const refused = expect(imported).rejects.toMatchObject({
          slug: 'service-unavailable',
          status: 503,
        });
        await jest.advanceTimersByTimeAsync(999);
        expect(c.verifier.verify).toHaveBeenCalledTimes(1);
        await jest.advanceTimersByTimeAsync(1);
        await refused;
        // The project's turn is free again: its next check reaches the child.
        void hasher.verify('pw', ARGON2, 'argon2', { projectId: 'b' }).catch(() => undefined);
        await jest.advanceTimersByTimeAsync(0);
        expect(c.verifier.verify).toHaveBeenCalledTimes(2);
      } finally {
        jest.useRealTimers();
      }
    });
  });
});
