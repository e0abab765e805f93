import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Queue, Worker } from 'bullmq';
import Redis from 'ioredis';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { loadConfig, type AppConfig } from '@gatehouse/config';
import { runMigrations, Webhook } from '@gatehouse/entities';
import { createIdentityContext, EventRecorder, ProvisioningService } from '@gatehouse/identity';
import { newWebhookSecret, sealWebhookSecret } from '@gatehouse/webhooks';
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

/**
 * `npm run bench:webhooks`: the real webhook worker (a child process, as in production) delivering
 * to a local receiver that answers 200 at once, beside a no-op BullMQ worker measured in the same
 * run on the same Redis with the same concurrency. Then the lag from commit to delivery at a steady
 * rate. Loopback only, bounded in time (`--max-seconds`). Exits 0 whatever the figures; 1 when
 * set-up fails.
 */

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
    'lag-events': { type: 'string', default: '500' },
    'lag-rate': { type: 'string', default: '100' },
    'database-url': {
      type: 'string',
      default: 'postgres://postgres@127.0.0.1:5432/gatehouse_bench_webhooks',
    },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379/9' },
    'max-seconds': { type: 'string', default: '240' },
    json: { type: 'boolean', default: false },
  },
});

const EVENTS = Number(args.events);
const ROUNDS = Math.max(1, Number(args.rounds));
const LAG_EVENTS = Number(args['lag-events']);
const LAG_RATE = Number(args['lag-rate']);
const DATABASE_URL = args['database-url'];
const REDIS_URL = args['redis-url'];
const MAX_MS = Number(args['max-seconds']) * 1000;
/** The webhook worker's consumer concurrency (apps/webhook-worker/src/deliveries/webhook-delivery.processor.ts). */
const CONCURRENCY = 32;
const TARGET_RATIO = 0.5;
/** Jobs (no-op) and events (deliveries) run before measuring, so that both are warm. */
const WARM_UP = 2000;
const started = performance.now();

function say(line = ''): void {
  if (!args.json) process.stdout.write(`${line}\n`);
}

function fail(message: string): never {
  process.stderr.write(`[bench:webhooks] ${message}\n`);
  process.exit(1);
}

function remainingMs(): number {
  const left = MAX_MS - (performance.now() - started);
  if (left <= 0) fail(`over the time budget (--max-seconds ${MAX_MS / 1000})`);
  return left;
}

async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = performance.now() + Math.min(timeoutMs, remainingMs());
  while (!(await check())) {
    if (performance.now() > deadline) fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The endpoint: answers 200 at once and notes when each webhook-id first arrived. */
class Receiver {
  readonly arrivals = new Map<string, number>();
  readonly samples: { body: string; headers: Record<string, string> }[] = [];
  requests = 0;
  private server: http.Server | null = null;
  port = 0;

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.requests += 1;
        const id = String(req.headers['webhook-id']);
        if (!this.arrivals.has(id)) this.arrivals.set(id, performance.now());
        if (this.samples.length < 20) {
          const headers: Record<string, string> = {};
          for (const k of ['webhook-id', 'webhook-timestamp', 'webhook-signature'])
            headers[k] = String(req.headers[k]);
          this.samples.push({ body: Buffer.concat(chunks).toString('utf8'), headers });
        }
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      });
    });
    this.server.keepAliveTimeout = 30_000;
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/** A no-op BullMQ consumer on the same Redis and with the same concurrency: the queue machinery alone. */
async function noopBaseline(n: number): Promise<number> {
  const u = new URL(REDIS_URL);
  const connection = {
    host: u.hostname,
    port: Number(u.port || 6379),
    db: Number(u.pathname.slice(1) || 0),
    maxRetriesPerRequest: null,
  };
  const name = `noop-${randomUUID().slice(0, 8)}`;
  const queue = new Queue(name, { connection, prefix: 'bench' });
  let completed = 0;
  const worker = new Worker(name, async () => undefined, {
    connection,
    prefix: 'bench',
    concurrency: CONCURRENCY,
  });
  worker.on('completed', () => (completed += 1));
  const add = async (count: number) => {
    for (let i = 0; i < count; i += 500) {
      await queue.addBulk(
        Array.from({ length: Math.min(500, count - i) }, () => ({
          name: 'noop',
          data: { deliveryId: randomUUID() },
          opts: { removeOnComplete: true, removeOnFail: true },
        })),
      );
    }
  };
  try {
    await add(WARM_UP);
    await until('the no-op warm-up', () => completed >= WARM_UP, 30_000);
    completed = 0;
    const t0 = performance.now();
    await add(n);
    await until('the no-op jobs', () => completed >= n, 120_000);
    return n / ((performance.now() - t0) / 1000);
  } finally {
    await worker.close();
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  }
}

async function main(): Promise<void> {
  const encryptionKey = randomBytes(32).toString('base64');
  const config: AppConfig = loadConfig({
    DATABASE_URL,
    REDIS_URL,
    ENCRYPTION_KEY: encryptionKey,
    LOG_LEVEL: 'error',
  });
  say(
    `bench:webhooks — ${EVENTS} events, ${LAG_EVENTS} at ${LAG_RATE}/s for the lag; database ${new URL(DATABASE_URL).pathname.slice(1)}, redis db ${new URL(REDIS_URL).pathname.slice(1) || 0}`,
  );
  say(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  // A clean slate in the bench's own database and Redis database.
  await runMigrations(DATABASE_URL);
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  await redis.flushdb();
  const redisPidMatch = /process_id:(\d+)/.exec(await redis.info('server'));
  const redisPid = redisPidMatch ? Number(redisPidMatch[1]) : null;
  redis.disconnect();
  const pgCpu = await PgBackendsCpu.connect(DATABASE_URL);
  const ctx = await createIdentityContext(config);
  const dataSource = ctx.get(DataSource);
  await dataSource.query(`TRUNCATE tenants CASCADE`);
  const tenant = await ctx.get(ProvisioningService).createTenant({
    name: 'bench',
    adminEmail: 'admin@bench.example.com',
    adminPassword: randomBytes(18).toString('base64url'),
  });
  await dataSource.query(`UPDATE outbox_events SET dispatched_at = now()`);

  const receiver = new Receiver();
  await receiver.start();
  const webhookId = randomUUID();
  const secret = newWebhookSecret();
  await dataSource.getRepository(Webhook).insert({
    id: webhookId,
    tenantId: tenant.tenant_id,
    url: `http://127.0.0.1:${receiver.port}/hook`,
    events: ['user.updated'],
    description: 'bench',
    enabled: true,
    disabledReason: null,
    secretEncrypted: sealWebhookSecret(config, webhookId, secret),
  });
  const recorder = ctx.get(EventRecorder);
  const emit = async (count: number): Promise<{ id: string; committedAt: number }[]> => {
    const ids = await dataSource.transaction(async (m) => {
      const out: string[] = [];
      for (let i = 0; i < count; i += 1) {
        out.push(
          await recorder.record(m, {
            tenantId: tenant.tenant_id,
            projectId: null,
            actorType: 'system',
            actorId: null,
            action: 'user.updated',
            resourceType: 'user',
            resourceId: null,
            data: { user: { id: randomUUID() } },
          }),
        );
      }
      return out;
    });
    const committedAt = performance.now();
    return ids.map((id) => ({ id, committedAt }));
  };
  /** Nothing left to relay or to record (cheap: both counts read partial indexes). */
  const settled = async (): Promise<boolean> => {
    const [row] = await dataSource.query<{ n: number }[]>(
      `SELECT (SELECT count(*) FROM outbox_events WHERE dispatched_at IS NULL) + (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending') AS n`,
    );
    return Number(row.n) === 0;
  };

  const port = await freePort();
  let worker: Child | null = null;
  try {
    // The real worker as its own process, as in production.
    worker = startNode(
      'webhook-worker',
      'dist/apps/webhook-worker/src/main.js',
      productionEnv(encryptionKey, {
        // eslint-disable-next-line no-restricted-properties -- the child needs PATH
        PATH: process.env.PATH ?? '',
        WEBHOOK_WORKER_PORT: String(port),
        WEBHOOK_WORKER_METRICS_PORT: '0',
        DATABASE_URL,
        REDIS_URL,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      }),
    );
    await waitReady(`http://127.0.0.1:${port}/health/ready`, worker);
    // Warm-up (JIT, connections, pools), not measured: WARM_UP events in transactions of 100.
    const warm: { id: string; committedAt: number }[] = [];
    for (let i = 0; i < WARM_UP; i += 100) warm.push(...(await emit(100)));
    await until(
      'the warm-up deliveries',
      () => warm.every((e) => receiver.arrivals.has(e.id)),
      60_000,
    );
    await until('the warm-up records', settled, 60_000);

    /** One burst: EVENTS events committed at once, timed until the last result is recorded. */
    const burstRound = async () => {
      const rows = await dataSource.query<{ id: string }[]>(
        `INSERT INTO outbox_events (tenant_id, project_id, type, payload)
         SELECT $1, NULL, 'user.updated', jsonb_build_object('user', jsonb_build_object('id', gen_random_uuid()))
           FROM generate_series(1, $2::int)
         RETURNING id`,
        [tenant.tenant_id, EVENTS],
      );
      const t0 = performance.now();
      const cpu0 = cpuSeconds(worker!.pid);
      const bench0 = process.cpuUsage();
      const busy0 = machineBusySeconds();
      const pg0 = await pgCpu.snapshot();
      const redis0 = redisPid === null ? null : cpuSeconds(redisPid);
      await until(
        'every burst delivery to arrive',
        () => rows.every((r) => receiver.arrivals.has(r.id)),
        180_000,
      );
      const arrived = performance.now();
      await until('every burst delivery to be recorded', settled, 60_000);
      const done = performance.now();
      const windowS = (done - t0) / 1000;
      const cpu1 = cpuSeconds(worker!.pid);
      const busy1 = machineBusySeconds();
      const pgS = PgBackendsCpu.delta(pg0, await pgCpu.snapshot());
      const redis1 = redisPid === null ? null : cpuSeconds(redisPid);
      const bench = process.cpuUsage(bench0);
      const lags = rows.map((r) => receiver.arrivals.get(r.id)! - t0).sort((a, b) => a - b);
      return {
        perSecond: EVENTS / windowS,
        receivedS: (arrived - t0) / 1000,
        windowS,
        workerUs: cpu0 !== null && cpu1 !== null ? ((cpu1 - cpu0) / EVENTS) * 1e6 : null,
        workerCores: cpu0 !== null && cpu1 !== null ? (cpu1 - cpu0) / windowS : null,
        postgresUs: pgS === null ? null : (pgS / EVENTS) * 1e6,
        redisUs: redis0 === null || redis1 === null ? null : ((redis1 - redis0) / EVENTS) * 1e6,
        receiverCores: (bench.user + bench.system) / 1e6 / windowS,
        machineCores: busy0 !== null && busy1 !== null ? (busy1 - busy0) / windowS : null,
        burstLag: { p50: percentile(lags, 50), p99: percentile(lags, 99) },
      };
    };

    // Baseline and deliveries take turns, so that both see the same machine (shared, and busy).
    say(
      `\n1. ${ROUNDS} rounds of: no-op BullMQ worker (concurrency ${CONCURRENCY}) on ${EVENTS} jobs, then the webhook worker on ${EVENTS} events committed at once`,
    );
    const baselines: number[] = [];
    const bursts: Awaited<ReturnType<typeof burstRound>>[] = [];
    for (let r = 1; r <= ROUNDS; r += 1) {
      const b = await noopBaseline(EVENTS);
      const d = await burstRound();
      baselines.push(b);
      bursts.push(d);
      say(
        `   round ${r}: no-op ${round(b)} jobs/s | deliveries ${round(d.perSecond)}/s (received ${round(d.receivedS, 2)} s, recorded ${round(d.windowS, 2)} s after the commit) | ratio ${(d.perSecond / b).toFixed(2)}`,
      );
      say(
        `            per delivery: worker ${d.workerUs === null ? 'n/a' : round(d.workerUs, 0)} µs, PostgreSQL ${d.postgresUs === null ? 'n/a' : round(d.postgresUs, 0)} µs, Redis ${d.redisUs === null ? 'n/a' : round(d.redisUs, 0)} µs | cores: worker ${d.workerCores === null ? 'n/a' : round(d.workerCores, 2)}, receiver ${round(d.receiverCores, 2)}, machine ${d.machineCores === null ? 'n/a' : `${round(d.machineCores, 2)} of ${availableParallelism()}`}`,
      );
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
    const baselineMedian = median(baselines);
    const deliveriesMedian = median(bursts.map((d) => d.perSecond));
    // Each round's ratio compares two runs a few seconds apart on the same machine; their median is the figure.
    const ratio = median(bursts.map((d, i) => d.perSecond / baselines[i]));
    say(
      `   medians: no-op ${round(baselineMedian)} jobs/s, deliveries ${round(deliveriesMedian)}/s; median ratio ${ratio.toFixed(3)} (target ≥ ${TARGET_RATIO}) ${ratio >= TARGET_RATIO ? 'MET' : 'MISSED'}`,
    );

    // Signatures of a sample, with the standardwebhooks package.
    const verifier = new StandardWebhook(secret);
    for (const s of receiver.samples) verifier.verify(s.body, s.headers);

    // 3. Lag from commit to delivery at a steady rate, one event per transaction.
    say(
      `\n2. lag from commit to arrival, ${LAG_EVENTS} events at ${LAG_RATE}/s, one transaction each…`,
    );
    const stream: { id: string; committedAt: number }[] = [];
    const interval = 1000 / LAG_RATE;
    const s0 = performance.now();
    for (let i = 0; i < LAG_EVENTS; i += 1) {
      const due = s0 + i * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      stream.push(...(await emit(1)));
    }
    await until(
      'every streamed delivery',
      () => stream.every((e) => receiver.arrivals.has(e.id)),
      60_000,
    );
    const lags = stream
      .map((e) => receiver.arrivals.get(e.id)! - e.committedAt)
      .sort((a, b) => a - b);
    const lag = {
      p50: percentile(lags, 50),
      p90: percentile(lags, 90),
      p99: percentile(lags, 99),
      max: lags[lags.length - 1],
    };
    say(
      `   lag ms: p50 ${round(lag.p50)}, p90 ${round(lag.p90)}, p99 ${round(lag.p99)}, max ${round(lag.max)}`,
    );
    const last = bursts[bursts.length - 1];
    say(
      `   (in the last burst of step 1, waiting behind ${EVENTS} others included: p50 ${round(last.burstLag.p50)}, p99 ${round(last.burstLag.p99)} ms)`,
    );
    say(
      `\nreceiver requests: ${receiver.requests} for ${receiver.arrivals.size} events (duplicates: ${receiver.requests - receiver.arrivals.size}); load average after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );

    if (args.json) {
      process.stdout.write(
        `${JSON.stringify({
          events: EVENTS,
          rounds: ROUNDS,
          noopConcurrency: CONCURRENCY,
          noopJobsPerSecond: baselines.map((b) => round(b)),
          deliveriesPerSecond: bursts.map((d) => round(d.perSecond)),
          medianRatio: round(ratio, 2),
          target: TARGET_RATIO,
          perDeliveryMicroseconds: bursts.map((d) => ({
            worker: d.workerUs && round(d.workerUs, 0),
            postgres: d.postgresUs && round(d.postgresUs, 0),
            redis: d.redisUs && round(d.redisUs, 0),
          })),
          lagMs: {
            rate: LAG_RATE,
            events: LAG_EVENTS,
            p50: round(lag.p50),
            p90: round(lag.p90),
            p99: round(lag.p99),
            max: round(lag.max),
          },
          loadAverage: loadavg(),
        })}\n`,
      );
    }
  } finally {
    await stop(worker);
    await receiver.stop();
    await ctx.close();
    await pgCpu.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => fail(err instanceof Error ? err.message : String(err)),
);
