import type { FieldErrors } from '@gatehouse/problem-details';

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

/** One bound of the audit query: an instant for PostgreSQL and its comparison. */
export interface TimeBound {
  /** ISO 8601 instant with an explicit zone, passed to PostgreSQL as timestamptz (keeps microseconds). */
  at: string;
  op: '>=' | '<' | '<=';
  /** The earliest (start) or latest (end) instant the bound lets through, in ms, to check start ≤ end. */
  edgeMs: number;
}

function validDate(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d && y >= 1970;
}

/**
 * `YYYY-MM-DD` (a whole UTC day; as end bound the day is included) or an ISO 8601 date-time
 * (without a zone it is UTC; as end bound it is included at its own precision: the whole
 * millisecond, second or minute it names). Null when malformed.
 */
export function parseTimeBound(value: string, side: 'start' | 'end'): TimeBound | null {
  const date = DATE.exec(value);
  if (date) {
    const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
    if (!validDate(y, m, d)) return null;
    const dayStart = Date.UTC(y, m - 1, d);
    return side === 'start'
      ? { at: new Date(dayStart).toISOString(), op: '>=', edgeMs: dayStart }
      : { at: new Date(dayStart + DAY_MS).toISOString(), op: '<', edgeMs: dayStart + DAY_MS - 1 };
  }
  const dt = DATE_TIME.exec(value);
  if (!dt) return null;
  const [y, m, d, hh, mm, ss] = [dt[1], dt[2], dt[3], dt[4], dt[5], dt[6] ?? '00'].map(Number) as [number, number, number, number, number, number];
  if (!validDate(y, m, d) || hh > 23 || mm > 59 || ss > 59) return null;
  let zone = dt[8] ?? 'Z';
  if (zone !== 'Z' && zone !== 'z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(-2));
    if (oh > 23 || om > 59) return null;
    zone = `${zone[0]}${zone.slice(1, 3)}:${zone.slice(-2)}`;
  } else zone = 'Z';
  const at = `${dt[1]}-${dt[2]}-${dt[3]}T${dt[4]}:${dt[5]}:${dt[6] ?? '00'}${dt[7] ?? ''}${zone}`;
  const ms = Date.parse(at);
  if (Number.isNaN(ms)) return null;
  if (side === 'start') return { at, op: '>=', edgeMs: ms };
  // An end instant is inclusive at the precision it is written in, as a date is for its whole day:
  // `…T06:14:07.015Z` includes an event stored at 06:14:07.015633 (PostgreSQL keeps microseconds,
  // the API shows milliseconds), `…T06:14:07Z` the whole second. So: before the next unit.
  const fraction = (dt[7] ?? '.').slice(1);
  const secondMs = Date.parse(`${dt[1]}-${dt[2]}-${dt[3]}T${dt[4]}:${dt[5]}:${dt[6] ?? '00'}${zone}`);
  const wholeUnits = dt[6] === undefined ? 60_000_000 : 10 ** (6 - fraction.length);
  const endUs = secondMs * 1000 + Number(fraction.padEnd(6, '0')) + wholeUnits;
  const endIso = new Date(Math.floor(endUs / 1000)).toISOString().replace('Z', `${String(endUs % 1000).padStart(3, '0')}Z`);
  return { at: endIso, op: '<', edgeMs: ms };
}

/** Both bounds, with errors for malformed ones and for a start after the end. */
export function parseRange(start: string | undefined, end: string | undefined, errors: FieldErrors): { start?: TimeBound; end?: TimeBound } {
  const out: { start?: TimeBound; end?: TimeBound } = {};
  const message = 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time';
  if (start !== undefined) {
    const b = parseTimeBound(start, 'start');
    if (b) out.start = b;
    else errors.start_date = [message];
  }
  if (end !== undefined) {
    const b = parseTimeBound(end, 'end');
    if (b) out.end = b;
    else errors.end_date = [message];
  }
  if (out.start && out.end && out.start.edgeMs > out.end.edgeMs) errors.end_date = ['must not be before start_date'];
  return out;
}
