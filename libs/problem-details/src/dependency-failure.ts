const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'NR_CLOSED',
]);
const MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Query read timeout/i,
  /connection error and is not queryable/i,
  /Connection is closed/i,
  /Stream isn't writeable/i,
  /Command timed out/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

/**
 * True for errors that mean PostgreSQL or Redis could not be reached (refused, reset, timed out,
 * shutting down): those become 503 `service-unavailable`, never a 500, and never a pass.
 */
export function isDependencyFailure(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 3) return false;
  const e = err as {
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
    errors?: unknown[];
  };
  if (
    typeof e.code === 'string' &&
    (NETWORK_CODES.has(e.code) || /^08/.test(e.code) || /^57P0[123]$/.test(e.code))
  )
    return true;
  if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string)))
    return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDependencyFailure(x, depth + 1)))
    return true;
  return isDependencyFailure(e.driverError, depth + 1) || isDependencyFailure(e.cause, depth + 1);
}

/**
 * PostgreSQL refusing a value (invalid text representation such as a malformed uuid, a character
 * not in the encoding such as NUL, a string too long, a number out of range, a date or time zone
 * it cannot read). Inputs are validated before they reach SQL; this is the safety net that keeps a
 * missed case a 400, never a 500.
 */
export function isRejectedInput(err: unknown): boolean {
  const e = err as { driverError?: { code?: unknown }; code?: unknown } | null;
  const code = e?.driverError?.code ?? e?.code;
  return (
    typeof code === 'string' &&
    ['22P02', '22021', '22001', '22003', '22007', '22008', '22009'].includes(code)
  );
}
