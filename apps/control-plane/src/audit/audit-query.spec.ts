import { BOUND_MESSAGES, parseRange, parseTimeBound } from './audit-query';

describe('parseTimeBound', () => {
  it('takes a whole UTC day for dates, the end day included', () => {
    expect(parseTimeBound('2025-03-01', 'start')).toEqual({
      at: '2025-03-01T00:00:00.000Z',
      atMs: Date.UTC(2025, 2, 1),
      op: '>=',
      edgeMs: Date.UTC(2025, 2, 1),
    });
    expect(parseTimeBound('2025-02-28', 'end')).toEqual({
      at: '2025-03-01T00:00:00.000Z',
      atMs: Date.UTC(2025, 2, 1),
      op: '<',
      edgeMs: Date.UTC(2025, 2, 1) - 1,
    });
    expect(parseTimeBound('2024-12-31', 'end')?.at).toBe('2025-01-01T00:00:00.000Z');
  });

  it('takes ISO 8601 instants, UTC when no zone is given, end inclusive', () => {
    expect(parseTimeBound('2025-03-01T10:20:30Z', 'start')).toEqual({
      at: '2025-03-01T10:20:30Z',
      atMs: Date.UTC(2025, 2, 1, 10, 20, 30),
      op: '>=',
      edgeMs: Date.UTC(2025, 2, 1, 10, 20, 30),
    });
    expect(parseTimeBound('2025-03-01T10:20:30.123456+0200', 'end')).toEqual({
      at: '2025-03-01T08:20:30.123457Z',
      atMs: Date.UTC(2025, 2, 1, 8, 20, 30, 123),
      op: '<',
      edgeMs: Date.UTC(2025, 2, 1, 8, 20, 30, 123),
    });
    // Inclusive at the precision written: the whole millisecond, second or minute.
    expect(parseTimeBound('2026-11-22T06:14:07.015Z', 'end')?.at).toBe(
      '2026-11-22T06:14:07.016000Z',
    );
    expect(parseTimeBound('2026-11-22T06:14:07.9Z', 'end')?.at).toBe('2026-11-22T06:14:08.000000Z');
    expect(parseTimeBound('2026-11-22T23:59:59Z', 'end')?.at).toBe('2026-11-23T00:00:00.000000Z');
    expect(parseTimeBound('2026-11-22T06:14', 'end')?.at).toBe('2026-11-22T06:15:00.000000Z');
    expect(parseTimeBound('2025-03-01T10:20', 'start')?.at).toBe('2025-03-01T10:20:00Z');
  });

  it.each([
    '2025-02-30',
    '2025-13-01',
    '25-01-01',
    '2025-1-1',
    '2025-01-01T24:00:00Z',
    '2025-01-01T10:00:00+25:00',
    'yesterday',
    '',
    '1700000000',
    "2025-01-01' OR 1=1",
    '2025-01-01T00:00:00.1234567Z',
  ])('refuses %j', (v) => expect(parseTimeBound(v, 'start')).toBeNull());
});

describe('parseRange', () => {
  it('keeps every instant in the years 1970 to 9999 (UTC), an end date included up to 9999-12-30', () => {
    const range = (start?: string, end?: string) => {
      const errors: Record<string, string[]> = {};
      const out = parseRange(start, end, errors);
      return { errors, start: out.start?.at, end: out.end?.at };
    };
    expect(range('1970-01-01', '9999-12-30')).toEqual({
      errors: {},
      start: '1970-01-01T00:00:00.000Z',
      end: '9999-12-31T00:00:00.000Z',
    });
    expect(range(undefined, '9999-12-31')).toEqual({
      errors: { end_date: [BOUND_MESSAGES.end] },
      start: undefined,
      end: undefined,
    });
    expect(range(undefined, '9999-12-31T23:59:59.999998Z').end).toBe('9999-12-31T23:59:59.999999Z');
    expect(range(undefined, '9999-12-31T23:59:59.999999Z').errors).toEqual({
      end_date: [BOUND_MESSAGES.end],
    });
    expect(range('9999-12-31T23:59:59.999Z').start).toBe('9999-12-31T23:59:59.999Z');
    expect(range('9999-12-31T19:00:00-05:00').errors).toEqual({
      start_date: [BOUND_MESSAGES.range],
    });
    expect(range('1970-01-01T00:00:00+00:01', '1970-01-01T00:00:00+00:01').errors).toEqual({
      start_date: [BOUND_MESSAGES.range],
      end_date: [BOUND_MESSAGES.range],
    });
    expect(range('1969-12-31').errors).toEqual({ start_date: [BOUND_MESSAGES.format] });
    // Microsecond arithmetic stays exact past 2^53 microseconds since the epoch (year 2255).
    expect(range(undefined, '9000-06-01T12:00:00.000001Z').end).toBe('9000-06-01T12:00:00.000002Z');
  });

  it('accepts a one-day range and refuses an end before the start', () => {
    const ok = {};
    expect(parseRange('2025-03-01', '2025-03-01', ok).end?.at).toBe('2025-03-02T00:00:00.000Z');
    expect(ok).toEqual({});
    const bad: Record<string, string[]> = {};
    parseRange('2025-03-02', '2025-03-01', bad);
    expect(bad).toEqual({ end_date: ['must not be before start_date'] });
  });
});
