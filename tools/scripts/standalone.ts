import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join, resolve } from 'node:path';
import {
  DEFAULT_DATABASE_URL,
  DEFAULT_REDIS_URL,
  loadConfigOrExit,
  type AppConfig,
} from '@gatehouse/config';
import { EmbeddedDatabaseServer, openPglite, runMigrations } from '@gatehouse/entities';
import { listen, stopOnSignals, type RunningApp } from '@gatehouse/http';
import { appFactory } from './app-entries';

const truthy = (v: string | undefined) => ['1', 'true', 'yes'].includes((v ?? '').toLowerCase());

function answers(url: string, timeoutMs = 500): Promise<boolean> {
  const u = new URL(url);
  return new Promise((done) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port) });
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/**
 * Standalone is chosen when GATEHOUSE_STANDALONE is set, or when neither DATABASE_URL nor REDIS_URL
 * is set and nothing answers on PostgreSQL's and Redis's default addresses.
 */
export async function shouldRunStandalone(
  env: NodeJS.ProcessEnv,
  defaults: { databaseUrl: string; redisUrl: string } = {
    databaseUrl: DEFAULT_DATABASE_URL,
    redisUrl: DEFAULT_REDIS_URL,
  },
): Promise<boolean> {
  if (truthy(env.GATEHOUSE_STANDALONE)) return true;
  if (env.DATABASE_URL || env.REDIS_URL) return false;
  const [pg, redis] = await Promise.all([
    answers(defaults.databaseUrl),
    answers(defaults.redisUrl),
  ]);
  return !pg && !redis;
}

/** The data directory of standalone mode: PGlite's files in `pgdata`, the admin file, the local encryption key. */
export function standaloneDataDir(env: NodeJS.ProcessEnv): string {
  return resolve(env.GATEHOUSE_DATA_DIR ?? '.gatehouse');
}

/** Where the process that holds a data directory's database publishes the loopback address it serves it on. */
const ADDRESS_FILE = 'standalone.json';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const databaseUrl = (port: number, password: string) =>
  `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;

/**
 * The process serving this data directory's embedded database (a running standalone service, or a
 * CLI command that opened it), if there is one: its published address, while its process lives and
 * its port answers. A file left by a process that was killed names neither.
 */
export async function runningStandalone(
  dataDir: string,
): Promise<{ port: number; pid: number; password: string } | null> {
  let state: { port?: unknown; pid?: unknown; password?: unknown };
  try {
    state = JSON.parse(readFileSync(join(dataDir, ADDRESS_FILE), 'utf8')) as typeof state;
  } catch {
    return null;
  }
  const { port, pid, password } = state;
  if (
    typeof port !== 'number' ||
    typeof pid !== 'number' ||
    typeof password !== 'string' ||
    !Number.isInteger(port) ||
    !Number.isInteger(pid)
  )
    return null;
  return alive(pid) && (await answers(databaseUrl(port, password)))
    ? { port, pid, password }
    : null;
}

export interface EmbeddedDatabase {
  /** The `pg` driver's URL of the database. */
  url: string;
  close: () => Promise<void>;
}

/**
 * Opens the data directory's PGlite database (PostgreSQL's files in `<dataDir>/pgdata`, with the
 * extensions the migrations need) and serves it to the `pg` driver on a loopback port, one session
 * at a time (EmbeddedDatabaseServer), which it
 * publishes with its password in `<dataDir>/standalone.json` (mode 0600) until closed. One process at a time holds the directory:
 * this refuses while another serves it.
 */
export async function openEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  const running = await runningStandalone(dataDir);
  if (running)
    throw new Error(
      `the embedded database in ${dataDir} is in use by process ${running.pid} (\`npm start\` or the CLI); stop it first`,
    );
  // The directory holds the database's files, the admin's password and the served database's
  // password: its owner's alone.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const db = await openPglite(join(dataDir, 'pgdata'));
  // One session at a time: PGlite is one backend, so a connection keeps it from its first message
  // to a ReadyForQuery outside a transaction (EmbeddedDatabaseServer; docs/architecture.md).
  // A password of this process's own: another local user of the machine reaches the loopback port
  // but not the directory where it is published (mode 0600 in a 0700 directory).
  const password = randomBytes(32).toString('base64url');
  const socket = new EmbeddedDatabaseServer(db, {
    host: '127.0.0.1',
    port: 0,
    maxConnections: 64,
    password,
  });
  const port = await socket.start();
  const addressFile = join(dataDir, ADDRESS_FILE);
  rmSync(addressFile, { force: true });
  writeFileSync(addressFile, JSON.stringify({ port, pid: process.pid, password }) + '\n', {
    mode: 0o600,
  });
  return {
    url: databaseUrl(port, password),
    close: async () => {
      rmSync(addressFile, { force: true });
      await socket.stop();
      await db.close();
    },
  };
}

/**
 * The embedded database for a command that runs beside the service (the CLI): through the process
 * that serves it when there is one, so the running service sees the change at once; otherwise the
 * data directory opened for the time of the command.
 */
export async function reachEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  const running = await runningStandalone(dataDir);
  if (running)
    return { url: databaseUrl(running.port, running.password), close: async () => undefined };
  return openEmbeddedDatabase(dataDir);
}

export interface Standalone {
  config: AppConfig;
  apps: RunningApp[];
  stop: () => Promise<void>;
}

/**
 * The whole service in this process: PostgreSQL embedded through PGlite (data under
 * `<GATEHOUSE_DATA_DIR>/pgdata`, served to the apps' `pg` driver and to the CLI by EmbeddedDatabaseServer on
 * loopback, `openEmbeddedDatabase`), the in-process cache and job broker, and the three apps. Same
 * migrations, entities and HTTP behaviour.
 */
export async function startStandalone(
  env: NodeJS.ProcessEnv,
  bootstrap: (config: AppConfig) => Promise<void>,
): Promise<Standalone> {
  const database = await openEmbeddedDatabase(standaloneDataDir(env));
  const config = loadConfigOrExit({
    ...env,
    GATEHOUSE_STANDALONE: '1',
    DATABASE_URL: database.url,
  });
  await runMigrations(config.database.url);
  await bootstrap(config);
  const ports = config.http.ports;
  const metrics = config.metrics.ports;
  // `npm start`'s welcome names the configured ports (README), so an app announces its own only when
  // the system chose it (port 0, as tests that start it do).
  const apps = [
    await listen(
      await appFactory('auth-runtime')(config),
      config,
      ports.authRuntime,
      metrics.authRuntime,
      ports.authRuntime === 0,
    ),
    await listen(
      await appFactory('control-plane')(config),
      config,
      ports.controlPlane,
      metrics.controlPlane,
      ports.controlPlane === 0,
    ),
    await listen(
      await appFactory('webhook-worker')(config),
      config,
      ports.webhookWorker,
      metrics.webhookWorker,
      ports.webhookWorker === 0,
    ),
  ];
  stopOnSignals(config, apps, database.close);
  return {
    config,
    apps,
    stop: async () => {
      for (const app of apps) await app.stop();
      await database.close();
    },
  };
}
