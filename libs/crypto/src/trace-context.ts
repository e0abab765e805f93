import { randomBytes } from 'node:crypto';

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C trace id of a request: taken from a valid `traceparent`, else freshly generated. */
export function traceIdFrom(traceparent: string | string[] | undefined): string {
  const header = Array.isArray(traceparent) ? traceparent[0] : traceparent;
  const m = header ? TRACEPARENT.exec(header.trim().toLowerCase()) : null;
  if (m && m[1] !== 'ff' && !/^0+$/.test(m[2]) && !/^0+$/.test(m[3])) return m[2];
  return randomBytes(16).toString('hex');
}

export function newSpanId(): string {
  return randomBytes(8).toString('hex');
}

/** Value of the `traceresponse` header: `00-<trace-id>-<span-id>-01`. */
export function traceResponse(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}
