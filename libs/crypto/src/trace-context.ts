import { randomFillSync } from 'node:crypto';

/**
 * Ids for tracing only (never secrets): drawn from a buffer refilled 4 KiB at a time from the CSPRNG,
 * as `crypto.randomUUID` does, instead of one CSPRNG call per id on every request.
 */
const entropy = Buffer.alloc(4096);
let used = entropy.length;
function randomHex(bytes: number): string {
  if (used + bytes > entropy.length) {
    randomFillSync(entropy);
    used = 0;
  }
  used += bytes;
  return entropy.toString('hex', used - bytes, used);
}

/**
 * W3C Trace Context: lower-case hex only; version `ff` is invalid; version 00 has exactly these four
 * fields, a later version may append more after a dash (they are ignored).
 */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** The trace id a `traceparent` carries, or null when it is not a valid one. */
export function readTraceId(traceparent: string | string[] | undefined): string | null {
  const header = Array.isArray(traceparent) ? traceparent[0] : traceparent;
  const m = header ? TRACEPARENT.exec(header.trim()) : null;
  if (
    m &&
    m[1] !== 'ff' &&
    !(m[1] === '00' && m[5] !== undefined) &&
    !/^0+$/.test(m[2]) &&
    !/^0+$/.test(m[3])
  )
    return m[2];
  return null;
}

/** The W3C trace id of a request: taken from a valid `traceparent`, else freshly generated. */
export function traceIdFrom(traceparent: string | string[] | undefined): string {
  return readTraceId(traceparent) ?? randomHex(16);
}

export function newSpanId(): string {
  return randomHex(8);
}

/** Value of the `traceresponse` header: `00-<trace-id>-<span-id>-01`. */
export function traceResponse(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}
