/** Turns a start-up failure into one clear line instead of a stack trace. */
export function describeStartupError(err: unknown): string {
  const e = err as { code?: string; message?: string; errors?: { code?: string }[] };
  const codes = [e?.code, ...(e?.errors?.map((x) => x.code) ?? [])];
  const msg = e?.message ?? String(err);
  if (
    codes.includes('ECONNREFUSED') ||
    /ECONNREFUSED|connect ETIMEDOUT|Connection terminated/.test(msg)
  ) {
    if (/6379|redis/i.test(msg)) return 'Cannot reach Redis: start it or set REDIS_URL.';
    return 'Cannot reach PostgreSQL: start it or set DATABASE_URL.';
  }
  if (/database .* does not exist/.test(msg))
    return 'The database does not exist yet: run `npm run migrate` (or `npm start`, which migrates).';
  if (/EADDRINUSE/.test(msg))
    return `A port is already in use (${msg.replace(/^.*EADDRINUSE:?\s*/, '')}): set AUTH_RUNTIME_PORT, CONTROL_PLANE_PORT or WEBHOOK_WORKER_PORT.`;
  return `Start-up failed: ${msg.split('\n')[0]}`;
}

export function runMain(name: string, main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    process.stderr.write(`[${name}] ${describeStartupError(err)}\n`);
    process.exit(1);
  });
}
