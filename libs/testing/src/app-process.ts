import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { testEnvWith } from './test-env';

const ROOT = join(__dirname, '..', '..', '..');

export interface AppProcess {
  child: ChildProcess;
  port: number;
  /** Port of the private metrics listener (0 when metrics are off). */
  metricsPort: number;
  output: () => string;
  /** SIGTERM and wait for the exit code. */
  stop: () => Promise<number | null>;
  /** SIGKILL (a crash) and wait. */
  kill: () => Promise<void>;
}

/**
 * Runs a compiled app (`dist/`, built by the e2e global setup) as a real process with the test
 * environment, for journeys that cross apps (runtime → worker) and for crash and shutdown tests.
 */
export async function spawnApp(
  app: 'auth-runtime' | 'control-plane' | 'webhook-worker',
  env: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<AppProcess> {
  const portVar = {
    'auth-runtime': 'AUTH_RUNTIME_PORT',
    'control-plane': 'CONTROL_PLANE_PORT',
    'webhook-worker': 'WEBHOOK_WORKER_PORT',
  }[app];
  const child = spawn(
    process.execPath,
    ['-r', join(ROOT, 'tools/register.js'), join(ROOT, 'dist/apps', app, 'src/main.js')],
    {
      env: {
        // eslint-disable-next-line no-restricted-properties -- child processes inherit PATH
        PATH: process.env.PATH ?? '',
        ...testEnvWith({
          HOST: '127.0.0.1',
          [portVar]: '0',
          AUTH_RUNTIME_METRICS_PORT: '0',
          CONTROL_PLANE_METRICS_PORT: '0',
          WEBHOOK_WORKER_METRICS_PORT: '0',
          ...env,
        }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${app} did not start:\n${out}`)), timeoutMs);
    const check = () => {
      const m = /gatehouse: listening on port (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${app} exited during start-up:\n${out}`));
    });
  });
  await new Promise((r) => setTimeout(r, 50));
  const metrics = /gatehouse: metrics on port (\d+)/.exec(out);
  return {
    child,
    port,
    metricsPort: metrics ? Number(metrics[1]) : 0,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
