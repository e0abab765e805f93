import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

export { freePorts } from '@gatehouse/testing';

/** Whether something accepts connections on 127.0.0.1:port. */
export function answers(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(500, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Every process below `pid` (children, grandchildren…), from `ps`. */
export function descendants(pid: number): number[] {
  const parentOf = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const below = [pid];
  while (below.length) {
    const parent = below.pop()!;
    for (const [child, ppid] of parentOf) {
      if (ppid !== parent || found.includes(child)) continue;
      found.push(child);
      below.push(child);
    }
  }
  return found;
}

export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Spawned {
  child: ChildProcess;
  /** stdout and stderr so far, in arrival order. */
  out: () => string;
  stdout: () => string;
  exited: Promise<number | null>;
}

/** Spawns a command with its output captured; `ready` (if given) is awaited in the output. */
export async function spawnCaptured(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready?: string,
  timeoutMs = 90_000,
): Promise<Spawned> {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  if (ready) {
    try {
      await until(`"${ready}"`, () => out.includes(ready) || child.exitCode !== null, timeoutMs);
    } catch {
      child.kill('SIGKILL');
    }
    if (!out.includes(ready))
      throw new Error(`${command} ${args.join(' ')} did not print "${ready}":\n${out}`);
  }
  return { child, out: () => out, stdout: () => stdout, exited };
}
