import 'reflect-metadata';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import Redis from 'ioredis';
import { bcryptComparesPerSecond, type BcryptBaseline } from './bcrypt-baseline';
import { newSession, type Api } from './client';
import { checkHotPaths, type HotPathFinding } from './hot-paths';
import { hammer, type LoadResult, type Target } from './load';
import { PgBackendsCpu } from './pg-cpu';
import {
  cpuSeconds,
  freePort,
  machineBusySeconds,
  productionEnv,
  startNode,
  stop,
  waitReady,
  type Child,
} from './processes';
import { BENCH_PASSWORD, newEncryptionKey, seed, type Seeded } from './seed';
import { benchTargets, freshAddress, PRODUCTION, type Shape } from './targets';

/**
 * `npm run bench`: sign-up, sign-in, `/me` and refresh of the real auth runtime under autocannon
 * on loopback, each in rounds interleaved with a baseline (bcrypt.compare per second on all
 * cores for sign-in; a bare NestJS route for `/me` and refresh), then a sequential hot-path check
 * (Postgres round trips and bcrypt calls per request). Exits 0 whatever the ratios (it measures);
 * 1 when set-up fails or the server does not start.
 */

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '9' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    shape: { type: 'string', default: 'both' },
    'database-url': {
      type: 'string',
      default: 'postgres://postgres@127.0.0.1:5432/gatehouse_bench',
    },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379/5' },
    'bcrypt-cost': { type: 'string', default: '10' },
    'skip-check': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

const DURATION_S = Number(args.duration);
const ROUNDS = Number(args.rounds);
const WARMUP_S = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
const BCRYPT_COST = Number(args['bcrypt-cost']);
const DATABASE_URL = args['database-url'];
const REDIS_URL = args['redis-url'];
/** `--cpu-prof <dir>`: the auth runtime and the bare app write V8 CPU profiles there on exit. */
const CPU_PROF_ARGS = args['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', args['cpu-prof']] : [];

const TARGETS = { signIn: 0.8, me: 0.5, refresh: 0.3 } as const;

/**
 * The two shapes a run measures (`--shape today|production|both`). `today`: rate limits off,
 * `--connections` (10), one client address. `production` (issue 37's table): rate limits on, 32
 * connections, the server trusting loopback as its proxy, a new client address for every sign-up
 * and sign-in (so no route limit refuses the bench) and 4,096 addresses in turn for `/me` and
 * refresh (each stays far below 1000 a minute).
 */
const SHAPES: Shape[] = args.shape === 'both' ? ['today', 'production'] : [args.shape as Shape];

interface Row {
  name: string;
  load: LoadResult;
  serverCpuS: number | null;
  dbCpuS: number | null;
  redisCpuS: number | null;
  clientCpuS: number;
  /** CPU seconds the whole machine was busy during the window (every core, every process). */
  machineBusyS: number | null;
  /** Wall-clock length of the window the CPU figures cover. */
  windowS: number;
  baseline?: {
    name: string;
    perSecond: number;
    target: number;
    /** One ratio per round (the endpoint against the baseline measured beside it); the verdict is their median. */
    roundRatios: number[];
  };
}

function say(line = ''): void {
  process.stdout.write(`${line}\n`);
}

function fail(message: string): never {
  process.stderr.write(`[bench] ${message}\n`);
  process.exit(1);
}

/** One measured window of `seconds` against `target`, with CPU read around it (warm-up first when asked). */
async function measure(
  name: string,
  target: Target,
  serverPid: number,
  pg: PgBackendsCpu,
  redisPid: number | null,
  opts: { warmUp: boolean; seconds: number; connections: number },
): Promise<Row> {
  if (opts.warmUp && WARMUP_S > 0) await hammer(target, WARMUP_S, opts.connections);
  const server0 = cpuSeconds(serverPid);
  const redis0 = redisPid === null ? null : cpuSeconds(redisPid);
  const db0 = await pg.snapshot();
  const machine0 = machineBusySeconds();
  const wall0 = process.hrtime.bigint();
  const client0 = process.cpuUsage();
  const load = await hammer(target, opts.seconds, opts.connections);
  const client = process.cpuUsage(client0);
  const machine1 = machineBusySeconds();
  const windowS = Number(process.hrtime.bigint() - wall0) / 1e9;
  const server1 = cpuSeconds(serverPid);
  const redis1 = redisPid === null ? null : cpuSeconds(redisPid);
  const db1 = await pg.snapshot();
  return {
    name,
    load,
    serverCpuS: server0 === null || server1 === null ? null : server1 - server0,
    dbCpuS: PgBackendsCpu.delta(db0, db1),
    redisCpuS: redis0 === null || redis1 === null ? null : redis1 - redis0,
    clientCpuS: (client.user + client.system) / 1e6,
    machineBusyS: machine0 === null || machine1 === null ? null : machine1 - machine0,
    windowS,
  };
}

const sum = (xs: (number | null)[]): number | null =>
  xs.some((x) => x === null) ? null : xs.reduce<number>((a, x) => a + (x ?? 0), 0);
const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The rounds of one endpoint as one row: counts, CPU and time added up, p50 the median round's, p99 the worst. */
function combine(rounds: Row[]): Row {
  const loads = rounds.map((r) => r.load);
  const ok = loads.reduce((a, l) => a + l.ok, 0);
  const durationS = loads.reduce((a, l) => a + l.durationS, 0);
  return {
    name: rounds[0].name,
    load: {
      rps: ok / durationS,
      p50: median(loads.map((l) => l.p50)),
      p99: Math.max(...loads.map((l) => l.p99)),
      ok,
      non2xx: loads.reduce((a, l) => a + l.non2xx, 0),
      errors: loads.reduce((a, l) => a + l.errors, 0),
      mismatches: loads.reduce((a, l) => a + l.mismatches, 0),
      durationS,
    },
    serverCpuS: sum(rounds.map((r) => r.serverCpuS)),
    dbCpuS: sum(rounds.map((r) => r.dbCpuS)),
    redisCpuS: sum(rounds.map((r) => r.redisCpuS)),
    clientCpuS: rounds.reduce((a, r) => a + r.clientCpuS, 0),
    machineBusyS: sum(rounds.map((r) => r.machineBusyS)),
    windowS: rounds.reduce((a, r) => a + r.windowS, 0),
  };
}

/** The pid of the Redis server (from INFO), to read its CPU from /proc; null when it is not local. */
async function findRedisPid(url: string): Promise<number | null> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const m = /process_id:(\d+)/.exec(await client.info('server'));
    const pid = m ? Number(m[1]) : null;
    return pid !== null && cpuSeconds(pid) !== null ? pid : null;
  } catch {
    return null;
  } finally {
    client.disconnect();
  }
}

/** `count` sessions of one user, signed in a few at a time (each costs a bcrypt compare). */
async function sessions(api: Api, email: string, count: number) {
  const out: { accessToken: string; refreshToken: string }[] = [];
  for (let i = 0; i < count; i += 4) {
    out.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(4, count - i) }, () =>
          newSession(api, email, BENCH_PASSWORD),
        ),
      )),
    );
  }
  return out;
}

function serverEnv(
  encryptionKey: string,
  port: number,
  shape: Shape = 'today',
): Record<string, string> {
  return productionEnv(encryptionKey, {
    ...(shape === 'production' ? { RATE_LIMITS_ENABLED: 'true', TRUST_PROXY: 'loopback' } : {}),
    AUTH_RUNTIME_PORT: String(port),
    DATABASE_URL,
    REDIS_URL,
    BCRYPT_COST: String(BCRYPT_COST),
    // Metrics stay on as in production, on an ephemeral port so a running `npm start` cannot collide.
    AUTH_RUNTIME_METRICS_PORT: '0',
  });
}

const fmt = (v: number | null | undefined, digits = 1) =>
  v === null || v === undefined || !Number.isFinite(v) ? 'n/a' : v.toFixed(digits);

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const responses = (r: Row) => r.load.ok + r.load.non2xx + r.load.mismatches;

function cpuMsPerRequest(r: Row): number | null {
  return r.serverCpuS === null ? null : (r.serverCpuS * 1000) / responses(r);
}

/**
 * Requests per second this row would reach on a machine given to it alone, from its CPU costs:
 * all cores divided by the CPU one request costs everywhere (server, its Postgres backends, Redis,
 * load generator), and for a server that works on one thread (every route but password hashing,
 * whose bcrypt runs on libuv's pool) also one core divided by the server's own cost.
 */
function quietCapacity(r: Row, singleThreaded: boolean): number | null {
  const own = cpuMsPerRequest(r);
  if (own === null) return null;
  const n = responses(r);
  const total = own + (((r.dbCpuS ?? 0) + (r.redisCpuS ?? 0) + r.clientCpuS) * 1000) / n;
  return Math.min((availableParallelism() * 1000) / total, singleThreaded ? 1000 / own : Infinity);
}

/**
 * The ratio estimated from CPU time rather than wall time: much less sensitive to other processes
 * on a shared machine than the req/s ratio (contention stretches wall time, barely CPU time).
 */
function quietRatio(r: Row, bare: Row, bcrypt: BcryptBaseline): number | null {
  if (!r.baseline) return null;
  const own = quietCapacity(r, r.baseline.name !== 'bcrypt.compare');
  const base =
    r.baseline.name === 'bcrypt.compare'
      ? (availableParallelism() * bcrypt.compares) / bcrypt.cpuS
      : quietCapacity(bare, true);
  return own === null || base === null ? null : own / base;
}

/** Machine CPU not spent by the server, its Postgres backends, Redis or the load generator. */
function others(r: Row): number | null {
  if (r.machineBusyS === null || r.serverCpuS === null) return null;
  return r.machineBusyS - r.serverCpuS - (r.dbCpuS ?? 0) - (r.redisCpuS ?? 0) - r.clientCpuS;
}

function report(
  rows: Row[],
  bare: Row,
  bcrypt: BcryptBaseline & { othersCpuS: number | null },
  findings: HotPathFinding[] | null,
): void {
  const all = [...rows, bare];
  say();
  say(
    table(
      [
        'endpoint',
        'req/s',
        'p50 ms',
        'p99 ms',
        'errors',
        'server CPU s',
        'baseline',
        'baseline req/s',
        'ratio',
        'target',
        'result',
      ],
      all.map((r) => {
        const errors = r.load.non2xx + r.load.errors + r.load.mismatches;
        const ratio = r.baseline ? median(r.baseline.roundRatios) : null;
        return [
          r.name,
          fmt(r.load.rps),
          fmt(r.load.p50, 0),
          fmt(r.load.p99, 0),
          String(errors),
          fmt(r.serverCpuS, 2),
          r.baseline?.name ?? '-',
          r.baseline ? fmt(r.baseline.perSecond) : '-',
          ratio === null ? '-' : fmt(ratio, 2),
          r.baseline ? `>= ${r.baseline.target}` : '-',
          ratio === null || !r.baseline ? '-' : ratio >= r.baseline.target ? 'PASS' : 'below',
        ];
      }),
    ),
  );
  for (const r of rows) {
    if (r.baseline)
      say(
        `  ${r.name} against ${r.baseline.name}, per round: ${r.baseline.roundRatios.map((x) => fmt(x, 2)).join(', ')} (the ratio above is their median)`,
      );
  }
  say();
  say('Where the time goes (measured windows only, rounds added up):');
  say(
    table(
      [
        'endpoint',
        'responses',
        'server CPU ms/req',
        'Postgres CPU ms/req',
        'Redis CPU ms/req',
        'load-gen CPU s',
        'machine busy',
        'other processes CPU s',
        'ratio est. from CPU',
      ],
      all.map((r) => {
        const n = responses(r);
        return [
          r.name,
          String(n),
          fmt(cpuMsPerRequest(r), 2),
          fmt(r.dbCpuS === null ? null : (r.dbCpuS * 1000) / n, 2),
          fmt(r.redisCpuS === null ? null : (r.redisCpuS * 1000) / n, 2),
          fmt(r.clientCpuS, 2),
          r.machineBusyS === null
            ? 'n/a'
            : `${Math.round((100 * r.machineBusyS) / (r.windowS * availableParallelism()))}%`,
          fmt(others(r), 2),
          r.baseline ? fmt(quietRatio(r, bare, bcrypt), 2) : '-',
        ];
      }),
    ),
  );
  say(
    `bcrypt baseline: ${bcrypt.compares} compares at cost ${BCRYPT_COST}, ${bcrypt.concurrency} in flight, ` +
      `${fmt(bcrypt.perSecond)}/s, ${fmt(bcrypt.cpuS, 2)} CPU s; other processes ${fmt(bcrypt.othersCpuS, 2)} CPU s`,
  );
  const cores = availableParallelism();
  const noise = Math.max(
    ...all.map((r) => (others(r) ?? 0) / (r.windowS * cores)),
    (bcrypt.othersCpuS ?? 0) / (bcrypt.elapsedS * cores),
  );
  if (noise > 0.1) {
    say(
      `WARNING: other processes took up to ${Math.round(noise * 100)}% of the machine during a measured window; ` +
        'req/s and ratios are not reliable (re-run on a quiet machine).',
    );
  }
  if (findings) {
    say();
    say(
      'Hot-path check (sequential requests, warm caches, through counting Postgres and Redis proxies):',
    );
    say(
      table(
        [
          'endpoint',
          'requests',
          'Postgres round trips/req',
          'Redis commands/req',
          'bcrypt compares/req',
          'bcrypt hashes/req',
          'server CPU ms/req',
        ],
        findings.map((f) => [
          f.endpoint,
          String(f.requests),
          fmt(f.pgRoundTrips, 2),
          fmt(f.redisCommands, 2),
          fmt(f.bcryptCompares, 2),
          fmt(f.bcryptHashes, 2),
          fmt(f.serverCpuMs, 2),
        ]),
      ),
    );
    for (const f of findings) {
      say(`  ${f.endpoint}:${f.statements.length ? '' : ' (no SQL)'}`);
      for (const s of f.statements) say(`    ${s}`);
      say(`    Redis: ${f.redis.join(', ') || 'none'}`);
    }
  }
  if (args.json)
    say(JSON.stringify({ date: new Date().toISOString(), rows: all, bcrypt, findings }, null, 2));
}

async function main(): Promise<void> {
  if (
    ![DURATION_S, WARMUP_S, CONNECTIONS, BCRYPT_COST, ROUNDS].every(
      (n) => Number.isFinite(n) && n >= 0,
    ) ||
    CONNECTIONS < 1 ||
    !Number.isInteger(ROUNDS) ||
    ROUNDS < 1 ||
    DURATION_S <= 0
  ) {
    fail(
      '--duration, --warmup, --connections, --rounds and --bcrypt-cost take positive numbers (--rounds a whole one)',
    );
  }
  const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const cpuModel = cpus()[0]?.model ?? 'unknown CPU';
  say(
    `Gatehouse bench ${new Date().toISOString()}: node ${process.version}, ${availableParallelism()} cores (${cpuModel}), load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  say(
    `${DURATION_S} s per endpoint in ${ROUNDS} rounds interleaved with its baseline, after a ${WARMUP_S} s warm-up, bcrypt cost ${BCRYPT_COST}, shapes: ${SHAPES.map((sh) => (sh === 'today' ? `today (${CONNECTIONS} connections, rate limits off)` : `production (${PRODUCTION.connections} connections, rate limits on, a client address per sign-in)`)).join(' and ')}, database ${new URL(DATABASE_URL).pathname.slice(1)}, redis ${REDIS_URL}`,
  );

  const encryptionKey = newEncryptionKey();
  let seeded: Seeded;
  try {
    seeded = await seed(
      { databaseUrl: DATABASE_URL, redisUrl: REDIS_URL, encryptionKey, bcryptCost: BCRYPT_COST },
      runId,
    );
  } catch (err) {
    fail(
      `set-up failed (is PostgreSQL running at ${DATABASE_URL}?): ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const pg = await PgBackendsCpu.connect(DATABASE_URL);
  const redis = await findRedisPid(REDIS_URL);

  let server: Child | null = null;
  let bareApp: Child | null = null;
  const cleanUp = async () => {
    await Promise.all([stop(server), stop(bareApp)]);
  };
  process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));

  /** One shape's rounds: its own auth runtime and bare app, the same seeded users. */
  async function measureShape(shape: Shape) {
    const production = shape === 'production';
    const connections = production ? PRODUCTION.connections : CONNECTIONS;
    const targets = production ? { ...TARGETS, ...PRODUCTION.targets } : TARGETS;
    const port = await freePort();
    const env = serverEnv(encryptionKey, port, shape);
    server = startNode('auth-runtime', 'dist/apps/auth-runtime/src/main.js', env, {
      nodeArgs: CPU_PROF_ARGS,
    });
    try {
      await waitReady(`http://127.0.0.1:${port}/health/ready`, server);
    } catch (err) {
      process.stderr.write(`${server.output()}\n`);
      throw err;
    }
    const base = `http://127.0.0.1:${port}`;
    const api: Api = {
      baseUrl: base,
      projectKey: seeded.projectKey,
      ...(production ? { forwardedFor: freshAddress } : {}),
    };

    say(`[${shape}] sessions for /me and refresh…`);
    // Every window's end drops up to `connections` chains (their rotated successors are never read).
    const pool = (await sessions(api, seeded.readerUser.email, connections * (ROUNDS + 3) + 4)).map(
      (s) => s.refreshToken,
    );
    const meToken = (await newSession(api, seeded.readerUser.email, BENCH_PASSWORD)).accessToken;

    // Each endpoint runs in ROUNDS windows interleaved with its baseline, so both see the same
    // machine; a burst from another process spoils one round, not the verdict (the median ratio).
    const seconds = DURATION_S / ROUNDS;
    const run = (name: string, target: Target, pid: number, round: number) =>
      measure(name, target, pid, pg, redis, { warmUp: round === 0, seconds, connections });
    const { signUpTarget, signInTarget, meTarget, refreshTarget } = benchTargets({
      base,
      seeded,
      runId,
      shape,
      meToken,
      pool,
    });

    say(`[${shape}] sign-up and sign-in, between rounds of bcrypt.compare on all cores…`);
    const signUps: Row[] = [];
    const signIns: Row[] = [];
    const bcryptRounds: (BcryptBaseline & { othersCpuS: number | null })[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const busy0 = machineBusySeconds();
      const measured = await bcryptComparesPerSecond(BCRYPT_COST, seconds);
      const busy1 = machineBusySeconds();
      bcryptRounds.push({
        ...measured,
        othersCpuS: busy0 === null || busy1 === null ? null : busy1 - busy0 - measured.cpuS,
      });
      signUps.push(await run('POST /v1/auth/sign-up', signUpTarget, server.pid, r));
      signIns.push(await run('POST /v1/auth/sign-in', signInTarget, server.pid, r));
    }
    const compares = bcryptRounds.reduce((a, b) => a + b.compares, 0);
    const elapsedS = bcryptRounds.reduce((a, b) => a + b.elapsedS, 0);
    const bcrypt = {
      perSecond: compares / elapsedS,
      compares,
      elapsedS,
      concurrency: bcryptRounds[0].concurrency,
      cpuS: bcryptRounds.reduce((a, b) => a + b.cpuS, 0),
      othersCpuS: sum(bcryptRounds.map((b) => b.othersCpuS)),
    };

    say(`[${shape}] /me and refresh, between rounds of a bare NestJS route…`);
    const barePort = await freePort();
    bareApp = startNode(
      'bare-app',
      'dist/bench/bare-app.js',
      { NODE_ENV: 'production' },
      {
        args: [String(barePort)],
        nodeArgs: CPU_PROF_ARGS,
      },
    );
    await waitReady(`http://127.0.0.1:${barePort}/me`, bareApp, 30_000);
    const bareTarget: Target = {
      url: `http://127.0.0.1:${barePort}/me`,
      method: 'GET',
      headers: {},
    };
    const mes: Row[] = [];
    const bares: Row[] = [];
    const refreshes: Row[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      mes.push(await run('GET /v1/auth/me', meTarget, server.pid, r));
      bares.push(await run('bare NestJS GET (baseline)', bareTarget, bareApp.pid, r));
      refreshes.push(await run('POST /v1/auth/refresh', refreshTarget, server.pid, r));
    }
    await stop(bareApp);
    bareApp = null;
    await stop(server);
    server = null;

    const perRound = (rounds: Row[], baseline: number[]) =>
      rounds.map((row, i) => row.load.rps / baseline[i]);
    const bareRps = bares.map((b) => b.load.rps);
    const bcryptRps = bcryptRounds.map((b) => b.perSecond);
    const bare = combine(bares);
    const against = (
      rounds: Row[],
      name: string,
      perSecond: number,
      target: number,
      baseline: number[],
    ): Row => ({
      ...combine(rounds),
      baseline: { name, perSecond, target, roundRatios: perRound(rounds, baseline) },
    });
    const rows: Row[] = [
      production
        ? against(signUps, 'bcrypt.compare', bcrypt.perSecond, PRODUCTION.targets.signUp, bcryptRps)
        : combine(signUps),
      against(signIns, 'bcrypt.compare', bcrypt.perSecond, targets.signIn, bcryptRps),
      against(mes, 'bare route', bare.load.rps, targets.me, bareRps),
      against(refreshes, 'bare route', bare.load.rps, targets.refresh, bareRps),
    ];
    return { rows, bare, bcrypt };
  }

  try {
    const results: [Shape, Awaited<ReturnType<typeof measureShape>>][] = [];
    for (const shape of SHAPES) results.push([shape, await measureShape(shape)]);

    let findings: HotPathFinding[] | null = null;
    if (!args['skip-check']) {
      say('hot-path check…');
      try {
        findings = await checkHotPaths(
          serverEnv(encryptionKey, 0),
          DATABASE_URL,
          REDIS_URL,
          seeded,
          runId,
        );
      } catch (err) {
        say(`hot-path check failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    for (const [i, [shape, { rows, bare, bcrypt }]] of results.entries()) {
      say();
      say(
        shape === 'today'
          ? `== today's shape: ${CONNECTIONS} connections, rate limits off, one client address`
          : `== production shape: ${PRODUCTION.connections} connections, rate limits on, a new client address per sign-up and sign-in, ${PRODUCTION.addresses} addresses in turn for /me and refresh`,
      );
      report(rows, bare, bcrypt, i === results.length - 1 ? findings : null);
    }
  } finally {
    await cleanUp();
    await pg.close();
  }
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
