import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { TEST_ENCRYPTION_KEY } from '@gatehouse/testing';
import { ROOT, spawnCaptured, type Spawned } from './processes';

export interface StandaloneProcess extends Spawned {
  dataDir: string;
  runtime: string;
  controlPlane: string;
  worker: string;
  /** The bootstrap console project's key and its admin's access token. */
  consoleKey: string;
  adminToken: string;
  stop: () => Promise<void>;
}

export const ADMIN = { email: 'owner@example.com', password: 'owner password 123' };

/**
 * `npm start` in standalone mode as a real process (the build in dist/), on ports the OS chooses and
 * a data directory of its own that `stop` removes; the bootstrap admin is signed in.
 */
export async function startStandaloneProcess(
  env: Record<string, string> = {},
): Promise<StandaloneProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-standalone-'));
  const spawned = await spawnCaptured(
    process.execPath,
    ['-r', join(ROOT, 'tools/register.js'), join(ROOT, 'dist/tools/scripts/start.js')],
    {
      // eslint-disable-next-line no-restricted-properties -- the child needs PATH
      PATH: process.env.PATH ?? '',
      GATEHOUSE_STANDALONE: '1',
      GATEHOUSE_DATA_DIR: dataDir,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      HOST: '127.0.0.1',
      AUTH_RUNTIME_PORT: '0',
      CONTROL_PLANE_PORT: '0',
      WEBHOOK_WORKER_PORT: '0',
      AUTH_RUNTIME_METRICS_PORT: '0',
      CONTROL_PLANE_METRICS_PORT: '0',
      WEBHOOK_WORKER_METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      BCRYPT_COST: '10',
      TRUST_PROXY: 'loopback',
      PUBLIC_AUTH_URL: 'http://auth.test',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      ...env,
    },
    'ready. Press Ctrl-C',
  );
  const stop = async () => {
    spawned.child.kill('SIGKILL');
    await spawned.exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const [runtime, controlPlane, worker] = [
      ...spawned.out().matchAll(/gatehouse: listening on port (\d+)/g),
    ].map((m) => `http://127.0.0.1:${m[1]}`);
    const consoleKey = (
      JSON.parse(readFileSync(join(dataDir, 'admin.json'), 'utf8')) as { project_key: string }
    ).project_key;
    const admin = await request(runtime)
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', consoleKey)
      .send({ identifier: ADMIN.email, password: ADMIN.password });
    if (admin.status !== 200)
      throw new Error(
        `the bootstrap admin could not sign in: ${admin.status} ${JSON.stringify(admin.body)}`,
      );
    return {
      ...spawned,
      dataDir,
      runtime,
      controlPlane,
      worker,
      consoleKey,
      adminToken: (admin.body as { session: { access_token: string } }).session.access_token,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
