import { DependencyUnavailableError, MemoryCacheStore } from '@gatehouse/platform';
import { BatchedWindowCounter, type WindowHit } from './batched-window-counter';

const OPTS = { windowMs: 60_000, prefix: 'rl:', syncMs: 100, maxUnsynced: 5 };

/** A MemoryCacheStore that counts its calls and can be made to fail. */
class CountingStore extends MemoryCacheStore {
  calls = 0;
  failing = false;
  constructor(now: () => number) {
    super(now);
  }
  override async incrementMany(entries: readonly { key: string; by: number }[], windowMs: number) {
    this.calls += 1;
    if (this.failing) throw new DependencyUnavailableError('cache', new Error('down'));
    return super.incrementMany(entries, windowMs);
  }
  override get reachable() {
    return !this.failing;
  }
  override async ping() {
    if (this.failing) throw new DependencyUnavailableError('cache', new Error('down'));
  }
}

const counts = (hits: WindowHit[]) => hits.map((h) => h.count);
const hitAll = (c: BatchedWindowCounter, key: string, n: number) =>
  Promise.all(Array.from({ length: n }, () => Promise.resolve(c.hit(key))));

describe('BatchedWindowCounter (the global limit without a round trip per request)', () => {
  let now = 1_000_000;
  const clock = () => now;
  beforeEach(() => {
    now = 1_000_000;
  });

  it('answers from memory, exactly, and sends the hits to the store in one call per batch', async () => {
    const store = new CountingStore(clock);
    const c = new BatchedWindowCounter(store, { ...OPTS, now: clock });
    const first = [c.hit('a'), c.hit('a'), c.hit('b')];
    // No hit waited for the store: each answer is a value, not a promise.
    expect(first.every((h) => !(h instanceof Promise))).toBe(true);
    expect(counts(first as WindowHit[])).toEqual([1, 2, 1]);
    expect(store.calls).toBe(0);
    await c.flush();
    expect(store.calls).toBe(1);
    expect((await store.incrementMany([{ key: 'rl:a', by: 0 }], OPTS.windowMs))[0].count).toBe(2);
    expect((c.hit('a') as WindowHit).count).toBe(3);
    c.close();
  });

  it('syncs on its own within syncMs', async () => {
    const store = new CountingStore(clock);
    const c = new BatchedWindowCounter(store, { ...OPTS, syncMs: 10, now: clock });
    void c.hit('a');
    await new Promise((r) => setTimeout(r, 40));
    expect(store.calls).toBe(1);
    c.close();
  });

  it('learns the hits of other instances at its next sync, and never runs more than maxUnsynced behind', async () => {
    const store = new CountingStore(clock);
    const a = new BatchedWindowCounter(store, { ...OPTS, now: clock });
    const b = new BatchedWindowCounter(store, { ...OPTS, now: clock });
    await hitAll(b, 'ip', 12);
    await b.flush();
    // a has not synced yet: its first hits are its own; the sync at the bound brings b's 12 in.
    const seen = counts(await hitAll(a, 'ip', 5));
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    await a.flush();
    expect((a.hit('ip') as WindowHit).count).toBe(18);
    a.close();
    b.close();
  });

  it('holds the limit across two instances within the stated overshoot (instances × maxUnsynced)', async () => {
    const store = new CountingStore(clock);
    const limit = 100;
    const instances = [0, 1].map(() => new BatchedWindowCounter(store, { ...OPTS, now: clock }));
    let accepted = 0;
    for (let i = 0; i < 400; i++) {
      const h = await instances[i % 2].hit('ip');
      if (h.count <= limit) accepted += 1;
    }
    expect(accepted).toBeGreaterThanOrEqual(limit);
    expect(accepted).toBeLessThanOrEqual(limit + 2 * OPTS.maxUnsynced);
    instances.forEach((c) => c.close());
  });

  it('makes the hit past the unsynced bound wait for the store', async () => {
    const store = new CountingStore(clock);
    const c = new BatchedWindowCounter(store, { ...OPTS, now: clock });
    for (let i = 0; i < OPTS.maxUnsynced; i++) void c.hit('a');
    // The fifth hit started a sync; hits while it is in flight still count here, up to the bound.
    const waiting = Array.from({ length: OPTS.maxUnsynced + 1 }, () => c.hit('a'));
    expect(waiting.filter((h) => h instanceof Promise)).toHaveLength(1);
    expect(counts(await Promise.all(waiting.map((h) => Promise.resolve(h))))).toEqual([
      6, 7, 8, 9, 10, 11,
    ]);
    c.close();
  });

  it('starts a new window when the store says the old one ended', async () => {
    const store = new CountingStore(clock);
    const c = new BatchedWindowCounter(store, { ...OPTS, now: clock });
    await hitAll(c, 'a', 3);
    await c.flush();
    now += OPTS.windowMs + 1;
    expect((c.hit('a') as WindowHit).count).toBe(1);
    await c.flush();
    expect((c.hit('a') as WindowHit).count).toBe(2);
    c.close();
  });

  it('fails the next hit with the store error once a sync failed, and counts nothing twice after it recovers', async () => {
    const store = new CountingStore(clock);
    const c = new BatchedWindowCounter(store, { ...OPTS, now: clock });
    void c.hit('a');
    store.failing = true;
    await expect(c.flush()).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(Promise.resolve(c.hit('a'))).rejects.toBeInstanceOf(DependencyUnavailableError);
    store.failing = false;
    expect((await c.hit('a')).count).toBe(2);
    await c.flush();
    expect((await store.incrementMany([{ key: 'rl:a', by: 0 }], OPTS.windowMs))[0].count).toBe(2);
    c.close();
  });

  it('fails the first hit at once while the store is known to be unreachable (a lost connection)', async () => {
    const store = new CountingStore(clock);
    const c = new BatchedWindowCounter(store, { ...OPTS, now: clock });
    store.failing = true;
    await expect(Promise.resolve(c.hit('a'))).rejects.toBeInstanceOf(DependencyUnavailableError);
    store.failing = false;
    expect((await c.hit('a')).count).toBe(1);
    c.close();
  });
});
