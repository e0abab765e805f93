import Redis from 'ioredis';
import { DependencyUnavailableError } from '../platform.error';
import { CacheStore, type CacheScript } from './cache-store';

const INCREMENT = `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local t = redis.call('PTTL', KEYS[1])
if t < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); t = tonumber(ARGV[1]) end
return {c, t}`;

const INCREMENT_MANY = `local out = {}
for i, key in ipairs(KEYS) do
  local c = redis.call('INCRBY', key, ARGV[i + 1])
  local t = redis.call('PTTL', key)
  if t < 0 then redis.call('PEXPIRE', key, ARGV[1]); t = tonumber(ARGV[1]) end
  out[2 * i - 1] = c
  out[2 * i] = t
end
return out`;

/** Options shared by every Redis connection that serves requests: fail fast, never queue. */
export function redisRequestOptions(timeoutMs: number) {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    retryStrategy: (times: number) => Math.min(times * 200, 2000),
    lazyConnect: false,
    // Commands issued in the same tick (by concurrent requests, or one request's parallel lookups)
    // share one write and one round trip.
    enableAutoPipelining: true,
  };
}

export class RedisCacheStore extends CacheStore {
  readonly client: Redis;

  constructor(url: string, timeoutMs: number) {
    super();
    this.client = new Redis(url, redisRequestOptions(timeoutMs));
    // Connection errors surface on the commands that need Redis; the event itself is expected noise.
    this.client.on('error', () => undefined);
  }

  override get reachable(): boolean {
    return this.client.status === 'ready';
  }

  /** Resolves once connected; start-up calls it so an app never boots half-connected. */
  async waitUntilReady(timeoutMs: number): Promise<void> {
    if (this.client.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.client.off('ready', onReady);
        reject(
          new Error(
            `Cannot reach Redis (connect ECONNREFUSED ${this.client.options.host}:${this.client.options.port})`,
          ),
        );
      }, timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      this.client.once('ready', onReady);
    });
  }

  private async run<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      throw new DependencyUnavailableError('cache', err);
    }
  }

  get(key: string) {
    return this.run(() => this.client.get(key));
  }
  mget(keys: string[]) {
    return keys.length === 0 ? Promise.resolve([]) : this.run(() => this.client.mget(...keys));
  }
  async set(key: string, value: string, ttlMs?: number) {
    await this.run(() =>
      ttlMs
        ? this.client.set(key, value, 'PX', Math.max(1, Math.ceil(ttlMs)))
        : this.client.set(key, value),
    );
  }
  async setIfAbsent(key: string, value: string, ttlMs: number) {
    const r = await this.run(() =>
      this.client.set(key, value, 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX'),
    );
    return r === 'OK';
  }
  getDel(key: string) {
    return this.run(() => this.client.getdel(key));
  }
  async del(...keys: string[]) {
    if (keys.length) await this.run(() => this.client.del(...keys));
  }
  async increment(key: string, windowMs: number) {
    const [count, ttl] = (await this.run(() =>
      this.client.eval(INCREMENT, 1, key, String(Math.ceil(windowMs))),
    )) as [number, number];
    return { count: Number(count), ttlMs: Number(ttl) };
  }
  async incrementMany(entries: readonly { key: string; by: number }[], windowMs: number) {
    if (entries.length === 0) return [];
    const reply = (await this.run(() =>
      this.client.eval(
        INCREMENT_MANY,
        entries.length,
        ...entries.map((e) => e.key),
        String(Math.ceil(windowMs)),
        ...entries.map((e) => String(e.by)),
      ),
    )) as number[];
    return entries.map((_, i) => ({
      count: Number(reply[2 * i]),
      ttlMs: Number(reply[2 * i + 1]),
    }));
  }
  async runScript(script: CacheScript, keys: string[], args: (string | number)[]) {
    // EVAL sends the script each time; these scripts are a few hundred bytes and run on rare paths.
    const reply = await this.run(() =>
      this.client.eval(script.lua, keys.length, ...keys, ...args.map(String)),
    );
    return (reply as unknown[]).map(Number);
  }
  async ping() {
    await this.run(() => this.client.ping());
  }
  async close() {
    this.client.disconnect();
  }
}
