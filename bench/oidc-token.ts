import 'reflect-metadata';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Redis from 'ioredis';
import { newSession, type Api } from './client';
import { PgStatementCounter } from './pg-counter';
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
import { RedisCommandCounter } from './redis-counter';
import {
  CALLBACK,
  mintCode,
  oidcClient,
  REFRESH_TOKEN_RE,
  relyingParty,
  tokenHeaders,
  type MintedCode,
  type RelyingParty,
} from './oidc-relying-party';
import { BENCH_PASSWORD, newEncryptionKey, seed, type Seeded } from './seed';

/**
 * `npm run bench:oidc`: the token endpoint of a project's OpenID Connect provider
 * (`{issuer}/token`, oidc-provider mounted by the real auth runtime) under autocannon on loopback:
 * the authorization-code exchange and the refresh-token grant, each in rounds interleaved with the
 * bare NestJS route that `npm run bench` uses as its baseline (bench/bare-app.ts), then a
 * sequential check of PostgreSQL round trips and Redis commands per token request. Exits 0
 * whatever the figures (it measures); 1 when set-up fails or the server does not start.
 *
 * All three targets go through the same autocannon wrapper (`blast`, not load.ts's `hammer`): it
 * keeps every latency, so p95 is exact (autocannon's histogram has p90 and p97.5, no p95), and it
 * can send a fixed number of requests, which the code exchange needs (below).
 */

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '3' },
    'warmup-codes': { type: 'string', default: '300' },
    connections: { type: 'string', default: '10' },
    'mint-concurrency': { type: 'string', default: '8' },
    'max-codes': { type: 'string', default: '4000' },
    'check-requests': { type: 'string', default: '50' },
    'database-url': {
      type: 'string',
      default: 'postgres://postgres@127.0.0.1:5432/gatehouse_bench_oidc',
    },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379/9' },
    'bcrypt-cost': { type: 'string', default: '10' },
    'skip-check': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const WARMUP_S = Number(args.warmup);
const WARMUP_CODES = Number(args['warmup-codes']);
const CONNECTIONS = Number(args.connections);
const MINT_CONCURRENCY = Number(args['mint-concurrency']);
const MAX_CODES = Number(args['max-codes']);
const CHECK_REQUESTS = Number(args['check-requests']);
const DATABASE_URL = args['database-url'];
const REDIS_URL = args['redis-url'];
const BCRYPT_COST = Number(args['bcrypt-cost']);
/** `--cpu-prof <dir>`: the auth runtime under load writes a V8 CPU profile there on exit (minting included). */
const CPU_PROF_ARGS = args['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', args['cpu-prof']] : [];

/** Authorization codes live 60 s (OidcProviders' ttl.AuthorizationCode); a batch is minted in at most this long, so the oldest code is still valid when its round ends. */
const MINT_BUDGET_S = 30;
const CODE_TTL_S = 60;
function say(line = ''): void {
  if (!args.json) process.stdout.write(`${line}\n`);
}

function fail(message: string): never {
  process.stderr.write(`[bench:oidc] ${message}\n`);
  process.exit(1);
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// ---------------------------------------------------------------------------------------------
// Load generation

interface BlastTarget {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** The body of the next request (called once per request, just before it is written). */
  body?: () => string;
  /** Called with every 2xx body; false counts the answer as a mismatch, not a success. */
  onOk?: (body: string) => boolean;
  /** Called with every non-2xx answer. */
  onRefused?: (status: number, body: string) => void;
}

interface Blast {
  ok: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  mismatches: number;
  /** Wall clock from the first request written to the last answer read. */
  elapsedS: number;
  /** Every answer's latency in ms, sorted. */
  latencies: number[];
  /** A few refused answers, to show what went wrong. */
  refusals: string[];
}

/**
 * One autocannon run, `connections` keep-alive connections without pipelining, either for
 * `seconds` or for exactly `amount` requests (autocannon spreads them over the connections and
 * builds each request's body in `setupRequest` just before writing it).
 */
async function blast(
  target: BlastTarget,
  run: { seconds?: number; amount?: number },
): Promise<Blast> {
  const u = new URL(target.url);
  let ok = 0;
  let mismatches = 0;
  const latencies: number[] = [];
  const refusals: string[] = [];
  const { body, onOk, onRefused } = target;
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: u.origin,
        connections: CONNECTIONS,
        pipelining: 1,
        timeout: 10,
        ...(run.amount !== undefined ? { amount: run.amount } : { duration: run.seconds ?? 1 }),
        requests: [
          {
            method: target.method,
            path: `${u.pathname}${u.search}`,
            setupRequest: (req) => ({
              ...req,
              headers: target.headers,
              ...(body ? { body: body() } : {}),
            }),
            onResponse: (status: number, resBody: string) => {
              if (status >= 200 && status < 300) {
                if (!onOk || onOk(resBody)) ok++;
                else mismatches++;
              } else {
                if (refusals.length < 3) refusals.push(`${status} ${resBody.slice(0, 160)}`);
                onRefused?.(status, resBody);
              }
            },
          },
        ],
      },
      (err: unknown, res: autocannon.Result) =>
        err ? reject(err instanceof Error ? err : new Error('autocannon failed')) : resolve(res),
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) =>
      latencies.push(ms),
    );
  });
  const elapsedS = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    mismatches,
    elapsedS,
    latencies,
    refusals,
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

// ---------------------------------------------------------------------------------------------
// CPU around a window (as bench/run.ts reads it)

interface Window {
  name: string;
  load: Blast;
  serverCpuS: number | null;
  dbCpuS: number | null;
  redisCpuS: number | null;
  clientCpuS: number;
  machineBusyS: number | null;
  windowS: number;
}

interface Probes {
  serverPid: number;
  pg: PgBackendsCpu;
  redisPid: number | null;
}

async function measure(
  name: string,
  target: BlastTarget,
  run: { seconds?: number; amount?: number },
  pid: number,
  probes: Probes,
): Promise<Window> {
  const server0 = cpuSeconds(pid);
  const redis0 = probes.redisPid === null ? null : cpuSeconds(probes.redisPid);
  const db0 = await probes.pg.snapshot();
  const machine0 = machineBusySeconds();
  const wall0 = performance.now();
  const client0 = process.cpuUsage();
  const result = await blast(target, run);
  const client = process.cpuUsage(client0);
  const machine1 = machineBusySeconds();
  const windowS = (performance.now() - wall0) / 1000;
  const server1 = cpuSeconds(pid);
  const redis1 = probes.redisPid === null ? null : cpuSeconds(probes.redisPid);
  const db1 = await probes.pg.snapshot();
  return {
    name,
    load: result,
    serverCpuS: server0 === null || server1 === null ? null : server1 - server0,
    dbCpuS: PgBackendsCpu.delta(db0, db1),
    redisCpuS: redis0 === null || redis1 === null ? null : redis1 - redis0,
    clientCpuS: (client.user + client.system) / 1e6,
    machineBusyS: machine0 === null || machine1 === null ? null : machine1 - machine0,
    windowS,
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

// ---------------------------------------------------------------------------------------------
// The relying party: a project with the provider on, a first-party confidential client

/**
 * `count` codes, `MINT_CONCURRENCY` flows at a time over the signed-in sessions, in the order they
 * were made; fewer when MINT_BUDGET_S is up first (a slow machine must not hand the window expired codes).
 */
async function mintCodes(
  api: Api,
  rp: RelyingParty,
  sessions: string[],
  count: number,
): Promise<{ codes: MintedCode[]; seconds: number }> {
  const codes: MintedCode[] = [];
  let started = 0;
  const t0 = performance.now();
  const deadline = t0 + MINT_BUDGET_S * 1000;
  await Promise.all(
    Array.from({ length: Math.min(MINT_CONCURRENCY, count) }, async (_, worker) => {
      while (started < count && performance.now() < deadline) {
        started++;
        codes.push(await mintCode(api, rp, sessions[worker % sessions.length]));
      }
    }),
  );
  return { codes, seconds: (performance.now() - t0) / 1000 };
}

/**
 * The code exchange: a fixed number of requests (`codes.length`) at a fixed concurrency, each
 * presenting a code minted just before the round and never presented before; the rate is the
 * count over the wall clock from the first request to the last answer.
 *
 * Why a fixed count rather than a fixed time: codes are single-use and live 60 s, so a window of
 * fixed length would either run out of codes (every request after that is a refused exchange,
 * which costs less than a real one and is not what is measured) or waste most of a batch whose
 * minting dominates the run. Sending exactly the codes there are keeps every request a real,
 * successful exchange. The batch is sized from the previous round's rate to last about as long as
 * the baseline's window (so both see the same stretch of machine), within what can be minted in
 * MINT_BUDGET_S. The one bias is the tail: for about one latency at the end fewer than
 * `connections` requests are in flight, which lowers the rate by about connections/count (about
 * 1 % for 800 codes), never raises it. Minting runs before the window, never during it.
 *
 * Each exchange also hands out a refresh token: they become the chains of the refresh rounds.
 */
function codeExchangeTarget(rp: RelyingParty, codes: MintedCode[], chains: string[]): BlastTarget {
  let next = 0;
  return {
    url: `${rp.issuer}/token`,
    method: 'POST',
    headers: tokenHeaders(rp),
    body: () => {
      const c = codes[next++];
      // More requests than codes cannot happen (amount = codes.length); an unknown code would show as an error.
      return new URLSearchParams({
        grant_type: 'authorization_code',
        code: c?.code ?? 'no-code-left',
        redirect_uri: CALLBACK,
        code_verifier: c?.verifier ?? '',
      }).toString();
    },
    onOk: (body) => {
      const m = REFRESH_TOKEN_RE.exec(body);
      if (!m || !body.includes('"id_token"') || !body.includes('"access_token"')) return false;
      chains.push(m[1]);
      return true;
    },
  };
}

/**
 * The refresh grant. Refresh tokens rotate and presenting a rotated-out one revokes the grant, so
 * every request must present the newest token of its chain and no chain may have two requests in
 * flight. One chain per connection: autocannon calls `onResponse` of an answer and then, in the
 * same synchronous step and for the same connection, `setupRequest` of that connection's next
 * request (httpClient.js: recordBody, then _doRequest), so the successor read from the answer is
 * handed straight to the next request of the same connection. A connection without one (its
 * first request, or after a refused or lost answer) starts a fresh chain from `pool`. Each window's
 * end cuts off the chains in flight (their successors are never read): the pool holds far more.
 */
function refreshTarget(
  rp: RelyingParty,
  pool: string[],
  stats: { chainsStarted: number; chainsCut: number },
): BlastTarget {
  let handoff: string | null = null;
  return {
    url: `${rp.issuer}/token`,
    method: 'POST',
    headers: tokenHeaders(rp),
    body: () => {
      let token = handoff;
      handoff = null;
      if (!token) {
        token = pool.shift() ?? 'pool-empty';
        stats.chainsStarted++;
      }
      return `grant_type=refresh_token&refresh_token=${encodeURIComponent(token)}`;
    },
    onOk: (body) => {
      const m = REFRESH_TOKEN_RE.exec(body);
      if (!m || !body.includes('"id_token"')) return false;
      if (handoff) pool.push(handoff); // a connection that ended without a next request left its chain: keep it
      handoff = m[1];
      return true;
    },
    onRefused: () => {
      stats.chainsCut++;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Round trips per token request (sequential, through counting proxies)

interface RoundTrips {
  endpoint: string;
  requests: number;
  pgRoundTrips: number;
  pgMin: number;
  pgMax: number;
  redisCommands: number;
  statements: string[];
  redis: string[];
}

/**
 * A second auth runtime whose PostgreSQL and Redis connections go through counting proxies (as
 * bench/hot-paths.ts does for the session routes): mint codes, then exchange them one at a time
 * and refresh one chain one request at a time, with warm caches, counting per request. Sequential
 * and unloaded on purpose: it checks what each request does, not how fast (this fresh process has
 * not optimised the token path yet, so its CPU per request says little: the load windows give it).
 */
async function countRoundTrips(
  env: Record<string, string>,
  seeded: Seeded,
  client: { clientId: string; secret: string },
): Promise<RoundTrips[]> {
  const db = new URL(DATABASE_URL);
  const pg = new PgStatementCounter(db.hostname || '127.0.0.1', Number(db.port || 5432));
  await pg.start();
  db.hostname = '127.0.0.1';
  db.port = String(pg.port);
  const cache = new URL(REDIS_URL);
  const redis = new RedisCommandCounter(cache.hostname || '127.0.0.1', Number(cache.port || 6379));
  await redis.start();
  cache.hostname = '127.0.0.1';
  cache.port = String(redis.port);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let child: Child | null = null;
  try {
    child = startNode('auth-runtime (round-trip check)', 'dist/apps/auth-runtime/src/main.js', {
      ...env,
      DATABASE_URL: db.toString(),
      REDIS_URL: cache.toString(),
      AUTH_RUNTIME_PORT: String(port),
      PUBLIC_AUTH_URL: base,
    });
    await waitReady(`${base}/health/ready`, child);
    const api: Api = { baseUrl: base, projectKey: seeded.projectKey };
    const rp = relyingParty(base, seeded, client);
    const session = await newSession(api, seeded.readerUser.email, BENCH_PASSWORD);
    const { codes } = await mintCodes(api, rp, [session.accessToken], CHECK_REQUESTS + 1);
    if (codes.length <= CHECK_REQUESTS)
      throw new Error(`only ${codes.length} codes minted in ${MINT_BUDGET_S} s`);
    const token = async (body: Record<string, string>) => {
      const res = await fetch(`${rp.issuer}/token`, {
        method: 'POST',
        headers: tokenHeaders(rp),
        body: new URLSearchParams(body),
        signal: AbortSignal.timeout(15_000),
      });
      const json = (await res.json()) as { refresh_token?: string };
      if (res.status !== 200 || !json.refresh_token)
        throw new Error(
          `the token endpoint answered ${res.status} ${JSON.stringify(json).slice(0, 200)} during the round-trip check`,
        );
      return json.refresh_token;
    };
    const exchange = (c: MintedCode) =>
      token({
        grant_type: 'authorization_code',
        code: c.code,
        redirect_uri: CALLBACK,
        code_verifier: c.verifier,
      });
    let chain = await exchange(codes[0]); // the first request after start-up builds nothing new here (minting did), but warms the token path
    const count = async (endpoint: string, send: () => Promise<void>): Promise<RoundTrips> => {
      await new Promise((r) => setTimeout(r, 100));
      const perRequest: number[] = [];
      let redisCommands = 0;
      let last = { statements: [] as string[], redis: [] as string[] };
      for (let i = 0; i < CHECK_REQUESTS; i++) {
        pg.reset();
        redis.reset();
        await send();
        await new Promise((r) => setTimeout(r, 5)); // nothing should arrive after the answer; let it show if it does
        const got = pg.reset();
        const commands = redis.reset();
        perRequest.push(got.roundTrips);
        redisCommands += commands.length;
        last = { statements: got.statements, redis: commands };
      }
      return {
        endpoint,
        requests: CHECK_REQUESTS,
        pgRoundTrips: perRequest.reduce((a, b) => a + b, 0) / CHECK_REQUESTS,
        pgMin: Math.min(...perRequest),
        pgMax: Math.max(...perRequest),
        redisCommands: redisCommands / CHECK_REQUESTS,
        statements: last.statements,
        redis: last.redis,
      };
    };
    let n = 1;
    const codeRow = await count('code exchange', async () => {
      await exchange(codes[n++]);
    });
    const refreshRow = await count('refresh', async () => {
      chain = await token({ grant_type: 'refresh_token', refresh_token: chain });
    });
    return [codeRow, refreshRow];
  } finally {
    await stop(child);
    await pg.stop();
    await redis.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const fmt = (v: number | null | undefined, digits = 1) =>
  v === null || v === undefined || !Number.isFinite(v) ? 'n/a' : v.toFixed(digits);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const sum = (xs: (number | null)[]): number | null =>
  xs.some((x) => x === null) ? null : xs.reduce<number>((a, x) => a + (x ?? 0), 0);

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const rps = (w: Window) => w.load.ok / w.load.elapsedS;
const answers = (w: Window) => w.load.ok + w.load.non2xx + w.load.mismatches;

/** The rounds of one target as one: counts and CPU added up, latencies pooled. */
function combine(windows: Window[]): Window {
  const loads = windows.map((w) => w.load);
  return {
    name: windows[0].name,
    load: {
      ok: loads.reduce((a, l) => a + l.ok, 0),
      non2xx: loads.reduce((a, l) => a + l.non2xx, 0),
      errors: loads.reduce((a, l) => a + l.errors, 0),
      mismatches: loads.reduce((a, l) => a + l.mismatches, 0),
      elapsedS: loads.reduce((a, l) => a + l.elapsedS, 0),
      latencies: loads.flatMap((l) => l.latencies).sort((a, b) => a - b),
      refusals: loads.flatMap((l) => l.refusals).slice(0, 3),
    },
    serverCpuS: sum(windows.map((w) => w.serverCpuS)),
    dbCpuS: sum(windows.map((w) => w.dbCpuS)),
    redisCpuS: sum(windows.map((w) => w.redisCpuS)),
    clientCpuS: windows.reduce((a, w) => a + w.clientCpuS, 0),
    machineBusyS: sum(windows.map((w) => w.machineBusyS)),
    windowS: windows.reduce((a, w) => a + w.windowS, 0),
  };
}

const perRequestMs = (cpuS: number | null, w: Window) =>
  cpuS === null ? null : (cpuS * 1000) / answers(w);

/** Machine CPU not spent by the server, its PostgreSQL backends, Redis or the load generator. */
function others(w: Window): number | null {
  if (w.machineBusyS === null || w.serverCpuS === null) return null;
  return w.machineBusyS - w.serverCpuS - (w.dbCpuS ?? 0) - (w.redisCpuS ?? 0) - w.clientCpuS;
}

/**
 * Requests per second on a machine given to this target alone, from its CPU costs (as bench/run.ts):
 * all cores over the CPU one request costs everywhere (server, PostgreSQL, Redis, load generator),
 * and at most one core over the server's own cost (it serves on one thread). Contention stretches
 * wall time far more than CPU time, so on a shared machine this moves less than req/s does.
 */
function quietCapacity(w: Window): number | null {
  const own = perRequestMs(w.serverCpuS, w);
  if (own === null) return null;
  const total = own + (((w.dbCpuS ?? 0) + (w.redisCpuS ?? 0) + w.clientCpuS) * 1000) / answers(w);
  return Math.min((availableParallelism() * 1000) / total, 1000 / own);
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const positive = [
    SECONDS,
    ROUNDS,
    WARMUP_CODES,
    CONNECTIONS,
    MINT_CONCURRENCY,
    MAX_CODES,
    CHECK_REQUESTS,
    BCRYPT_COST,
  ].every((n) => Number.isFinite(n) && n > 0);
  if (!positive || !Number.isInteger(ROUNDS) || !(WARMUP_S >= 0) || WARMUP_CODES < CONNECTIONS) {
    fail(
      '--seconds, --rounds, --warmup-codes, --connections, --mint-concurrency, --max-codes and --check-requests take positive numbers (--warmup-codes at least --connections)',
    );
  }
  const t0 = performance.now();
  const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  say(
    `Gatehouse OIDC token-endpoint bench ${new Date().toISOString()}: node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), load average ${load()}`,
  );
  say(
    `${ROUNDS} rounds of: mint codes (not measured), code exchange (fixed count), bare NestJS route ${SECONDS} s, refresh ${SECONDS} s; ${CONNECTIONS} connections, ` +
      `warm-up ${WARMUP_S} s and ${WARMUP_CODES} codes, database ${new URL(DATABASE_URL).pathname.slice(1)}, redis ${REDIS_URL}`,
  );

  const encryptionKey = newEncryptionKey();
  let seeded: Seeded;
  let client: { clientId: string; secret: string };
  try {
    const env = {
      databaseUrl: DATABASE_URL,
      redisUrl: REDIS_URL,
      encryptionKey,
      bcryptCost: BCRYPT_COST,
    };
    seeded = await seed(env, runId);
    client = await oidcClient(env, seeded);
  } catch (err) {
    fail(
      `set-up failed (is PostgreSQL running at ${DATABASE_URL}?): ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const pg = await PgBackendsCpu.connect(DATABASE_URL);
  const redisPid = await findRedisPid(REDIS_URL);

  let server: Child | null = null;
  let bareApp: Child | null = null;
  const cleanUp = async () => {
    await Promise.all([stop(server), stop(bareApp)]);
  };
  process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = productionEnv(encryptionKey, {
    AUTH_RUNTIME_PORT: String(port),
    // The issuer (and every redirect the provider makes) must be this server's real address.
    PUBLIC_AUTH_URL: base,
    DATABASE_URL,
    REDIS_URL,
    BCRYPT_COST: String(BCRYPT_COST),
    AUTH_RUNTIME_METRICS_PORT: '0',
  });
  let checked: RoundTrips[] | null = null;
  const codeRounds: Window[] = [];
  const bareRounds: Window[] = [];
  const refreshRounds: Window[] = [];
  const minting: { codes: number; seconds: number; oldestAgeS: number }[] = [];
  const chainStats = { chainsStarted: 0, chainsCut: 0 };
  const loads: string[] = [`start ${load()}`];
  try {
    server = startNode('auth-runtime', 'dist/apps/auth-runtime/src/main.js', env, {
      nodeArgs: CPU_PROF_ARGS,
    });
    try {
      await waitReady(`${base}/health/ready`, server);
    } catch (err) {
      process.stderr.write(`${server.output()}\n`);
      throw err;
    }
    const barePort = await freePort();
    bareApp = startNode(
      'bare-app',
      'dist/bench/bare-app.js',
      { NODE_ENV: 'production' },
      { args: [String(barePort)] },
    );
    await waitReady(`http://127.0.0.1:${barePort}/me`, bareApp, 30_000);

    const api: Api = { baseUrl: base, projectKey: seeded.projectKey };
    const rp = relyingParty(base, seeded, client);
    const discovery = await fetch(`${rp.issuer}/.well-known/openid-configuration`);
    if (discovery.status !== 200)
      throw new Error(`discovery answered ${discovery.status}: is the provider on?`);
    // A handful of signed-in sessions complete the interactions (one sign-in, one bcrypt, per session, not per code).
    const sessions: string[] = [];
    for (const u of seeded.signInUsers.slice(0, 4))
      sessions.push((await newSession(api, u.email, BENCH_PASSWORD)).accessToken);

    const probes: Probes = { serverPid: server.pid, pg, redisPid };
    const bareTarget: BlastTarget = {
      url: `http://127.0.0.1:${barePort}/me`,
      method: 'GET',
      headers: {},
      onOk: (b) => b.includes('"active_sessions"'),
    };
    const chains: string[] = [];
    const refresh = refreshTarget(rp, chains, chainStats);

    /** Mints a batch, then exchanges all of it in one measured window. */
    const codeRound = async (count: number): Promise<Window> => {
      const { codes, seconds } = await mintCodes(api, rp, sessions, count);
      if (codes.length < CONNECTIONS)
        throw new Error(
          `only ${codes.length} codes minted in ${MINT_BUDGET_S} s: the machine is too busy`,
        );
      await new Promise((r) => setTimeout(r, 300)); // let the minting's last writes settle before the window
      minting.push({
        codes: codes.length,
        seconds,
        oldestAgeS: (performance.now() - codes[0].mintedAt) / 1000,
      });
      return measure(
        'POST {issuer}/token (authorization_code)',
        codeExchangeTarget(rp, codes, chains),
        { amount: codes.length },
        server!.pid,
        probes,
      );
    };

    say('warm-up…');
    if (WARMUP_S > 0) await blast(bareTarget, { seconds: WARMUP_S });
    // The warm-up batch also calibrates: the mint rate bounds the batches, its exchange rate sizes the first one.
    let rate = rps(await codeRound(WARMUP_CODES));
    const mintRate = minting[0].codes / minting[0].seconds;
    if (WARMUP_S > 0) await blast(refresh, { seconds: WARMUP_S });
    say(
      `  minted ${minting[0].codes} codes in ${fmt(minting[0].seconds)} s (${fmt(mintRate)}/s), exchanged at ${fmt(rate)}/s; load average ${load()}`,
    );

    for (let r = 0; r < ROUNDS; r++) {
      // A batch that lasts about as long as the baseline's window at the last rate seen, and that can be minted well within the codes' lifetime.
      const count = Math.round(
        Math.max(CONNECTIONS * 20, Math.min(rate * SECONDS, MAX_CODES, mintRate * MINT_BUDGET_S)),
      );
      say(`round ${r + 1}/${ROUNDS}: minting ${count} codes…`);
      const code = await codeRound(count);
      codeRounds.push(code);
      rate = rps(code);
      bareRounds.push(
        await measure(
          'bare NestJS GET (baseline)',
          bareTarget,
          { seconds: SECONDS },
          bareApp.pid,
          probes,
        ),
      );
      refreshRounds.push(
        await measure(
          'POST {issuer}/token (refresh_token)',
          refresh,
          { seconds: SECONDS },
          server.pid,
          probes,
        ),
      );
      loads.push(`round ${r + 1} ${load()}`);
      say(
        `  code ${fmt(rps(code))}/s, bare ${fmt(rps(bareRounds[r]))}/s, refresh ${fmt(rps(refreshRounds[r]))}/s; load average ${load()}`,
      );
    }
    await stop(bareApp);
    bareApp = null;
    await stop(server);
    server = null;

    if (!args['skip-check']) {
      say('round-trip check…');
      try {
        checked = await countRoundTrips(env, seeded, client);
      } catch (err) {
        say(`round-trip check failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  } finally {
    await cleanUp();
    await pg.close();
    await forgetProviderRecords(seeded.projectId);
  }

  // Each round's ratio is the endpoint against the baseline measured beside it; the figure is their median.
  const ratios = (rounds: Window[]) => rounds.map((w, i) => rps(w) / rps(bareRounds[i]));
  const rows = [
    { w: combine(codeRounds), ratios: ratios(codeRounds) },
    { w: combine(refreshRounds), ratios: ratios(refreshRounds) },
    { w: combine(bareRounds), ratios: null },
  ];
  const bareQuiet = quietCapacity(rows[2].w);
  say();
  say(
    table(
      [
        'endpoint',
        'requests',
        'req/s',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'errors',
        'ratio to bare (median)',
        'per round',
        'ratio est. from CPU',
      ],
      rows.map(({ w, ratios: rr }) => {
        const q = quietCapacity(w);
        return [
          w.name,
          String(w.load.ok),
          fmt(w.load.ok / w.load.elapsedS),
          fmt(percentile(w.load.latencies, 50)),
          fmt(percentile(w.load.latencies, 95)),
          fmt(percentile(w.load.latencies, 99)),
          String(w.load.non2xx + w.load.errors + w.load.mismatches),
          rr ? fmt(median(rr), 3) : '-',
          rr
            ? rr.map((x) => fmt(x, 3)).join(' ')
            : `${bareRounds.map((b) => fmt(rps(b), 0)).join(' ')} req/s`,
          rr && q !== null && bareQuiet !== null ? fmt(q / bareQuiet, 3) : '-',
        ];
      }),
    ),
  );
  for (const { w } of rows) for (const f of w.load.refusals) say(`  refused (${w.name}): ${f}`);
  say();
  say('Where the time goes (measured windows, rounds added up):');
  const cores = availableParallelism();
  say(
    table(
      [
        'endpoint',
        'answers',
        'server CPU ms/req',
        'Postgres CPU ms/req',
        'Redis CPU ms/req',
        'load-gen CPU ms/req',
        'machine busy',
        'other processes',
      ],
      rows.map(({ w }) => [
        w.name,
        String(answers(w)),
        fmt(perRequestMs(w.serverCpuS, w), 3),
        fmt(perRequestMs(w.dbCpuS, w), 3),
        fmt(perRequestMs(w.redisCpuS, w), 3),
        fmt(perRequestMs(w.clientCpuS, w), 3),
        w.machineBusyS === null
          ? 'n/a'
          : `${Math.round((100 * w.machineBusyS) / (w.windowS * cores))}%`,
        others(w) === null ? 'n/a' : `${Math.round((100 * others(w)!) / (w.windowS * cores))}%`,
      ]),
    ),
  );
  say(
    `minting: ${minting.map((m) => `${m.codes} in ${fmt(m.seconds)} s (oldest code ${fmt(m.oldestAgeS)} s old at its window's start, of ${CODE_TTL_S})`).join('; ')}`,
  );
  say(
    `refresh chains: ${chainStats.chainsStarted} started, ${chainStats.chainsCut} ended by a refused request`,
  );
  say(`load average: ${loads.join('; ')}; end ${load()}`);
  const noise = Math.max(...rows.map(({ w }) => (others(w) ?? 0) / (w.windowS * cores)));
  if (noise > 0.1)
    say(
      `WARNING: other processes took up to ${Math.round(noise * 100)}% of the machine during the measured windows; req/s and ratios are not reliable (re-run on a quiet machine; the ratio estimated from CPU moves less).`,
    );
  if (checked) {
    say();
    say(
      `Round trips per token request (${CHECK_REQUESTS} sequential requests each, warm caches, through counting PostgreSQL and Redis proxies):`,
    );
    say(
      table(
        ['request', 'Postgres round trips/req', 'min-max', 'Redis commands/req'],
        checked.map((c) => [
          c.endpoint,
          fmt(c.pgRoundTrips, 2),
          `${c.pgMin}-${c.pgMax}`,
          fmt(c.redisCommands, 2),
        ]),
      ),
    );
    for (const c of checked) {
      say(`  ${c.endpoint}:${c.statements.length ? '' : ' (no SQL)'}`);
      for (const s of c.statements) say(`    ${s}`);
      say(`    Redis: ${c.redis.join(', ') || 'none'}`);
    }
  }
  say(`\ntotal ${fmt((performance.now() - t0) / 1000, 0)} s`);
  if (args.json) {
    const strip = (w: Window) => ({
      ...w,
      load: {
        ...w.load,
        latencies: undefined,
        p50: percentile(w.load.latencies, 50),
        p95: percentile(w.load.latencies, 95),
        p99: percentile(w.load.latencies, 99),
      },
    });
    process.stdout.write(
      `${JSON.stringify({ date: new Date().toISOString(), loadAverage: loads, rounds: { code: codeRounds.map(strip), bare: bareRounds.map(strip), refresh: refreshRounds.map(strip) }, minting, chains: chainStats, roundTrips: checked }, null, 2)}\n`,
    );
  }
}

/**
 * The provider's records of this run (codes, tokens, grants, sessions; refresh tokens and their
 * consumed marks live 30 days) would otherwise stay in Redis: deletes the project's keys.
 */
async function forgetProviderRecords(projectId: string): Promise<void> {
  const client = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `oidc:${projectId}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await client.unlink(...keys);
    } while (cursor !== '0');
  } catch {
    /* best effort: the records expire on their own */
  } finally {
    client.disconnect();
  }
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
