import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import request from 'supertest';
import { TEST_ENCRYPTION_KEY } from '@gatehouse/testing';
import { freePorts, ROOT, spawnCaptured, type Spawned } from './processes';

const run = promisify(execFile);

/**
 * `npm run cli` in standalone mode reaches the embedded database `npm start` uses: through the
 * running service's socket, or by opening the data directory itself when the service is stopped.
 * DATABASE_URL names a port where no PostgreSQL answers: standalone must need no server.
 */
describe('CLI in standalone mode: the same embedded database, service running or stopped', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-cli-standalone-'));
  const stateFile = join(dataDir, 'standalone.json');
  let service: Spawned | undefined;
  let runtime: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const [nowhere] = await freePorts(1);
    env = {
      // eslint-disable-next-line no-restricted-properties -- the child needs PATH
      PATH: process.env.PATH ?? '',
      GATEHOUSE_STANDALONE: '1',
      GATEHOUSE_DATA_DIR: dataDir,
      DATABASE_URL: `postgres://postgres@127.0.0.1:${nowhere}/gatehouse`,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      LOG_LEVEL: 'warn',
      BCRYPT_COST: '10',
      HOST: '127.0.0.1',
      AUTH_RUNTIME_PORT: '0',
      CONTROL_PLANE_PORT: '0',
      WEBHOOK_WORKER_PORT: '0',
      AUTH_RUNTIME_METRICS_PORT: '0',
      CONTROL_PLANE_METRICS_PORT: '0',
      WEBHOOK_WORKER_METRICS_PORT: '0',
    };
  });
  afterAll(() => {
    service?.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function cli(...args: string[]): Promise<Record<string, string>> {
    try {
      const { stdout } = await run(
        process.execPath,
        [
          '-r',
          join(ROOT, 'tools/register.js'),
          join(ROOT, 'dist/tools/scripts/cli.js'),
          ...args,
          '--json',
        ],
        { cwd: ROOT, env },
      );
      return JSON.parse(stdout) as Record<string, string>;
    } catch (err) {
      const e = err as { stdout: string; stderr: string; code: number };
      throw new Error(`cli ${args.join(' ')} exited ${e.code}:\n${e.stdout}${e.stderr}`);
    }
  }
  const signIn = (projectKey: string, identifier: string, password: string) =>
    request(runtime)
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', projectKey)
      .send({ identifier, password });

  it('with the service stopped, opens the data directory itself (ignoring the file a killed service left) and leaves it to the service', async () => {
    // What a service killed with SIGKILL leaves behind: its address, a pid that is gone, a port nobody answers on.
    const [closed] = await freePorts(1);
    writeFileSync(stateFile, JSON.stringify({ port: closed, pid: 2 ** 22 + 1 }));
    const created = await cli(
      'tenant',
      'create',
      '--name',
      'Made While Stopped',
      '--admin-email',
      'stopped@example.com',
      '--admin-password',
      'stopped password 1',
    );
    expect(created.project_key).toMatch(/^pk_/);
    expect(existsSync(stateFile)).toBe(false);

    service = await spawnCaptured(
      process.execPath,
      ['-r', join(ROOT, 'tools/register.js'), join(ROOT, 'dist/tools/scripts/start.js')],
      env,
      'ready. Press Ctrl-C',
    );
    runtime = `http://127.0.0.1:${/gatehouse: listening on port (\d+)/.exec(service.out())![1]}`;
    expect(
      (await signIn(created.project_key, 'stopped@example.com', 'stopped password 1')).status,
    ).toBe(200);
  }, 120_000);

  it('with the service running, goes through its socket: the service sees the new tenant at once', async () => {
    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as {
      port: number;
      pid: number;
      password: string;
    };
    expect(state.pid).toBe(service!.child.pid);
    // Another local user reaches the loopback port, not the owner's files: without the password
    // the database refuses them, and the file that holds it is the owner's alone.
    expect(statSync(stateFile).mode & 0o777).toBe(0o600);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    for (const password of [undefined, 'guessed']) {
      const intruder = new Client({
        host: '127.0.0.1',
        port: state.port,
        user: 'postgres',
        database: 'postgres',
        password,
      });
      intruder.on('error', () => undefined);
      await expect(intruder.connect()).rejects.toThrow();
    }
    const owner = new Client({
      host: '127.0.0.1',
      port: state.port,
      user: 'postgres',
      database: 'postgres',
      password: state.password,
    });
    await owner.connect();
    expect((await owner.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await owner.end();
    const boot = await cli(
      'bootstrap',
      '--admin-email',
      'running@example.com',
      '--admin-password',
      'running password 1',
      '--tenant-name',
      'Made While Running',
    );
    expect(
      (await signIn(boot.project_key, 'running@example.com', 'running password 1')).status,
    ).toBe(200);
    const created = await cli(
      'tenant',
      'create',
      '--name',
      'Another',
      '--admin-email',
      'another@example.com',
      '--admin-password',
      'another password 1',
    );
    expect(
      (await signIn(created.project_key, 'another@example.com', 'another password 1')).status,
    ).toBe(200);
    expect(
      (await signIn(created.project_key, 'another@example.com', 'wrong password 1')).status,
    ).toBe(401);
  });

  it('removes its address when the service stops', async () => {
    service!.child.kill('SIGTERM');
    expect(await service!.exited).toBe(0);
    expect(existsSync(stateFile)).toBe(false);
  });
});
