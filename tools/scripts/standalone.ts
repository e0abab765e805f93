import { mkdirSync } from 'node:fs';
import net from 'node:net';
import { join, resolve } from 'node:path';
import { PGlite, type Extension } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, loadConfigOrExit, type AppConfig } from '@gatehouse/config';
import { runMigrations } from '@gatehouse/entities';
import { listen, stopOnSignals, type RunningApp } from '@gatehouse/http';
import { appFactory } from './app-entries';

// The `exports` subpath is invisible to TypeScript's `node` module resolution; Node resolves it fine.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };

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
  defaults: { databaseUrl: string; redisUrl: string } = { databaseUrl: DEFAULT_DATABASE_URL, redisUrl: DEFAULT_REDIS_URL },
): Promise<boolean> {
  if (truthy(env.GATEHOUSE_STANDALONE)) return true;
  if (env.DATABASE_URL || env.REDIS_URL) return false;
  const [pg, redis] = await Promise.all([answers(defaults.databaseUrl), answers(defaults.redisUrl)]);
  return !pg && !redis;
}

export interface Standalone {
  config: AppConfig;
  apps: RunningApp[];
  stop: () => Promise<void>;
}

/**
 * The whole service in this process: PostgreSQL embedded through PGlite (data under
 * `<GATEHOUSE_DATA_DIR>/pgdata`, served to the apps' `pg` driver by pglite-socket on loopback), the
 * in-process cache and job broker, and the three apps. Same migrations, entities and HTTP behaviour.
 */
export async function startStandalone(env: NodeJS.ProcessEnv, bootstrap: (config: AppConfig) => Promise<void>): Promise<Standalone> {
  const dataDir = resolve(env.GATEHOUSE_DATA_DIR ?? '.gatehouse');
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(join(dataDir, 'pgdata'), { extensions: { pg_trgm } });
  const socket = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 64 });
  await socket.start();
  const port = Number(socket.getServerConn().split(':').pop());
  const config = loadConfigOrExit({
    ...env,
    GATEHOUSE_STANDALONE: '1',
    DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`,
  });
  await runMigrations(config.database.url);
  await bootstrap(config);
  const ports = config.http.ports;
  const metrics = config.metrics.ports;
  const apps = [
    await listen(await appFactory('auth-runtime')(config), config, ports.authRuntime, metrics.authRuntime),
    await listen(await appFactory('control-plane')(config), config, ports.controlPlane, metrics.controlPlane),
    await listen(await appFactory('webhook-worker')(config), config, ports.webhookWorker, metrics.webhookWorker),
  ];
  const stopDatabase = async () => {
    await socket.stop();
    await db.close();
  };
  stopOnSignals(config, apps, stopDatabase);
  return {
    config,
    apps,
    stop: async () => {
      for (const app of apps) await app.stop();
      await stopDatabase();
    },
  };
}
