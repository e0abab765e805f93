import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { loadConfig } from '@gatehouse/config';
import { runMigrations } from '@gatehouse/entities';
import {
  AccessTokensService,
  createIdentityContext,
  ProvisioningService,
} from '@gatehouse/identity';
import { PgStatementCounter, type ExecutedStatement } from './pg-counter';
import { freePort, productionEnv, startNode, stop, waitReady, type Child } from './processes';

/**
 * `npm run bench:admin`: the control plane's user list and search with 100,000 users in one
 * project (and 20,000 in another tenant), and its audit query over 100,000 events (and 20,000 of
 * the other tenant), seeded by SQL into its own database. Then `/v1/admin/stats` (the Overview
 * aggregate) after a second seeding step: `--activity` audit events (default 300,000) over the last
 * 30 days across four projects, sessions (a third of the users live), a webhook with a delivery
 * record for every third of those events, and a fifth of each in the other tenant. Each scenario
 * is a sequence of single requests over loopback (latency, not throughput), after a warm-up; the
 * query plans of the exact SQL the repositories run are printed with the indexes they use.
 * Bounded by `--seconds` per scenario; `--only lists|stats` runs one part. Exits 0 whatever the
 * figures; 1 when set-up fails.
 */

const { values: args } = parseArgs({
  options: {
    'database-url': {
      type: 'string',
      default: 'postgres://postgres@127.0.0.1:5432/gatehouse_bench_admin',
    },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379/7' },
    users: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '400' },
    warmup: { type: 'string', default: '40' },
    seconds: { type: 'string', default: '15' },
    activity: { type: 'string', default: '300000' },
    only: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

const DATABASE_URL = args['database-url'];
const REDIS_URL = args['redis-url'];
const USERS = Number(args.users);
const REQUESTS = Number(args.requests);
const WARMUP = Number(args.warmup);
const SECONDS = Number(args.seconds);
const ACTIVITY = Number(args.activity);
const PARTS = args.only ? [args.only] : ['lists', 'stats'];
if (!PARTS.every((p) => p === 'lists' || p === 'stats'))
  throw new Error('--only takes lists or stats');

function say(line = ''): void {
  if (!args.json) process.stdout.write(`${line}\n`);
}

interface Seeded {
  projectId: string;
  adminToken: string;
  tenantId: string;
  /** The tenant's projects: console, the big one, two smaller ones; and the neighbour's console and app. */
  projects: { console: string; big: string; mobile: string; partner: string };
  neighbour: { tenantId: string; console: string; app: string };
}

/** Empties the bench database, then a tenant with an admin, a project of USERS users and a noisy neighbour tenant. */
async function seed(
  encryptionKey: string,
  raw: DataSource,
): Promise<Seeded & { seedSeconds: number }> {
  const config = loadConfig({
    DATABASE_URL,
    REDIS_URL,
    ENCRYPTION_KEY: encryptionKey,
    LOG_LEVEL: 'error',
  });
  const ctx = await createIdentityContext(config);
  try {
    const ds = ctx.get(DataSource);
    const provisioning = ctx.get(ProvisioningService);
    await raw.query(`TRUNCATE tenants CASCADE`);
    const started = Date.now();
    const tenant = await provisioning.createTenant({
      name: 'bench',
      adminEmail: 'admin@bench.example.com',
      adminPassword: randomBytes(18).toString('base64url'),
    });
    const neighbour = await provisioning.createTenant({
      name: 'neighbour',
      adminEmail: 'admin@neighbour.example.com',
      adminPassword: randomBytes(18).toString('base64url'),
    });
    const [project, other, mobile, partner] = await ds.transaction(async (m) => [
      await provisioning.createProject(m, tenant.tenant_id, { name: 'Big app' }),
      await provisioning.createProject(m, neighbour.tenant_id, { name: 'Neighbour app' }),
      await provisioning.createProject(m, tenant.tenant_id, { name: 'Mobile app' }),
      await provisioning.createProject(m, tenant.tenant_id, { name: 'Partner portal' }),
    ]);
    const bulk = `INSERT INTO users (tenant_id, project_id, email, username, email_verified, metadata, created_at, updated_at)
      SELECT $1, $2, $4 || lpad(i::text, 6, '0') || '@' || (ARRAY['example.com', 'mail.test', 'corp.example.org'])[1 + i % 3],
             CASE WHEN i % 2 = 0 THEN $5 || i END, i % 5 = 0, '{}'::jsonb,
             now() - make_interval(secs => ((i * 7919) % $3::int) * 600), now()
        FROM generate_series(1, $3::int) AS i`;
    // Sign-up times are a permutation of the row numbers (7919 is prime to the counts used), so
    // they do not follow the email order, as in a real user base.
    await raw.query(bulk, [tenant.tenant_id, project.id, USERS, 'user', 'name']);
    await raw.query(bulk, [neighbour.tenant_id, other.id, Math.round(USERS / 5), 'user', 'name']);
    await raw.query(
      `INSERT INTO mfa_factors (tenant_id, project_id, user_id, type, status, secret_encrypted)
      SELECT tenant_id, project_id, id, 'totp', 'enabled', 'x' FROM users WHERE project_id = $1 AND email LIKE '%7@%'`,
      [project.id],
    );
    const events = `INSERT INTO audit_events (tenant_id, project_id, actor_type, action, resource_type, ip_address, user_agent, metadata, created_at)
      SELECT $1, $2, 'user', (ARRAY['user.created', 'session.created', 'user.sign_in_failed', 'session.revoked', 'user.updated'])[1 + i % 5],
             'user', '203.0.113.1', 'bench', '{}'::jsonb, now() - make_interval(secs => ((i * 7919) % $3::int) * 86)
        FROM generate_series(1, $3::int) AS i`;
    await raw.query(events, [tenant.tenant_id, project.id, USERS]);
    await raw.query(events, [neighbour.tenant_id, other.id, Math.round(USERS / 5)]);
    await raw.query(`VACUUM ANALYZE audit_events`);
    await raw.query(`VACUUM ANALYZE users`);
    await raw.query(`VACUUM ANALYZE mfa_factors`);
    const seedSeconds = (Date.now() - started) / 1000;

    const [session] = await ds.query<[{ id: string }]>(
      `INSERT INTO sessions (id, tenant_id, project_id, user_id, expires_at) VALUES ($1, $2, $3, $4, now() + interval '1 day') RETURNING id`,
      [randomUUID(), tenant.tenant_id, tenant.project_id, tenant.admin_user_id],
    );
    const { token } = await ctx.get(AccessTokensService).issue({
      tenantId: tenant.tenant_id,
      projectId: tenant.project_id,
      userId: tenant.admin_user_id,
      sessionId: session.id,
      isAdmin: true,
      ttlSeconds: 3600,
    });
    return {
      projectId: project.id,
      adminToken: token,
      tenantId: tenant.tenant_id,
      projects: {
        console: tenant.project_id,
        big: project.id,
        mobile: mobile.id,
        partner: partner.id,
      },
      neighbour: { tenantId: neighbour.tenant_id, console: neighbour.project_id, app: other.id },
      seedSeconds,
    };
  } finally {
    await ctx.close();
  }
}

/**
 * What the Overview counts, on top of the list seeding: `count` audit events of the last 30 days
 * (a mix of the actions a busy user base records: 40 % sign-ins, 10 % failures, one lock in 200,
 * 5 % sign-ups, the rest session ends, profile changes and the like), nine in ten in the app
 * projects; the tenant's sessions (a third of its users signed in now, as many ended); a webhook
 * with a delivery record for every third event (95 % succeeded, 4 % failed, 1 % pending) over 33
 * days; and the neighbour tenant with a fifth of each.
 */
async function seedActivity(raw: DataSource, seeded: Seeded): Promise<number> {
  const started = Date.now();
  const events = `INSERT INTO audit_events (tenant_id, project_id, actor_type, actor_id, action, resource_type, ip_address, user_agent, metadata, created_at)
    SELECT $1::uuid, (ARRAY[$2, $3, $4, $5]::uuid[])[CASE i % 10 WHEN 0 THEN 1 WHEN 1 THEN 3 WHEN 2 THEN 4 ELSE 2 END], 'user', 'u' || i,
           CASE WHEN i % 200 = 19 THEN 'user.locked'
                ELSE (ARRAY['session.created', 'session.created', 'session.created', 'session.created', 'session.created', 'session.created',
                            'session.created', 'session.created', 'user.sign_in_failed', 'user.sign_in_failed', 'session.revoked', 'session.revoked',
                            'session.revoked', 'user.created', 'user.updated', 'user.updated', 'session.reauthenticated', 'password.reset',
                            'email.verified', 'mfa.enabled'])[1 + i % 20] END,
           'user', '203.0.113.1', 'bench', '{}'::jsonb, now() - make_interval(secs => ((i::bigint * 7919) % $6::int) * (2592000.0 / $6::int))
      FROM generate_series(1, $6::int) AS i`;
  const p = seeded.projects;
  const n = seeded.neighbour;
  await raw.query(events, [seeded.tenantId, p.console, p.big, p.mobile, p.partner, ACTIVITY]);
  await raw.query(events, [n.tenantId, n.console, n.app, n.app, n.app, Math.round(ACTIVITY / 5)]);
  // A third of the users have a live session, a sixth one signed out, a sixth one expired.
  for (const projectId of [p.big, n.app]) {
    await raw.query(
      `INSERT INTO sessions (tenant_id, project_id, user_id, auth_method, expires_at, revoked_at, created_at)
       SELECT tenant_id, project_id, id, 'password',
              CASE WHEN n % 6 = 5 THEN now() - interval '1 hour' ELSE now() + interval '20 days' END,
              CASE WHEN n % 6 = 4 THEN now() - interval '2 hours' END,
              now() - interval '10 days'
         FROM (SELECT id, tenant_id, project_id, row_number() OVER (ORDER BY id) AS n FROM users WHERE project_id = $1) u
        WHERE n % 6 IN (0, 2, 4, 5)`,
      [projectId],
    );
  }
  for (const [tenantId, count] of [
    [seeded.tenantId, Math.round(ACTIVITY / 3)],
    [n.tenantId, Math.round(ACTIVITY / 15)],
  ] as const) {
    const [hook] = await raw.query<[{ id: string }]>(
      `INSERT INTO webhooks (tenant_id, url, events, secret_encrypted) VALUES ($1, 'https://hooks.example.com/in', '["*"]', 'x') RETURNING id`,
      [tenantId],
    );
    await raw.query(
      `WITH e AS (
         INSERT INTO outbox_events (tenant_id, project_id, type, payload, created_at, dispatched_at)
         SELECT $1::uuid, NULL::uuid, 'session.created', '{}'::jsonb, now() - make_interval(secs => ((i::bigint * 7919) % $3::int) * (2851200.0 / $3::int)), now()
           FROM generate_series(1, $3::int) AS i
         RETURNING id, created_at
       )
       INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, status, attempt, response_status, duration_ms, created_at)
       SELECT $1::uuid, $2::uuid, e.id, 'session.created', s.status, 1, CASE s.status WHEN 'succeeded' THEN 200 WHEN 'failed' THEN 500 END, 40, e.created_at
         FROM (SELECT id, created_at, row_number() OVER () AS n FROM e) e
         CROSS JOIN LATERAL (SELECT CASE WHEN e.n % 100 < 95 THEN 'succeeded' WHEN e.n % 100 < 99 THEN 'failed' ELSE 'pending' END AS status) s`,
      [tenantId, hook.id, count],
    );
  }
  for (const table of [
    'audit_events',
    'sessions',
    'webhooks',
    'outbox_events',
    'webhook_deliveries',
  ])
    await raw.query(`VACUUM ANALYZE ${table}`);
  return (Date.now() - started) / 1000;
}

interface Scenario {
  name: string;
  /** Path and query of the request. */
  path: string;
}

/**
 * The list and count statements of one request, as the control plane sent them to PostgreSQL
 * (read off the wire by the counter in front of the capturing instance), to EXPLAIN.
 */
function listAndCount(
  executed: ExecutedStatement[],
  table: 'users' | 'audit_events',
): { list: ExecutedStatement; count: ExecutedStatement } {
  const reads = executed.filter(
    (e) =>
      new RegExp(`FROM "?${table}"?\\b`, 'i').test(e.sql) && /^\s*(SELECT|WITH)\b/i.test(e.sql),
  );
  const count = reads.find((e) => /count\(/i.test(e.sql));
  const list = reads.find((e) => e !== count);
  if (!list || !count)
    throw new Error(`no list and count statement of ${table} among ${executed.length} statements`);
  return { list, count };
}

function scenarios(projectId: string): Scenario[] {
  const userList = (name: string, query: string, page = 1): Scenario => ({
    name,
    path: `/v1/admin/users?limit=20&page=${page}${query}`,
  });
  const day = new Date(Date.now() - 50 * 86_400_000).toISOString().slice(0, 10);
  const auditList = (name: string, action: string | undefined, range: boolean): Scenario => ({
    name,
    path: `/v1/admin/audit?limit=20${action ? `&action=${action}` : ''}${range ? `&start_date=${day}&end_date=${day}` : ''}`,
  });
  return [
    userList('users: list, page 1', ''),
    userList('users: by project, page 1', `&project_id=${projectId}`),
    userList('users: list, page 250 (offset 4,980)', '', 250),
    userList('users: list, page 4000 (offset 79,980)', '', 4000),
    userList('users: q="user04217" (10 hits)', '&q=user04217'),
    userList('users: q="user0421" (100 hits)', '&q=user0421'),
    userList('users: q="user04" (10,000 hits)', '&q=user04'),
    userList('users: q="name4242" (username)', '&q=name4242'),
    userList('users: q="corp.example" (1/3 hit)', '&q=corp.example'),
    userList('users: q="er" (every row)', '&q=er'),
    auditList('audit: page 1', undefined, false),
    auditList('audit: action=user.updated', 'user.updated', false),
    auditList(`audit: one day (${day})`, undefined, true),
    auditList('audit: action + one day', 'user.updated', true),
  ];
}

interface PlanSummary {
  indexes: string[];
  nodes: string[];
  executionMs: number;
}

function walk(
  node: Record<string, unknown>,
  out: { indexes: Set<string>; nodes: Set<string> },
): void {
  const type = node['Node Type'] as string;
  out.nodes.add(type);
  if (typeof node['Index Name'] === 'string') out.indexes.add(node['Index Name']);
  for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child, out);
}

async function explain(ds: DataSource, sql: string, params: unknown[]): Promise<PlanSummary> {
  const rows = await ds.query<
    { 'QUERY PLAN': [{ Plan: Record<string, unknown>; 'Execution Time': number }] }[]
  >(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
  const [plan] = rows[0]['QUERY PLAN'];
  const out = { indexes: new Set<string>(), nodes: new Set<string>() };
  walk(plan.Plan, out);
  return { indexes: [...out.indexes], nodes: [...out.nodes], executionMs: plan['Execution Time'] };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

interface Result {
  name: string;
  total: number;
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  listPlan: PlanSummary;
  countPlan: PlanSummary;
}

/** Where the scenarios run: the timed instance, and the capturing one behind the statement counter. */
interface Targets {
  timed: string;
  captured: string;
  counter: PgStatementCounter;
}

async function run(targets: Targets, token: string, s: Scenario, ds: DataSource): Promise<Result> {
  const url = `${targets.timed}${s.path}`;
  const headers = { Authorization: `Bearer ${token}` };
  let total = -1;
  const once = async (): Promise<number> => {
    const t0 = process.hrtime.bigint();
    const res = await fetch(url, { headers });
    const body = (await res.json()) as { pagination?: { total: number } };
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (res.status !== 200)
      throw new Error(`${s.name}: HTTP ${res.status} ${JSON.stringify(body)}`);
    total = body.pagination!.total;
    return ms;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const times: number[] = [];
  const until = Date.now() + SECONDS * 1000;
  while (times.length < REQUESTS && Date.now() < until) times.push(await once());
  times.sort((a, b) => a - b);
  targets.counter.takeExecuted();
  const captured = await fetch(`${targets.captured}${s.path}`, { headers });
  if (captured.status !== 200)
    throw new Error(`${s.name}: HTTP ${captured.status} from the capturing instance`);
  const { list, count } = listAndCount(
    targets.counter.takeExecuted(),
    s.path.startsWith('/v1/admin/audit') ? 'audit_events' : 'users',
  );
  return {
    name: s.name,
    total,
    requests: times.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    max: times[times.length - 1],
    listPlan: await explain(ds, list.sql, list.params),
    countPlan: await explain(ds, count.sql, count.params),
  };
}

/** What `/v1/admin/stats` runs, one grouped statement per table, told apart by their SQL. */
const STATS_STATEMENTS: { table: string; pattern: RegExp }[] = [
  { table: 'projects', pattern: /FROM projects WHERE tenant_id/i },
  { table: 'audit_events', pattern: /FROM audit_events[\s\S]*GROUP BY/i },
  { table: 'sessions', pattern: /FROM sessions[\s\S]*GROUP BY/i },
  { table: 'webhook_deliveries', pattern: /FROM webhook_deliveries d/i },
];

interface StatsResult {
  name: string;
  /** What the answer held (rows and totals), to show the work was real. */
  answer: string;
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  plans: { table: string; plan: PlanSummary }[];
}

function statsScenarios(): Scenario[] {
  return [
    { name: 'stats: days=30 (default)', path: '/v1/admin/stats' },
    { name: 'stats: days=7', path: '/v1/admin/stats?days=7' },
    { name: 'stats: days=90', path: '/v1/admin/stats?days=90' },
  ];
}

interface StatsBody {
  daily: unknown[];
  totals: Record<string, number>;
  active_sessions: number;
  webhook_deliveries: { succeeded: number; failed: number; pending: number };
}

async function runStats(
  targets: Targets,
  token: string,
  s: Scenario,
  ds: DataSource,
): Promise<StatsResult> {
  const url = `${targets.timed}${s.path}`;
  const headers = { Authorization: `Bearer ${token}` };
  let answer = '';
  const once = async (): Promise<number> => {
    const t0 = process.hrtime.bigint();
    const res = await fetch(url, { headers });
    const body = (await res.json()) as StatsBody;
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (res.status !== 200)
      throw new Error(`${s.name}: HTTP ${res.status} ${JSON.stringify(body)}`);
    const d = body.webhook_deliveries;
    answer = `${body.daily.length} daily rows; ${Object.entries(body.totals)
      .map(([k, v]) => `${k} ${v}`)
      .join(
        ', ',
      )}; ${body.active_sessions} live sessions; deliveries ${d.succeeded}/${d.failed}/${d.pending}`;
    return ms;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const times: number[] = [];
  const until = Date.now() + SECONDS * 1000;
  while (times.length < REQUESTS && Date.now() < until) times.push(await once());
  times.sort((a, b) => a - b);
  targets.counter.takeExecuted();
  const captured = await fetch(`${targets.captured}${s.path}`, { headers });
  if (captured.status !== 200)
    throw new Error(`${s.name}: HTTP ${captured.status} from the capturing instance`);
  const executed = targets.counter.takeExecuted().filter((e) => /^\s*(SELECT|WITH)\b/i.test(e.sql));
  const plans: StatsResult['plans'] = [];
  for (const { table, pattern } of STATS_STATEMENTS) {
    const statement = executed.find((e) => pattern.test(e.sql));
    if (!statement)
      throw new Error(`${s.name}: no statement of ${table} among ${executed.length} statements`);
    plans.push({ table, plan: await explain(ds, statement.sql, statement.params) });
  }
  return {
    name: s.name,
    answer,
    requests: times.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    max: times[times.length - 1],
    plans,
  };
}

async function main(): Promise<void> {
  const encryptionKey = randomBytes(32).toString('base64');
  say(
    `[bench:admin] seeding ${USERS.toLocaleString('en')} users (+${Math.round(USERS / 5).toLocaleString('en')} in another tenant) into ${DATABASE_URL.replace(/\/\/[^@]*@/, '//')} …`,
  );
  await runMigrations(DATABASE_URL);
  const ds = new DataSource({ type: 'postgres', url: DATABASE_URL });
  await ds.initialize();
  const servers: Child[] = [];
  const db = new URL(DATABASE_URL);
  const counter = new PgStatementCounter(db.hostname || '127.0.0.1', Number(db.port || 5432));
  try {
    const seeded = await seed(encryptionKey, ds);
    say(`[bench:admin] seeded in ${seeded.seedSeconds.toFixed(1)} s`);
    const counterPort = await counter.start();
    const behindCounter = new URL(DATABASE_URL);
    behindCounter.hostname = '127.0.0.1';
    behindCounter.port = String(counterPort);
    // One instance is timed; a second, behind the statement counter, shows what each request runs.
    const start = async (databaseUrl: string): Promise<string> => {
      const port = await freePort();
      const server = startNode(
        'control-plane',
        'dist/apps/control-plane/src/main.js',
        productionEnv(encryptionKey, {
          // eslint-disable-next-line no-restricted-properties -- the child needs PATH and friends
          PATH: process.env.PATH ?? '',
          CONTROL_PLANE_PORT: String(port),
          CONTROL_PLANE_METRICS_PORT: '0',
          DATABASE_URL: databaseUrl,
          REDIS_URL,
        }),
      );
      servers.push(server);
      await waitReady(`http://127.0.0.1:${port}/health/ready`, server);
      return `http://127.0.0.1:${port}`;
    };
    const targets: Targets = {
      timed: await start(DATABASE_URL),
      captured: await start(behindCounter.toString()),
      counter,
    };
    const results: Result[] = [];
    for (const s of PARTS.includes('lists') ? scenarios(seeded.projectId) : []) {
      const r = await run(targets, seeded.adminToken, s, ds);
      results.push(r);
      say(
        `  ${r.name.padEnd(40)} total ${String(r.total).padStart(6)}  n=${String(r.requests).padStart(4)}  p50 ${r.p50.toFixed(1).padStart(6)} ms  p95 ${r.p95.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  max ${r.max.toFixed(1).padStart(6)} ms`,
      );
      say(
        `  ${''.padEnd(40)} list: ${r.listPlan.indexes.join(', ') || 'no index'} (${r.listPlan.executionMs.toFixed(2)} ms in Postgres); count: ${r.countPlan.indexes.join(', ') || 'no index'} (${r.countPlan.executionMs.toFixed(2)} ms)`,
      );
    }
    const stats: StatsResult[] = [];
    let activitySeconds = 0;
    if (PARTS.includes('stats')) {
      say(
        `[bench:admin] seeding ${ACTIVITY.toLocaleString('en')} audit events of the last 30 days, sessions and webhook deliveries (+ a fifth in another tenant) …`,
      );
      activitySeconds = await seedActivity(ds, seeded);
      say(`[bench:admin] seeded in ${activitySeconds.toFixed(1)} s`);
      for (const s of statsScenarios()) {
        const r = await runStats(targets, seeded.adminToken, s, ds);
        stats.push(r);
        say(
          `  ${r.name.padEnd(40)} n=${String(r.requests).padStart(4)}  p50 ${r.p50.toFixed(1).padStart(6)} ms  p95 ${r.p95.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  max ${r.max.toFixed(1).padStart(6)} ms`,
        );
        say(`  ${''.padEnd(40)} ${r.answer}`);
        for (const { table, plan } of r.plans) {
          say(
            `  ${''.padEnd(40)} ${table}: ${plan.indexes.join(', ') || 'no index'} [${plan.nodes.join(', ')}] (${plan.executionMs.toFixed(2)} ms in Postgres)`,
          );
        }
      }
    }
    if (args.json)
      process.stdout.write(
        `${JSON.stringify({ users: USERS, activity: ACTIVITY, seedSeconds: seeded.seedSeconds, activitySeconds, results, stats }, null, 2)}\n`,
      );
  } finally {
    for (const server of servers) await stop(server);
    await counter.stop();
    await ds.destroy();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`[bench:admin] ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
