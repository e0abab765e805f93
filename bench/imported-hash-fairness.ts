import { pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import * as argon2 from 'argon2';
import * as bcrypt from 'bcrypt';
import { DataSource } from 'typeorm';
import { loadConfig } from '@gatehouse/config';
import { parseImportedHash } from '@gatehouse/crypto';
import { Project } from '@gatehouse/entities';
import { createIdentityContext, UsersRepository } from '@gatehouse/identity';
import { freePort, productionEnv, startNode, stop, waitReady, type Child } from './processes';
import { newEncryptionKey, seed } from './seed';

/**
 * `npm run bench:hash-fairness [-- --seconds S --a-concurrency N --b-concurrency M]`: project A's
 * password sign-in throughput alone, then while project B floods wrong passwords at its most
 * expensive accepted imported hashes (one of each scheme at the work budget's edge: bcrypt 14,
 * Argon2id m=64 MiB t=16 p=4, scrypt ln=16 r=8 p=5, PBKDF2-SHA256 5,000,000, PBKDF2-SHA512
 * 1,700,000, PBKDF2-SHA1 1,000,000 × 64 bytes), then alone again. Target (issue 33): A with B's
 * flood within 10 % of A alone. The real auth runtime runs as a child process with the production
 * settings of `npm run bench` (its own database `gatehouse_bench_hashes`, created when missing;
 * Redis database 9); its peak memory (VmHWM) is read at the end.
 */
const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    'a-concurrency': { type: 'string', default: '1' },
    'b-concurrency': { type: 'string', default: '8' },
    /** Which of B's hashes: bcrypt, argon2, scrypt, pbkdf2-sha256, pbkdf2-sha512, pbkdf2-sha1 (default all). */
    'b-schemes': {
      type: 'string',
      default: 'bcrypt,argon2,scrypt,pbkdf2-sha256,pbkdf2-sha512,pbkdf2-sha1',
    },
    'database-url': {
      type: 'string',
      default: 'postgres://postgres@127.0.0.1:5432/gatehouse_bench_hashes',
    },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379/9' },
    json: { type: 'boolean', default: false },
  },
});
const SECONDS = Number(args.seconds);
const A_CONCURRENCY = Number(args['a-concurrency']);
const B_CONCURRENCY = Number(args['b-concurrency']);
const DATABASE_URL = args['database-url'];
const REDIS_URL = args['redis-url'];
const B_USERS = 400;
const B_PASSWORD = 'the imported password';

/** The most expensive hash of each scheme the budget accepts, made by its reference implementation. */
async function edgeHashes(names: string[]): Promise<string[]> {
  const salt = randomBytes(16);
  const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');
  const ab64 = (b: Buffer) => b64(b).replace(/\+/g, '.');
  const make: Record<string, () => Promise<string> | string> = {
    bcrypt: () => bcrypt.hash(B_PASSWORD, 14),
    argon2: () =>
      argon2.hash(B_PASSWORD, {
        type: argon2.argon2id,
        memoryCost: 65536,
        timeCost: 16,
        parallelism: 4,
      }),
    scrypt: () =>
      `$scrypt$ln=16,r=8,p=5$${b64(salt)}$${b64(scryptSync(B_PASSWORD, salt, 32, { N: 2 ** 16, r: 8, p: 5, maxmem: 2 ** 28 }))}`,
    'pbkdf2-sha256': () =>
      `pbkdf2_sha256$5000000$benchsalt$${pbkdf2Sync(B_PASSWORD, 'benchsalt', 5_000_000, 32, 'sha256').toString('base64')}`,
    'pbkdf2-sha512': () =>
      `$pbkdf2-sha512$1700000$${ab64(salt)}$${ab64(pbkdf2Sync(B_PASSWORD, salt, 1_700_000, 64, 'sha512'))}`,
    'pbkdf2-sha1': () =>
      `$pbkdf2$1000000$${ab64(salt)}$${ab64(pbkdf2Sync(B_PASSWORD, salt, 1_000_000, 64, 'sha1'))}`,
  };
  const hashes: string[] = [];
  for (const name of names) {
    if (!make[name]) throw new Error(`--b-schemes: unknown ${name}`);
    hashes.push(await make[name]());
  }
  // Each is what the import accepts (the same parser), at the edge of its budget.
  for (const h of hashes) parseImportedHash(h, { allowWeak: false });
  return hashes;
}

interface Tally {
  ok: number;
  statuses: Record<string, number>;
}

/** Closed-loop clients signing in until `until` (hrtime ns); counts answers by status. */
async function clients(
  port: number,
  projectKey: string,
  users: { email: string; password: string }[],
  concurrency: number,
  until: bigint,
): Promise<Tally> {
  const tally: Tally = { ok: 0, statuses: {} };
  let next = 0;
  const one = async () => {
    while (process.hrtime.bigint() < until) {
      const u = users[next++ % users.length];
      const res = await fetch(`http://127.0.0.1:${port}/v1/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-project-key': projectKey },
        body: JSON.stringify({ identifier: u.email, password: u.password }),
      });
      await res.arrayBuffer();
      tally.statuses[res.status] = (tally.statuses[res.status] ?? 0) + 1;
      if (res.status === 200) tally.ok++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, one));
  return tally;
}

async function main(): Promise<void> {
  const runId = Date.now().toString(36);
  const encryptionKey = newEncryptionKey();
  const env = { databaseUrl: DATABASE_URL, redisUrl: REDIS_URL, encryptionKey, bcryptCost: 10 };
  const a = await seed(env, `a${runId}`);
  const b = await seed(env, `b${runId}`);
  const hashes = await edgeHashes(args['b-schemes'].split(','));
  // B's users, their imported hashes written as an import writes them (scheme and string).
  const ctx = await createIdentityContext(
    loadConfig({ DATABASE_URL, REDIS_URL, ENCRYPTION_KEY: encryptionKey, LOG_LEVEL: 'error' }),
  );
  const bUsers: { email: string; password: string }[] = [];
  try {
    const dataSource = ctx.get(DataSource);
    const users = ctx.get(UsersRepository);
    await dataSource.transaction(async (manager) => {
      const project = await manager.getRepository(Project).findOneByOrFail({ id: b.projectId });
      for (let i = 0; i < B_USERS; i++) {
        const email = `flood-${i}-${runId}@bench.example.com`;
        const user = await users.create(manager, {
          tenantId: project.tenantId,
          projectId: project.id,
          email,
          username: null,
          metadata: {},
          emailVerified: true,
        });
        const parsed = parseImportedHash(hashes[i % hashes.length], { allowWeak: false });
        await users.setPassword(manager, user.id, parsed.hash, parsed.scheme);
        bUsers.push({ email, password: 'a wrong password' });
      }
    });
  } finally {
    await ctx.close();
  }

  const port = await freePort();
  let server: Child | null = null;
  try {
    server = startNode(
      'auth-runtime',
      'dist/apps/auth-runtime/src/main.js',
      productionEnv(encryptionKey, {
        AUTH_RUNTIME_PORT: String(port),
        DATABASE_URL,
        REDIS_URL,
        AUTH_RUNTIME_METRICS_PORT: '0',
        BCRYPT_COST: '10',
      }),
    );
    await waitReady(`http://127.0.0.1:${port}/health/ready`, server);
    const phase = async (flood: boolean) => {
      // Warm-up: connections, the dummy hash, JIT.
      await clients(
        port,
        a.projectKey,
        a.signInUsers,
        A_CONCURRENCY,
        process.hrtime.bigint() + 2_000_000_000n,
      );
      const started = process.hrtime.bigint();
      const until = started + BigInt(Math.round(SECONDS * 1e9));
      // A's rate over A's own time: B's last requests may wait up to PASSWORD_HASH_QUEUE_TIMEOUT_MS
      // after `until` (for a 503), and counting that wait as A's time made A look slower.
      let elapsed = 0;
      const aDone = clients(port, a.projectKey, a.signInUsers, A_CONCURRENCY, until).then(
        (tally) => {
          elapsed = Number(process.hrtime.bigint() - started) / 1e9;
          return tally;
        },
      );
      const [aTally, bTally] = await Promise.all([
        aDone,
        flood ? clients(port, b.projectKey, bUsers, B_CONCURRENCY, until) : Promise.resolve(null),
      ]);
      return {
        aPerSecond: Math.round((aTally.ok / elapsed) * 10) / 10,
        a: aTally.statuses,
        b: bTally?.statuses ?? null,
        seconds: Math.round(elapsed * 10) / 10,
      };
    };
    const alone = await phase(false);
    const flooded = await phase(true);
    const aloneAgain = await phase(false);
    const baseline = (alone.aPerSecond + aloneAgain.aPerSecond) / 2;
    const hwmMiB = Math.round(
      Number(
        /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0,
      ) / 1024,
    );
    const result = {
      aConcurrency: A_CONCURRENCY,
      bConcurrency: B_CONCURRENCY,
      alone,
      flooded,
      aloneAgain,
      changePercent: Math.round(((flooded.aPerSecond - baseline) / baseline) * 1000) / 10,
      runtimePeakMiB: hwmMiB,
    };
    if (args.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else {
      process.stdout.write(`A alone: ${alone.aPerSecond}/s ${JSON.stringify(alone.a)}\n`);
      process.stdout.write(
        `A while B floods: ${flooded.aPerSecond}/s ${JSON.stringify(flooded.a)}; B's answers ${JSON.stringify(flooded.b)}\n`,
      );
      process.stdout.write(
        `A alone again: ${aloneAgain.aPerSecond}/s ${JSON.stringify(aloneAgain.a)}\n`,
      );
      process.stdout.write(
        `A with the flood vs alone (mean of both): ${result.changePercent} % (target: within 10 %); auth runtime peak RSS ${hwmMiB} MiB\n`,
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
