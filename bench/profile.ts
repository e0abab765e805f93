import 'reflect-metadata';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { newSession, type Api } from './client';
import { summarise } from './cpu-profile-summary';
import { hammer } from './load';
import { freePort, productionEnv, startNode, stop, waitReady } from './processes';
import { BENCH_PASSWORD, newEncryptionKey, seed } from './seed';
import { benchTargets, freshAddress, PRODUCTION } from './targets';

/**
 * `npm run bench:profile`: a CPU profile of the auth runtime under each load of the production
 * shape (docs/performance.md), one server per endpoint so each profile holds one kind of request:
 * a warm-up, then `--seconds` of load with 32 connections, then the server stops and writes
 * `<dir>/<endpoint>/*.cpuprofile`, summarised as text (bench/cpu-profile-summary.ts). The files
 * open in Chrome DevTools (Performance) or speedscope as flame graphs.
 */
const { values: args } = parseArgs({
  options: {
    endpoints: { type: 'string', default: 'me,refresh,sign-in,sign-up' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '4' },
    dir: { type: 'string', default: 'tmp/profiles' },
    top: { type: 'string', default: '20' },
    'database-url': {
      type: 'string',
      default: 'postgres://postgres@127.0.0.1:5432/gatehouse_bench',
    },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379/5' },
  },
});

async function main(): Promise<void> {
  const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const encryptionKey = newEncryptionKey();
  const databaseUrl = args['database-url'];
  const redisUrl = args['redis-url'];
  const seeded = await seed({ databaseUrl, redisUrl, encryptionKey, bcryptCost: 10 }, runId);
  for (const endpoint of args.endpoints.split(',')) {
    const dir = join(args.dir, endpoint);
    mkdirSync(dir, { recursive: true });
    const port = await freePort();
    const server = startNode(
      'auth-runtime',
      'dist/apps/auth-runtime/src/main.js',
      productionEnv(encryptionKey, {
        AUTH_RUNTIME_PORT: String(port),
        AUTH_RUNTIME_METRICS_PORT: '0',
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        BCRYPT_COST: '10',
        RATE_LIMITS_ENABLED: 'true',
        TRUST_PROXY: 'loopback',
      }),
      { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir] },
    );
    try {
      await waitReady(`http://127.0.0.1:${port}/health/ready`, server);
      const base = `http://127.0.0.1:${port}`;
      const api: Api = { baseUrl: base, projectKey: seeded.projectKey, forwardedFor: freshAddress };
      const pool: string[] = [];
      for (let i = 0; i < PRODUCTION.connections * 3; i++)
        pool.push((await newSession(api, seeded.readerUser.email, BENCH_PASSWORD)).refreshToken);
      const meToken = (await newSession(api, seeded.readerUser.email, BENCH_PASSWORD)).accessToken;
      const t = benchTargets({ base, seeded, runId, shape: 'production', meToken, pool });
      const target = {
        me: t.meTarget,
        refresh: t.refreshTarget,
        'sign-in': t.signInTarget,
        'sign-up': t.signUpTarget,
      }[endpoint];
      if (!target) throw new Error(`unknown endpoint ${endpoint} (me, refresh, sign-in, sign-up)`);
      await hammer(target, Number(args.warmup), PRODUCTION.connections);
      const load = await hammer(target, Number(args.seconds), PRODUCTION.connections);
      process.stdout.write(
        `${endpoint}: ${load.rps.toFixed(1)} req/s, p50 ${load.p50} ms, ${load.non2xx + load.errors + load.mismatches} errors\n`,
      );
    } finally {
      await stop(server);
    }
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.cpuprofile')))
      process.stdout.write(
        `${summarise(JSON.parse(readFileSync(join(dir, f), 'utf8')), Number(args.top))}\n\n`,
      );
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`[bench:profile] ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
