import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';

/** The repository root (this file runs as dist/bench/processes.js). */
export const ROOT = resolve(__dirname, '..', '..');

let clockTicks: number | null = null;

/** `getconf CLK_TCK`, the unit of utime/stime in /proc/<pid>/stat (100 when it cannot be read). */
export function clockTicksPerSecond(): number {
  if (clockTicks !== null) return clockTicks;
  try {
    const v = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    clockTicks = Number.isFinite(v) && v > 0 ? v : 100;
  } catch {
    clockTicks = 100;
  }
  return clockTicks;
}

/** CPU seconds (user + system) a process has used so far, or null when /proc cannot tell. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) may hold spaces and parentheses: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
    return (utime + stime) / clockTicksPerSecond();
  } catch {
    return null;
  }
}

/** CPU seconds of every PostgreSQL process on this machine (the server and its backends), or null. */
export function postgresCpuSeconds(): number | null {
  let total = 0;
  let found = false;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm !== 'postgres') continue;
    } catch {
      continue;
    }
    const s = cpuSeconds(Number(entry));
    if (s === null) continue;
    total += s;
    found = true;
  }
  return found ? total : null;
}

/**
 * The environment of an app started by a bench, as in production: on loopback, errors only in the
 * log, rate limits off (the bench is one client), and mail and SMS to the log (nothing is sent).
 * `extra` adds the app's port, database, cache and whatever the bench needs.
 */
export function productionEnv(
  encryptionKey: string,
  extra: Record<string, string>,
): Record<string, string> {
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    ENCRYPTION_KEY: encryptionKey,
    RATE_LIMITS_ENABLED: 'false',
    LOG_LEVEL: 'error',
    // Production without a mail server or SMS gateway must say so.
    MAIL_TRANSPORT: 'log',
    SMS_TRANSPORT: 'log',
    ...extra,
  };
}

/** A port that was free a moment ago (the child binds it right after). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolvePort(port));
    });
  });
}

export interface Child {
  name: string;
  process: ChildProcess;
  pid: number;
  /** The last lines the child wrote, shown when it fails. */
  output(): string;
}

/** Starts `node -r tools/register.js <script> [args]` with exactly the given environment. */
export function startNode(
  name: string,
  script: string,
  env: Record<string, string>,
  opts: { args?: string[]; preload?: string[]; ipc?: boolean; nodeArgs?: string[] } = {},
): Child {
  const args = [
    ...(opts.nodeArgs ?? []),
    '-r',
    join(ROOT, 'tools/register.js'),
    ...(opts.preload ?? []).flatMap((p) => ['-r', p]),
    join(ROOT, script),
    ...(opts.args ?? []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env,
    stdio: opts.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  if (child.pid === undefined) throw new Error(`${name} could not be started`);
  return { name, process: child, pid: child.pid, output: () => lines.join('\n') };
}

/** Polls `url` until it answers 2xx; fails when the child exits first or the time is up. */
export async function waitReady(url: string, child: Child, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      throw new Error(
        `${child.name} exited during start-up (${child.process.exitCode ?? child.process.signalCode})`,
      );
    }
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${child.name} did not answer ${url} within ${Math.round(timeoutMs / 1000)} s`);
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child has exited. */
export async function stop(child: Child | null, graceMs = 5000): Promise<void> {
  if (!child) return;
  const p = child.process;
  if (p.exitCode !== null || p.signalCode !== null) return;
  const exited = new Promise<void>((r) => p.once('exit', () => r()));
  p.kill('SIGTERM');
  const timer = setTimeout(() => p.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** CPU seconds the whole machine has spent busy (all cores, everything but idle and iowait), from /proc/stat. */
export function machineBusySeconds(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already inside user)
    const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    return Number.isFinite(total) ? (total - idle) / clockTicksPerSecond() : null;
  } catch {
    return null;
  }
}
