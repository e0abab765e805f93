import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { newSession, type Api } from './client';
import { hammer, type Target } from './load';
import {
  mintCode,
  oidcClient,
  REFRESH_TOKEN_RE,
  relyingParty,
  tokenHeaders,
  CALLBACK,
} from './oidc-relying-party';
import { freePort, productionEnv, startNode, stop, waitReady, type Child } from './processes';
import { BENCH_PASSWORD, newEncryptionKey, seed } from './seed';
import { benchTargets, freshAddress, pooledAddress } from './targets';

/**
 * `npm run bench:soak`: issue 37's soak. One production-configured auth runtime (rate limits on,
 * trusting loopback as its proxy) under mixed load for `--minutes` (30): `/me` with a bearer token,
 * refresh (rotating cookies), sign-in (a new client address each) and the OIDC provider's token
 * endpoint (the refresh-token grant, rotating), all at once, in one-minute slices. Every
 * `--sample` seconds it reads the server's heap in use (its /metrics, V8's own figure) and its RSS
 * (/proc). What holds, after the first `--warm` minutes (5):
 *   - the heap's minima stay flat: each minute's lowest heap reading (what survives a GC) ends
 *     within +10 % of the first minute after the warm-up, and their slope is printed;
 *   - RSS stays within +10 % of its level after the warm-up: no reading after it exceeds the
 *     highest reading of the warm-up minutes by more than 10 % (RSS is a sawtooth: one reading
 *     says little, a rising peak says the process grows).
 * It prints a line per minute and the verdict; exits 0 whatever the figures (it measures), 1 when
 * set-up fails or a slice's requests fail. Records go to docs/performance.md.
 */
const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    warm: { type: 'string', default: '5' },
    sample: { type: 'string', default: '5' },
    connections: { type: 'string', default: '4' },
    'database-url': {
      type: 'string',
      default: 'postgres://postgres@127.0.0.1:5432/gatehouse_bench_soak',
    },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379/8' },
  },
});
const MINUTES = Number(args.minutes);
const WARM = Number(args.warm);
const SAMPLE_S = Number(args.sample);
/** Connections per endpoint (four endpoints at once). */
const CONNECTIONS = Number(args.connections);
const DATABASE_URL = args['database-url'];
const REDIS_URL = args['redis-url'];
const SLICE_S = 60;

const say = (line: string) => process.stdout.write(`${line}\n`);
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

function rssBytes(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

async function heapUsedBytes(metricsUrl: string): Promise<number | null> {
  try {
    const text = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(5000) })).text();
    const m = /^gatehouse_nodejs_heap_size_used_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Least-squares slope of `ys` over their indexes. */
function slope(ys: number[]): number {
  const n = ys.length;
  if (n < 2) return 0;
  const mx = (n - 1) / 2;
  const my = ys.reduce((a, y) => a + y, 0) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  });
  return num / den;
}

interface Minute {
  minute: number;
  heapMin: number;
  /** The highest RSS reading of the minute. */
  rss: number;
  rps: Record<string, number>;
}

async function main() {
  if (!(MINUTES > WARM && WARM >= 1)) throw new Error('--minutes must exceed --warm (≥ 1)');
  const runId = Date.now().toString(36);
  const encryptionKey = newEncryptionKey();
  const env = { databaseUrl: DATABASE_URL, redisUrl: REDIS_URL, encryptionKey, bcryptCost: 10 };
  const seeded = await seed(env, runId);
  const client = await oidcClient(env, seeded);
  const [port, metricsPort] = [await freePort(), await freePort()];
  const server: Child = startNode(
    'auth-runtime',
    'dist/apps/auth-runtime/src/main.js',
    productionEnv(encryptionKey, {
      RATE_LIMITS_ENABLED: 'true',
      TRUST_PROXY: 'loopback',
      AUTH_RUNTIME_PORT: String(port),
      AUTH_RUNTIME_METRICS_PORT: String(metricsPort),
      DATABASE_URL,
      REDIS_URL,
      BCRYPT_COST: '10',
    }),
  );
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitReady(`${base}/health/ready`, server);
    // Set-up sign-ins come from new addresses too: the reader signs in more than 5 times a minute.
    const api: Api = { baseUrl: base, projectKey: seeded.projectKey, forwardedFor: freshAddress };
    const reader = () => newSession(api, seeded.readerUser.email, BENCH_PASSWORD);
    const pool: string[] = [];
    const oidcPool: string[] = [];
    const rp = relyingParty(base, seeded, client);
    const chains = CONNECTIONS * 4;
    /**
     * Fills both pools of refresh chains up to `chains`: a request that fails (a timeout on a
     * starved machine) loses its chain, and the pools are topped up between slices.
     */
    const topUp = async () => {
      while (pool.length < chains) pool.push((await reader()).refreshToken);
      // The OIDC refresh chains: one authorization code per chain, exchanged once.
      while (oidcPool.length < chains) {
        const minted = await mintCode(api, rp, (await reader()).accessToken);
        const res = await fetch(`${rp.issuer}/token`, {
          method: 'POST',
          headers: { ...tokenHeaders(rp), 'x-forwarded-for': freshAddress() },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code: minted.code,
            redirect_uri: CALLBACK,
            code_verifier: minted.verifier,
          }).toString(),
        });
        const m = REFRESH_TOKEN_RE.exec(await res.text());
        if (res.status !== 200 || !m) throw new Error(`the code exchange answered ${res.status}`);
        oidcPool.push(m[1]);
      }
    };
    await topUp();
    // /me's bearer token is renewed every slice (an access token lives 15 minutes).
    let meToken = (await reader()).accessToken;
    const t = benchTargets({ base, seeded, runId, shape: 'production', meToken, pool });
    const me: Target = {
      ...t.meTarget,
      headers: { 'x-service-project-key': seeded.projectKey },
      dynamicHeaders: () => ({
        authorization: `Bearer ${meToken}`,
        'x-forwarded-for': pooledAddress(),
      }),
    };
    const oidcRefresh: Target = {
      url: `${rp.issuer}/token`,
      method: 'POST',
      headers: tokenHeaders(rp),
      dynamicHeaders: () => ({ 'x-forwarded-for': pooledAddress() }),
      body: () =>
        `grant_type=refresh_token&refresh_token=${encodeURIComponent(oidcPool.shift() ?? 'pool-empty')}`,
      // The rotated refresh token goes back into the pool for the next request.
      verifyBody: (body) => {
        const m = REFRESH_TOKEN_RE.exec(body);
        if (m) oidcPool.push(m[1]);
        return m !== null && body.includes('"id_token"');
      },
    };
    const targets: [string, Target][] = [
      ['/me', me],
      ['refresh', t.refreshTarget],
      ['sign-in', t.signInTarget],
      ['oidc token', oidcRefresh],
    ];
    say(
      `soak: ${MINUTES} min of /me, refresh, sign-in and the OIDC token endpoint at once, ${CONNECTIONS} connections each, one auth runtime (NODE_ENV=production, rate limits on); load ${loadavg()[0].toFixed(2)}`,
    );
    say('minute  heap min MB  RSS peak MB  ' + targets.map(([n]) => `${n} req/s`).join('  '));
    const minutes: Minute[] = [];
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    for (let minute = 1; minute <= MINUTES; minute++) {
      const heap: number[] = [];
      const rssReadings: number[] = [];
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const h = await heapUsedBytes(metricsUrl);
          if (h !== null) heap.push(h);
          const rss = rssBytes(server.pid);
          if (rss !== null) rssReadings.push(rss);
          await new Promise((r) => setTimeout(r, SAMPLE_S * 1000));
        }
      })();
      const results = await Promise.all(
        targets.map(([, target]) => hammer(target, SLICE_S, CONNECTIONS)),
      );
      sampling = false;
      await sampler;
      meToken = (await reader()).accessToken;
      await topUp();
      // More than 1 % of an endpoint's requests failing means the load is not what it says.
      const failed = targets
        .map(([n], i) => ({ n, r: results[i] }))
        .filter(({ r }) => r.errors + r.non2xx + r.mismatches > 0.01 * (r.ok + 1));
      if (failed.length)
        throw new Error(
          `minute ${minute}: failed requests (${failed.map(({ n, r }) => `${n}: ${JSON.stringify(r)}`).join('; ')})`,
        );
      const row: Minute = {
        minute,
        heapMin: Math.min(...heap),
        rss: Math.max(...rssReadings),
        rps: Object.fromEntries(targets.map(([n], i) => [n, results[i].rps])),
      };
      minutes.push(row);
      say(
        `${String(minute).padStart(6)}  ${mb(row.heapMin).padStart(11)}  ${mb(row.rss).padStart(11)}  ${targets.map(([n]) => row.rps[n].toFixed(0).padStart(n.length + 6)).join('  ')}`,
      );
    }
    const after = minutes.filter((m) => m.minute > WARM);
    // RSS is a sawtooth (the heap grows and is collected; freed pages go back to the system late):
    // its level after the warm-up is the highest reading of the warm-up minutes.
    const warmRss = Math.max(...minutes.slice(0, WARM).map((m) => m.rss));
    const heapStart = after[0].heapMin;
    const heapEnd = after[after.length - 1].heapMin;
    const rssMax = Math.max(...after.map((m) => m.rss));
    const heapSlope = slope(after.map((m) => m.heapMin));
    const heapHolds = heapEnd <= heapStart * 1.1;
    const rssHolds = rssMax <= warmRss * 1.1;
    say(
      `heap minima after the warm-up: ${mb(heapStart)} → ${mb(heapEnd)} MB (${((heapEnd / heapStart - 1) * 100).toFixed(1)} %), slope ${(heapSlope / 2 ** 20).toFixed(2)} MB a minute: ${heapHolds ? 'flat' : 'GROWS'}`,
    );
    say(
      `RSS: at most ${mb(warmRss)} MB in the first ${WARM} minutes, at most ${mb(rssMax)} MB after (${((rssMax / warmRss - 1) * 100).toFixed(1)} %): ${rssHolds ? 'within +10 %' : 'BEYOND +10 %'}`,
    );
    say(`soak ${heapHolds && rssHolds ? 'holds' : 'does not hold'}`);
  } finally {
    await stop(server);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`[bench:soak] ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
