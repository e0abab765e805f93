import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { verifyPassword, type PasswordScheme } from './passwords';

const CHILD = join(__dirname, 'imported-hash-child.js');

interface Pending {
  resolve: (ok: boolean) => void;
  password: string;
  hash: string;
  scheme: PasswordScheme;
}

/**
 * Verifies imported password hashes in a child process at the lowest CPU priority (nice 19,
 * imported-hash-child.ts), so that a project's expensive imported hashes run on the CPU time our
 * own sign-ins leave rather than sharing the cores with them. The child is forked on first use and
 * again after it exits; a check it could not answer (it died) runs here instead. The password goes
 * to the child over the IPC pipe, on the same machine, and is never written anywhere.
 */
export class LowPriorityVerifier {
  private child: ChildProcess | null = null;
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  private paused = false;

  /**
   * Stops the child (SIGSTOP) while our own hashes run, and lets it go on (SIGCONT) when none do.
   * nice 19 alone still let it run on the second hardware thread of a core our bcrypt was using,
   * and a core's two threads share its execution units: another project's sign-ins lost about a
   * third of their throughput (docs/performance.md). Stopped, it takes no cycles at all while ours
   * run; its checks then take longer, bounded by the caller's deadline.
   */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.child?.kill('SIGCONT');
  }

  verify(password: string, hash: string, scheme: PasswordScheme): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const child = this.child ?? this.start();
      const id = this.next++;
      this.pending.set(id, { resolve, password, hash, scheme });
      child.channel?.ref();
      child.send({ id, password, hash, scheme }, (err) => {
        if (err) this.fallBack(id);
      });
    });
  }

  private start(): ChildProcess {
    // The parent's flags (`-r tools/register.js` in production) and nothing else.
    const child = fork(CHILD, [], {
      execArgv: process.execArgv,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'json',
    });
    child.on('message', (m: { id: number; ok: boolean }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      p.resolve(m.ok === true);
      if (this.pending.size === 0) child.channel?.unref();
    });
    child.on('exit', () => {
      if (this.child === child) this.child = null;
      for (const id of [...this.pending.keys()]) this.fallBack(id);
    });
    child.on('error', () => child.kill());
    if (this.paused) child.kill('SIGSTOP');
    // A stopped child would outlive this process (and keep its stderr open): let it go on as this
    // process exits, so it sees the IPC channel close and exits too.
    const wake = () => {
      if (this.paused) child.kill('SIGCONT');
    };
    process.once('exit', wake);
    child.once('exit', () => process.off('exit', wake));
    // Never what keeps the parent alive.
    child.unref();
    child.channel?.unref();
    this.child = child;
    return child;
  }

  private fallBack(id: number): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    void verifyPassword(p.password, p.hash, p.scheme)
      .catch(() => false)
      .then(p.resolve);
  }
}

/** The verifier where the compiled child exists (dist/, production); null under ts-jest (checks run in process). */
export function lowPriorityVerifier(): LowPriorityVerifier | null {
  return existsSync(CHILD) ? new LowPriorityVerifier() : null;
}
