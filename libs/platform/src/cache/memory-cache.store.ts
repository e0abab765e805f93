import { CacheStore, type CacheScript, type LocalKeys } from './cache-store';

/** In-process CacheStore for standalone mode and unit tests; same semantics as the Redis one. */
export class MemoryCacheStore extends CacheStore {
  private readonly data = new Map<string, { value: string; expiresAt: number | null }>();

  constructor(private readonly now: () => number = Date.now) {
    super();
    // Expired keys nobody reads again (rate-limit windows of one-off addresses) are swept once a minute.
    setInterval(() => {
      for (const key of [...this.data.keys()]) this.live(key);
    }, 60_000).unref();
  }

  private live(key: string) {
    const e = this.data.get(key);
    if (!e) return undefined;
    if (e.expiresAt !== null && e.expiresAt <= this.now()) {
      this.data.delete(key);
      return undefined;
    }
    return e;
  }

  async get(key: string) {
    return this.live(key)?.value ?? null;
  }
  async mget(keys: string[]) {
    return keys.map((k) => this.live(k)?.value ?? null);
  }
  async set(key: string, value: string, ttlMs?: number) {
    this.data.set(key, { value, expiresAt: ttlMs ? this.now() + ttlMs : null });
  }
  async setIfAbsent(key: string, value: string, ttlMs: number) {
    if (this.live(key)) return false;
    this.data.set(key, { value, expiresAt: this.now() + ttlMs });
    return true;
  }
  async getDel(key: string) {
    const e = this.live(key);
    this.data.delete(key);
    return e?.value ?? null;
  }
  async del(...keys: string[]) {
    keys.forEach((k) => this.data.delete(k));
  }
  async increment(key: string, windowMs: number) {
    const e = this.live(key);
    if (!e) {
      this.data.set(key, { value: '1', expiresAt: this.now() + windowMs });
      return { count: 1, ttlMs: windowMs };
    }
    e.value = String(Number(e.value) + 1);
    return { count: Number(e.value), ttlMs: (e.expiresAt ?? this.now() + windowMs) - this.now() };
  }
  async incrementMany(entries: readonly { key: string; by: number }[], windowMs: number) {
    return entries.map(({ key, by }) => {
      let e = this.live(key);
      if (!e) {
        e = { value: '0', expiresAt: this.now() + windowMs };
        this.data.set(key, e);
      }
      e.value = String(Number(e.value) + by);
      return { count: Number(e.value), ttlMs: (e.expiresAt ?? this.now() + windowMs) - this.now() };
    });
  }
  async runScript(script: CacheScript, keys: string[], args: (string | number)[]) {
    const local: LocalKeys = {
      get: (key) => this.live(key)?.value ?? null,
      set: (key, value, ttlMs) =>
        void this.data.set(key, { value, expiresAt: ttlMs ? this.now() + ttlMs : null }),
      del: (key) => void this.data.delete(key),
      incr: (key, ttlMs) => {
        const e = this.live(key);
        if (!e) {
          this.data.set(key, { value: '1', expiresAt: this.now() + ttlMs });
          return 1;
        }
        e.value = String(Number(e.value) + 1);
        return Number(e.value);
      },
    };
    return script.local(local, keys, args.map(String));
  }
  async ping() {}
  async close() {
    /* the data lives as long as the process */
  }
}

/** One store per process: in standalone mode the three apps share it, as they would share Redis. */
let shared: MemoryCacheStore | null = null;
export function sharedMemoryCacheStore(): MemoryCacheStore {
  shared ??= new MemoryCacheStore();
  return shared;
}
