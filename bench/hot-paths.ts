import { join } from 'node:path';
import { me, newSession, refresh, signIn, signUp, type Api, type Answer } from './client';
import { PgStatementCounter } from './pg-counter';
import { RedisCommandCounter } from './redis-counter';
import { cpuSeconds, freePort, ROOT, startNode, stop, waitReady, type Child } from './processes';
import { BENCH_PASSWORD, type Seeded } from './seed';

export interface HotPathFinding {
  endpoint: string;
  requests: number;
  /** Postgres round trips per request (simple queries + extended-protocol Syncs). */
  pgRoundTrips: number;
  /** Redis commands per request. */
  redisCommands: number;
  bcryptCompares: number;
  bcryptHashes: number;
  /** CPU the server spent per request, unloaded (sequential requests). */
  serverCpuMs: number | null;
  /** The SQL one request sent, in order. */
  statements: string[];
  /** The Redis commands one request sent, in order. */
  redis: string[];
}

async function bcryptCalls(child: Child): Promise<{ compares: number; hashes: number }> {
  const p = child.process;
  const answer = new Promise<Record<string, number>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the bcrypt probe did not answer')), 5000);
    const onMessage = (m: unknown) => {
      const calls = (m as { bcryptCalls?: Record<string, number> } | null)?.bcryptCalls;
      if (!calls) return;
      clearTimeout(timer);
      p.off('message', onMessage);
      resolve(calls);
    };
    p.on('message', onMessage);
  });
  p.send('bcrypt-calls');
  const c = await answer;
  return {
    compares: (c.compare ?? 0) + (c.compareSync ?? 0),
    hashes: (c.hash ?? 0) + (c.hashSync ?? 0),
  };
}

/**
 * Runs a second auth runtime whose Postgres and Redis connections go through counting proxies and
 * whose bcrypt is wrapped by a counting preload, then sends requests one at a time with warm caches
 * and reports, per request, Postgres round trips, Redis commands and bcrypt calls. Sequential and
 * unloaded on purpose: it checks what each request does, not how fast.
 */
export async function checkHotPaths(
  serverEnv: Record<string, string>,
  databaseUrl: string,
  redisUrl: string,
  seeded: Seeded,
  runId: string,
): Promise<HotPathFinding[]> {
  const db = new URL(databaseUrl);
  const counter = new PgStatementCounter(db.hostname || '127.0.0.1', Number(db.port || 5432));
  await counter.start();
  db.hostname = '127.0.0.1';
  db.port = String(counter.port);
  const cache = new URL(redisUrl);
  const redisCounter = new RedisCommandCounter(
    cache.hostname || '127.0.0.1',
    Number(cache.port || 6379),
  );
  await redisCounter.start();
  cache.hostname = '127.0.0.1';
  cache.port = String(redisCounter.port);
  const port = await freePort();
  let child: Child | null = null;
  try {
    child = startNode(
      'auth-runtime (hot-path check)',
      'dist/apps/auth-runtime/src/main.js',
      {
        ...serverEnv,
        DATABASE_URL: db.toString(),
        REDIS_URL: cache.toString(),
        AUTH_RUNTIME_PORT: String(port),
      },
      {
        preload: [join(ROOT, 'dist/bench/bcrypt-probe.js')],
        ipc: true,
      },
    );
    const api: Api = { baseUrl: `http://127.0.0.1:${port}`, projectKey: seeded.projectKey };
    await waitReady(`${api.baseUrl}/health/ready`, child);
    const session = await newSession(api, seeded.readerUser.email, seeded.readerUser.password);
    let chain = session.refreshToken;
    let signups = 0;

    const scenarios: {
      endpoint: string;
      requests: number;
      send: () => Promise<Answer>;
      ok: (a: Answer) => boolean;
    }[] = [
      {
        endpoint: 'POST /v1/auth/sign-up',
        requests: 5,
        send: () => signUp(api, `check-${runId}-${signups++}@bench.example.com`, BENCH_PASSWORD),
        ok: (a) => a.status === 201,
      },
      {
        endpoint: 'POST /v1/auth/sign-in',
        requests: 5,
        send: () => signIn(api, seeded.signInUsers[0].email, seeded.signInUsers[0].password),
        ok: (a) => a.status === 200,
      },
      {
        endpoint: 'GET /v1/auth/me',
        requests: 100,
        send: () => me(api, session.accessToken),
        ok: (a) => a.status === 200 && a.body.user !== null,
      },
      {
        endpoint: 'POST /v1/auth/refresh',
        requests: 100,
        send: async () => {
          const a = await refresh(api, chain);
          if (a.refreshToken) chain = a.refreshToken;
          return a;
        },
        ok: (a) => a.status === 200 && a.refreshToken !== null,
      },
    ];

    const findings: HotPathFinding[] = [];
    for (const s of scenarios) {
      const warm = await s.send(); // fills the project and signing-key caches for this path
      if (!s.ok(warm))
        throw new Error(`${s.endpoint} answered ${warm.status} during the hot-path check`);
      await new Promise((r) => setTimeout(r, 100));
      const before = await bcryptCalls(child);
      const cpu0 = cpuSeconds(child.pid);
      let roundTrips = 0;
      let redisCommands = 0;
      let last: string[] = [];
      let lastRedis: string[] = [];
      for (let i = 0; i < s.requests; i++) {
        counter.reset();
        redisCounter.reset();
        const a = await s.send();
        if (!s.ok(a))
          throw new Error(`${s.endpoint} answered ${a.status} during the hot-path check`);
        await new Promise((r) => setTimeout(r, 5)); // nothing should arrive after the response; let it show if it does
        const got = counter.reset();
        roundTrips += got.roundTrips;
        last = got.statements;
        lastRedis = redisCounter.reset();
        redisCommands += lastRedis.length;
      }
      const cpu1 = cpuSeconds(child.pid);
      const after = await bcryptCalls(child);
      findings.push({
        endpoint: s.endpoint,
        requests: s.requests,
        pgRoundTrips: roundTrips / s.requests,
        redisCommands: redisCommands / s.requests,
        bcryptCompares: (after.compares - before.compares) / s.requests,
        bcryptHashes: (after.hashes - before.hashes) / s.requests,
        serverCpuMs: cpu0 === null || cpu1 === null ? null : ((cpu1 - cpu0) * 1000) / s.requests,
        statements: last,
        redis: lastRedis,
      });
    }
    return findings;
  } finally {
    await stop(child);
    await counter.stop();
    await redisCounter.stop();
  }
}
