import type { FieldErrors } from '@gatehouse/problem-details';

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

/**
 * The instants a query may name: the years 1970 to 9999 in UTC, half-open. Dates and date-times are
 * written with four-digit years (RFC 3339), and so is every instant sent to PostgreSQL, including
 * the first instant after an inclusive end: `end_date=9999-12-31` would end at 10000-01-01, which
 * no four-digit year can write (and `Date#toISOString` writes as `+010000-…`, which PostgreSQL
 * reads as a bad zone: that was a 500).
 */
const FIRST_MS = Date.UTC(1970, 0, 1);
const LIMIT_MS = Date.UTC(10000, 0, 1);
export const BOUND_MESSAGES = {
  format: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time',
  range: 'must fall in the years 1970 to 9999 (UTC)',
  end: 'must end before the year 10000 (UTC); an end date includes its whole day, so the last one is 9999-12-30',
} as const;

/** One bound of the audit query: an instant for PostgreSQL and its comparison. */
export interface TimeBound {
  /** ISO 8601 instant with an explicit zone, passed to PostgreSQL as timestamptz (keeps microseconds). */
  at: string;
  /** `at` in ms since the epoch (rounded down), to keep every instant inside the accepted years. */
  atMs: number;
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
      ? { at: isoOrEmpty(dayStart), atMs: dayStart, op: '>=', edgeMs: dayStart }
      : {
          at: isoOrEmpty(dayStart + DAY_MS),
          atMs: dayStart + DAY_MS,
          op: '<',
          edgeMs: dayStart + DAY_MS - 1,
        };
  }
  const dt = DATE_TIME.exec(value);
  if (!dt) return null;
  const [y, m, d, hh, mm, ss] = [dt[1], dt[2], dt[3], dt[4], dt[5], dt[6] ?? '00'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
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
  if (side === 'start') return { at, atMs: ms, op: '>=', edgeMs: ms };
  // An end instant is inclusive at the precision it is written in, as a date is for its whole day:
  // `…T06:14:07.015Z` includes an event stored at 06:14:07.015633 (PostgreSQL keeps microseconds,
  // the API shows milliseconds), `…T06:14:07Z` the whole second. So: before the next unit.
  const fraction = (dt[7] ?? '.').slice(1);
  const secondMs = Date.parse(
    `${dt[1]}-${dt[2]}-${dt[3]}T${dt[4]}:${dt[5]}:${dt[6] ?? '00'}${zone}`,
  );
  const wholeUnits = dt[6] === undefined ? 60_000_000 : 10 ** (6 - fraction.length);
  // Microseconds past the second, counted apart from the second itself: microseconds since the
  // epoch exceed 2^53 after the year 2255, where a double no longer holds them exactly.
  const pastSecondUs = Number(fraction.padEnd(6, '0')) + wholeUnits;
  const endMs = secondMs + Math.floor(pastSecondUs / 1000);
  const endIso = isoOrEmpty(endMs).replace('Z', `${String(pastSecondUs % 1000).padStart(3, '0')}Z`);
  return { at: endIso, atMs: endMs, op: '<', edgeMs: ms };
}

/** `toISOString` inside the accepted years; '' outside, where `parseRange` refuses the bound anyway. */
function isoOrEmpty(ms: number): string {
  return ms >= FIRST_MS && ms < LIMIT_MS ? new Date(ms).toISOString() : '';
}

/** What is wrong with a well-formed bound outside the accepted years, or null. */
export function boundRangeProblem(bound: TimeBound, side: 'start' | 'end'): string | null {
  // The instant the bound names (for an end, its last included instant) must be in range, and so
  // must the instant sent to PostgreSQL (for an end, the first one after it).
  if (bound.edgeMs < FIRST_MS || bound.edgeMs >= LIMIT_MS) return BOUND_MESSAGES.range;
  if (bound.atMs < FIRST_MS || bound.atMs >= LIMIT_MS)
    return side === 'end' ? BOUND_MESSAGES.end : BOUND_MESSAGES.range;
  return null;
}

/** Both bounds, with errors for malformed ones and for a start after the end. */
export function parseRange(
  start: string | undefined,
  end: string | undefined,
  errors: FieldErrors,
): { start?: TimeBound; end?: TimeBound } {
  const out: { start?: TimeBound; end?: TimeBound } = {};
  for (const [side, value, field] of [
    ['start', start, 'start_date'],
    ['end', end, 'end_date'],
  ] as const) {
    if (value === undefined) continue;
    const b = parseTimeBound(value, side);
    const problem = b ? boundRangeProblem(b, side) : BOUND_MESSAGES.format;
    if (problem) errors[field] = [problem];
    else out[side] = b!;
  }
  if (out.start && out.end && out.start.edgeMs > out.end.edgeMs)
    errors.end_date = ['must not be before start_date'];
  return out;
}
