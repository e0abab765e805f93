import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import * as bcrypt from 'bcrypt';
import { DataSource } from 'typeorm';
import { loadConfig } from '@gatehouse/config';
import { Session, User } from '@gatehouse/entities';
import { AccessTokensService, createIdentityContext } from '@gatehouse/identity';
import { freePort, productionEnv, startNode, stop, waitReady, type Child } from './processes';
import { newEncryptionKey, seed } from './seed';

/**
 * `npm run bench:import [-- --users N]`: imports N generated users (default 1,000,000) with bcrypt
 * hashes into an empty project of the real control plane (a child process, production settings),
 * as one streamed `application/x-ndjson` request generated on the fly, and reports users/s and the
 * server's resident memory: sampled every second during the import (flat while streaming) and its
 * peak (VmHWM). Target (issue 25): under 5 minutes for a million on this machine, RSS flat.
 */
const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '1000000' },
    'database-url': {
      type: 'string',
      default: 'postgres://postgres@127.0.0.1:5432/gatehouse_bench_import',
    },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379/8' },
    json: { type: 'boolean', default: false },
  },
});
const USERS = Number(args.users);
const DATABASE_URL = args['database-url'];
const REDIS_URL = args['redis-url'];

function memoryKiB(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
}

async function main(): Promise<void> {
  const runId = Date.now().toString(36);
  const encryptionKey = newEncryptionKey();
  const seeded = await seed(
    { databaseUrl: DATABASE_URL, redisUrl: REDIS_URL, encryptionKey, bcryptCost: 10 },
    runId,
  );
  const config = loadConfig({
    DATABASE_URL,
    REDIS_URL,
    ENCRYPTION_KEY: encryptionKey,
    LOG_LEVEL: 'error',
  });
  const ctx = await createIdentityContext(config);
  let adminToken: string;
  try {
    // A session of the tenant's administrator, as a sign-in would make it (no bcrypt needed here).
    const dataSource = ctx.get(DataSource);
    const admin = await dataSource
      .getRepository(User)
      .findOneByOrFail({ tenantId: seeded.tenantId, isAdmin: true });
    const session = await dataSource.getRepository(Session).save(
      dataSource.getRepository(Session).create({
        tenantId: admin.tenantId,
        projectId: admin.projectId,
        userId: admin.id,
        expiresAt: new Date(Date.now() + 86_400_000),
      }),
    );
    adminToken = (
      await ctx.get(AccessTokensService).issue({
        tenantId: admin.tenantId,
        projectId: admin.projectId,
        userId: admin.id,
        sessionId: session.id,
        isAdmin: true,
      })
    ).token;
  } finally {
    await ctx.close();
  }

  // A hundred distinct bcrypt hashes, cycled: hashing a million passwords is not what is measured.
  const hashes = await Promise.all(
    Array.from({ length: 100 }, (_, i) => bcrypt.hash(`password number ${i}`, 10)),
  );
  const port = await freePort();
  let server: Child | null = null;
  try {
    server = startNode(
      'control-plane',
      'dist/apps/control-plane/src/main.js',
      productionEnv(encryptionKey, {
        CONTROL_PLANE_PORT: String(port),
        DATABASE_URL,
        REDIS_URL,
        CONTROL_PLANE_METRICS_PORT: '0',
      }),
    );
    await waitReady(`http://127.0.0.1:${port}/health/ready`, server);
    const pid = server.pid;
    const before = memoryKiB(pid);
    function* lines(): Generator<string> {
      const created = new Date('2020-01-01T00:00:00Z').toISOString();
      for (let i = 0; i < USERS; i += 1) {
        yield `${JSON.stringify({ email: `user${i}-${runId}@bench.example.com`, email_verified: true, password_hash: hashes[i % hashes.length], external_id: `ext-${runId}-${i}`, created_at: created })}\n`;
      }
    }
    const samples: { s: number; rssMiB: number }[] = [];
    const started = process.hrtime.bigint();
    const sampler = setInterval(
      () =>
        samples.push({
          s: Number(process.hrtime.bigint() - started) / 1e9,
          rssMiB: memoryKiB(pid).rss / 1024,
        }),
      1000,
    );
    const res = await fetch(
      `http://127.0.0.1:${port}/v1/admin/projects/${seeded.projectId}/users/import`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/x-ndjson' },
        body: Readable.toWeb(Readable.from(lines())) as ReadableStream,
        duplex: 'half',
      } as RequestInit,
    );
    const report = (await res.json()) as { counts: Record<string, number>; errors: unknown[] };
    clearInterval(sampler);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const after = memoryKiB(pid);
    const rss = samples.map((x) => x.rssMiB);
    const result = {
      users: USERS,
      status: res.status,
      counts: report.counts,
      seconds: Math.round(seconds * 10) / 10,
      usersPerSecond: Math.round(USERS / seconds),
      rssMiB: {
        before: Math.round(before.rss / 1024),
        min: Math.round(Math.min(...rss)),
        max: Math.round(Math.max(...rss)),
        peakHwm: Math.round(after.hwm / 1024),
        at: [0.1, 0.5, 0.9].map((f) => Math.round(rss[Math.floor(f * (rss.length - 1))] ?? 0)),
      },
    };
    if (args.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else {
      process.stdout.write(
        `import of ${USERS} users: HTTP ${res.status}, ${JSON.stringify(report.counts)}, ${result.seconds} s, ${result.usersPerSecond} users/s\n`,
      );
      process.stdout.write(
        `control plane RSS (MiB): before ${result.rssMiB.before}, during min ${result.rssMiB.min} max ${result.rssMiB.max} (at 10/50/90 %: ${result.rssMiB.at.join(', ')}), peak (VmHWM) ${result.rssMiB.peakHwm}\n`,
      );
    }
  } finally {
    await stop(server);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
