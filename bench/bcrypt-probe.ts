import { createRequire } from 'node:module';

/**
 * Preloaded (`node -r dist/bench/bcrypt-probe.js`) into the auth runtime for the hot-path check
 * only: wraps bcrypt's entry points with counters before any Gatehouse code loads, and answers the
 * parent's `bcrypt-calls` IPC message with the counts so far. Never loaded in a measured run.
 */
const bcrypt = createRequire(__filename)('bcrypt') as Record<string, unknown>;
const calls: Record<string, number> = {};

for (const name of ['compare', 'compareSync', 'hash', 'hashSync']) {
  const original = bcrypt[name];
  if (typeof original !== 'function') continue;
  calls[name] = 0;
  bcrypt[name] = function counted(this: unknown, ...args: unknown[]): unknown {
    calls[name] = (calls[name] ?? 0) + 1;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
}

process.on('message', (message: unknown) => {
  if (message === 'bcrypt-calls') process.send?.({ bcryptCalls: { ...calls } });
});
