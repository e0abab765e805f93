import 'reflect-metadata';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { newSession, type Api } from './client';
import { hammer, type Target } from './load';
import {
  cpuSeconds,
  freePort,
  postgresCpuSeconds,
  productionEnv,
  startNode,
  stop,
  waitReady,
  type Child,
} from './processes';
import { BENCH_PASSWORD, newEncryptionKey, seed } from './seed';
import { summarise } from './cpu-profile-summary';
import { benchTargets } from './targets';

/**
 * `npm run bench:organizations`: what an active organization costs the hottest routes. The same
 * user's `/me` and refresh, with no active organization and with one whose role grants 50
 * permissions (the `org` claim of every refreshed token, `active_organization` of `/me`), in
 * interleaved rounds against one production-configured auth runtime. Issue 38's figure: within
 * 5 % of the plain ones. Records go to docs/performance.md.
 */
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    permissions: { type: 'string', default: '50' },
    // Profiling: `--only with` or `--only without` loads one variant's /me and refresh for
    // --duration seconds each, with the auth runtime under --cpu-prof into `--profile`, and prints the
    // profile's summary (run once per variant and compare).
    only: { type: 'string' },
    profile: { type: 'string', default: 'tmp/profiles/organizations' },
    'database-url': {
      type: 'string',
      default: 'postgres://postgres@127.0.0.1:5432/gatehouse_bench',
    },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379/5' },
  },
});
const DURATION_S = Number(args.duration);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);
const PERMISSIONS = Number(args.permissions);
const DATABASE_URL = args['database-url'];
/** Where `--only`'s profile goes: one directory per variant. */
const profileDir = () => join(args.profile, args.only ?? 'both');
/** The variant's profile directory, emptied. */
function freshProfileDir(): string {
  rmSync(profileDir(), { recursive: true, force: true });
  mkdirSync(profileDir(), { recursive: true });
  return profileDir();
}
const REDIS_URL = args['redis-url'];

const say = (line: string) => process.stdout.write(`${line}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** An organization of the project whose `billing` role (held by the user) grants `count` permissions. */
async function organizationOf(projectId: string, email: string, count: number): Promise<string> {
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  try {
    const [user] = (
      await db.query<{ id: string; tenant_id: string }>(
        `SELECT id, tenant_id FROM users WHERE project_id = $1 AND email = $2`,
        [projectId, email],
      )
    ).rows;
    const keys = Array.from({ length: count }, (_, i) => `resource${i}:read`);
    for (const key of keys)
      await db.query(
        `INSERT INTO project_permissions (tenant_id, project_id, key, description) VALUES ($1, $2, $3, '')`,
        [user.tenant_id, projectId, key],
      );
    await db.query(
      `INSERT INTO project_roles (tenant_id, project_id, key, name, description, permissions)
       VALUES ($1, $2, 'billing', 'Billing', '', $3::text[])`,
      [user.tenant_id, projectId, keys.sort()],
    );
    const [org] = (
      await db.query<{ id: string }>(
        `INSERT INTO organizations (tenant_id, project_id, name, slug, metadata)
         VALUES ($1, $2, 'Acme', 'acme', '{}') RETURNING id`,
        [user.tenant_id, projectId],
      )
    ).rows;
    await db.query(
      `INSERT INTO organization_members (tenant_id, organization_id, user_id, role) VALUES ($1, $2, $3, 'billing')`,
      [user.tenant_id, org.id, user.id],
    );
    return org.id;
  } finally {
    await db.end();
  }
}

async function main() {
  const runId = Date.now().toString(36);
  const encryptionKey = newEncryptionKey();
  const seeded = await seed(
    { databaseUrl: DATABASE_URL, redisUrl: REDIS_URL, encryptionKey, bcryptCost: 10 },
    runId,
  );
  const orgId = await organizationOf(seeded.projectId, seeded.readerUser.email, PERMISSIONS);
  const port = await freePort();
  let server: Child | null = startNode(
    'auth-runtime',
    'dist/apps/auth-runtime/src/main.js',
    productionEnv(encryptionKey, {
      AUTH_RUNTIME_PORT: String(port),
      DATABASE_URL,
      REDIS_URL,
      BCRYPT_COST: '10',
      AUTH_RUNTIME_METRICS_PORT: '0',
    }),
    args.only ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', freshProfileDir()] } : {},
  );
  try {
    await waitReady(`http://127.0.0.1:${port}/health/ready`, server);
    const base = `http://127.0.0.1:${port}`;
    const api: Api = { baseUrl: base, projectKey: seeded.projectKey };
    const count = CONNECTIONS * (ROUNDS + 3) + 4;
    const plain: { accessToken: string; refreshToken: string }[] = [];
    const withOrg: { accessToken: string; refreshToken: string }[] = [];
    for (let i = 0; i < count; i++) {
      plain.push(await newSession(api, seeded.readerUser.email, BENCH_PASSWORD));
      const s = await newSession(api, seeded.readerUser.email, BENCH_PASSWORD);
      const res = await fetch(`${base}/v1/auth/organizations/active`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-project-key': seeded.projectKey,
          authorization: `Bearer ${s.accessToken}`,
        },
        body: JSON.stringify({ organization_id: orgId }),
      });
      if (res.status !== 200) throw new Error(`organizations/active answered ${res.status}`);
      const { access_token } = (await res.json()) as { access_token: string };
      withOrg.push({ accessToken: access_token, refreshToken: s.refreshToken });
    }
    const targets = (sessions: typeof plain) =>
      benchTargets({
        base,
        seeded,
        runId,
        shape: 'today',
        meToken: sessions[0].accessToken,
        pool: sessions.map((s) => s.refreshToken),
      });
    const a = targets(plain);
    const b = targets(withOrg);
    const orgTarget = (t: Target, check: string): Target => ({
      ...t,
      verifyBody: (body) => body.includes(check),
    });
    const pairs: [string, Target, Target][] = [
      ['GET /v1/auth/me', a.meTarget, orgTarget(b.meTarget, '"active_organization":{')],
      ['POST /v1/auth/refresh', a.refreshTarget, b.refreshTarget],
    ];
    say(
      `${ROUNDS} rounds of ${DURATION_S} s per variant, ${CONNECTIONS} connections, an organization role with ${PERMISSIONS} permissions, one auth runtime (NODE_ENV=production, rate limits off)`,
    );
    /** A measured run and the server side's CPU per answered request (auth runtime + PostgreSQL). */
    const measured = async (target: Target) => {
      const pid = server!.pid;
      const [s0, p0] = [cpuSeconds(pid), postgresCpuSeconds()];
      const r = await hammer(target, DURATION_S, CONNECTIONS);
      const [s1, p1] = [cpuSeconds(pid), postgresCpuSeconds()];
      if (s0 === null || s1 === null || p0 === null || p1 === null)
        throw new Error('cannot read the CPU time of the auth runtime or PostgreSQL');
      return { ...r, cpuMs: ((s1 - s0 + (p1 - p0)) * 1000) / Math.max(1, r.ok) };
    };
    if (args.only)
      for (const [name, without, withActive] of pairs) {
        const target = args.only === 'with' ? withActive : without;
        const r = await measured({ ...target });
        say(
          `${name} ${args.only}: ${r.rps.toFixed(0)} req/s, server CPU ${(r.cpuMs * 1000).toFixed(0)} µs per request`,
        );
      }
    else
      for (const [name, without, withActive] of pairs) {
        await hammer(without, 2, CONNECTIONS);
        await hammer(withActive, 2, CONNECTIONS);
        const ratios: number[] = [];
        const costs: number[] = [];
        const rows: string[] = [];
        for (let r = 0; r < ROUNDS; r++) {
          const x = await measured(without);
          const y = await measured(withActive);
          if (x.errors + x.non2xx + x.mismatches + y.errors + y.non2xx + y.mismatches > 0)
            throw new Error(`${name}: failed requests in round ${r + 1}`);
          ratios.push(y.rps / x.rps);
          costs.push(y.cpuMs / x.cpuMs);
          rows.push(
            `  round ${r + 1}: ${x.rps.toFixed(0)} req/s without, ${y.rps.toFixed(0)} with (p50 ${x.p50} / ${y.p50} ms) → ${(y.rps / x.rps).toFixed(3)}; server CPU ${(x.cpuMs * 1000).toFixed(0)} / ${(y.cpuMs * 1000).toFixed(0)} µs per request → ${(y.cpuMs / x.cpuMs).toFixed(3)}`,
          );
        }
        say(
          `${name}: with an active organization ÷ without = ${median(ratios).toFixed(3)} in throughput (the load generator shares the cores), ${median(costs).toFixed(3)} in server CPU per request (auth runtime + PostgreSQL) (medians)`,
        );
        for (const row of rows) say(row);
      }
  } finally {
    await stop(server, args.only ? 20_000 : 5000);
    server = null;
  }
  if (args.only) {
    const dir = profileDir();
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.cpuprofile')))
      say(summarise(JSON.parse(readFileSync(join(dir, f), 'utf8')), 25));
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
