import { loadConfig } from '@gatehouse/config';
import * as crypto from '@gatehouse/crypto';
import { ProblemError } from '@gatehouse/problem-details';
import { PasswordHasher } from './password-hasher';

jest.mock('@gatehouse/crypto', () => ({ ...jest.requireActual('@gatehouse/crypto'), verifyPassword: jest.fn(), hashPassword: jest.fn(), makeDummyHash: jest.fn() }));

const config = (concurrency: number) => loadConfig({ ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'), PASSWORD_HASH_CONCURRENCY: String(concurrency) });

/** Each bcrypt stand-in stays running until released; counts how many run at once. */
function gate() {
  let running = 0;
  let peak = 0;
  const releases: (() => void)[] = [];
  const job = <T>(value: T) => () =>
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
    jest.mocked(crypto.hashPassword).mockImplementation(g.job({ hash: 'h', scheme: 'bcrypt-sha256' as const }));
    const hasher = new PasswordHasher(config(2));
    const all = Promise.all([
      hasher.verify('a', 'h', 'bcrypt-sha256'),
      hasher.hash('b'),
      hasher.verify('c', 'h', 'bcrypt-sha256'),
      hasher.hash('d'),
      hasher.verify('e', 'h', 'bcrypt'),
    ]);
    await g.settle();
    expect(g.running()).toBe(2);
    while (g.releases.length > 0) {
      g.releases.shift()?.();
      await g.settle();
      expect(g.running()).toBeLessThanOrEqual(2);
    }
    expect(await all).toEqual([true, { hash: 'h', scheme: 'bcrypt-sha256' }, true, { hash: 'h', scheme: 'bcrypt-sha256' }, true]);
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

  it('refuses a hash that waited too long for its turn with 503, and runs the others', async () => {
    const g = gate();
    jest.mocked(crypto.verifyPassword).mockImplementation(g.job(true));
    class QuickHasher extends PasswordHasher {
      protected override readonly maxQueueWaitMs = 30;
    }
    const hasher = new QuickHasher(config(1));
    const first = hasher.verify('a', 'h', 'bcrypt-sha256');
    const queued = hasher.verify('b', 'h', 'bcrypt-sha256').catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, 60));
    g.releases.shift()?.();
    expect(await first).toBe(true);
    const refused = await queued;
    expect(refused).toBeInstanceOf(ProblemError);
    expect(refused).toMatchObject({ slug: 'service-unavailable', options: { headers: { 'Retry-After': '1' } } });
    expect(jest.mocked(crypto.verifyPassword).mock.calls.map((c) => c[0])).toEqual(['a']);
    const later = hasher.verify('c', 'h', 'bcrypt-sha256');
    await g.settle();
    g.releases.shift()?.();
    expect(await later).toBe(true);
  });
});
