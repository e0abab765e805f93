import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..', '..');
export const SDK_PACKAGES = ['server', 'js', 'react', 'admin'] as const;

function run(command: string, args: string[], cwd: string): string {
  const r = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: {
      // eslint-disable-next-line no-restricted-properties -- npm needs the environment it runs in (HOME, PATH, its cache)
      ...process.env,
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    },
  });
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/**
 * Builds the SDK packages (tsup) and packs them as `npm publish` would (`npm pack`: only the
 * files their package.json lists), then installs the tarballs into a new project outside the
 * workspace, with `extra` packages from the registry (or npm's cache), so a file missing from a
 * package or a wrong `exports` map fails here as it would for a user.
 */
export function installPackedSdk(extra: string[]): {
  consumer: string;
  tarballs: Record<string, string>;
  remove: () => void;
} {
  run(process.execPath, [join(ROOT, 'tools/scripts/build-sdk.js')], ROOT);
  const packs = mkdtempSync(join(tmpdir(), 'gatehouse-packs-'));
  const tarballs: Record<string, string> = {};
  for (const name of SDK_PACKAGES) {
    run('npm', ['pack', '--silent', '--pack-destination', packs], join(ROOT, 'packages', name));
  }
  for (const file of readdirSync(packs)) {
    const m = /^gatehouse-(server|js|react|admin)-\d+\.\d+\.\d+\.tgz$/.exec(file);
    if (m) tarballs[m[1]] = join(packs, file);
  }
  const consumer = mkdtempSync(join(tmpdir(), 'gatehouse-consumer-'));
  mkdirSync(consumer, { recursive: true });
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'sdk-consumer', private: true, version: '1.0.0' }, null, 2),
  );
  run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ...Object.values(tarballs),
      ...extra,
    ],
    consumer,
  );
  return {
    consumer,
    tarballs,
    remove: () => [packs, consumer].forEach((dir) => rmSync(dir, { recursive: true, force: true })),
  };
}

/**
 * Runs a Node script in the consumer project and returns its output (rejects with it on failure).
 * Asynchronous: the control plane of the tests runs in this process and must keep answering.
 */
export function nodeIn(
  consumer: string,
  file: string,
  env: Record<string, string> = {},
): Promise<string> {
  return commandIn(consumer, process.execPath, [file], env);
}

/** Runs a program (Node, Bun, Deno…) in the consumer project with PATH and `env` only; resolves with its stdout. */
export function commandIn(
  consumer: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  const child = spawn(command, args, {
    cwd: consumer,
    // eslint-disable-next-line no-restricted-properties -- the program runs with PATH only and what it is given
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${command} ${args.join(' ')} failed (${code}):\n${out}\n${err}`));
    });
  });
}

export interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts a Node server script in the consumer project; resolves once it prints `listening on <url>`. */
export async function startServer(
  consumer: string,
  file: string,
  env: Record<string, string>,
): Promise<Running> {
  const child = spawn(process.execPath, [file], {
    cwd: consumer,
    // eslint-disable-next-line no-restricted-properties -- the server runs with PATH only and what it is given
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} did not start:\n${out}`)), 20_000);
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${file} exited:\n${out}`));
    });
  });
  return {
    child,
    url,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
