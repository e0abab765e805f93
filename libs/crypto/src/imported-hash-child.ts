// The process that verifies imported password hashes (low-priority-verifier.ts forks it from the
// compiled tree). It lowers its own CPU priority first, before Node's thread pool exists: the pool's
// threads, and Argon2's lane threads after them, inherit it, so under load the kernel runs them
// only on CPU time that our own sign-ins and requests leave.
import { setPriority } from 'node:os';
import { verifyPassword, type PasswordScheme } from './passwords';

try {
  setPriority(19);
} catch {
  // Not allowed here: the checks still run, at the normal priority.
}

interface Ask {
  id: number;
  password: string;
  hash: string;
  scheme: PasswordScheme;
}

process.on('message', (ask: Ask) => {
  void verifyPassword(ask.password, ask.hash, ask.scheme)
    .catch(() => false)
    .then((ok) => process.send?.({ id: ask.id, ok }));
});
// The parent went away: nothing is left to answer.
process.on('disconnect', () => process.exit(0));
