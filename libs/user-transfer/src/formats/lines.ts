import { Readable } from 'node:stream';
import { ndjsonLines } from '../ndjson-lines';

/**
 * One line of our import (docs/api-contract.md §12) made from a vendor's record. `text` is what the import
 * reads; `note`, when given, is why the converter could not make a user of the record: the text is
 * then one the import refuses (so the record is counted and reported under its line number, and
 * the users.imported audit event counts it), and the note replaces the import's generic detail.
 */
export interface ConvertedLine {
  text: string;
  note?: string;
}

/** The members of our line, as converters write them (the import validates them). */
export interface ImportLine {
  email?: unknown;
  email_verified?: boolean;
  /** `disabled` where the old system had the account blocked, banned or disabled (left out when active). */
  status?: 'disabled';
  username?: unknown;
  metadata?: Record<string, unknown>;
  created_at?: unknown;
  external_id?: string;
  password_hash?: unknown;
  totp_secret?: unknown;
  identities?: { provider: string; subject: string; email?: string | null }[];
  phone_number?: string;
}

/**
 * What the operator tells a converter. By default a phone number becomes our SMS second factor
 * only where it was a second factor in the old system (Firebase's `mfaInfo`, Supabase's verified
 * phone factor): a number users signed in with, or that the old system merely verified, would make
 * every sign-in ask for a code the user never had to give. `loginPhones` carries those verified
 * numbers too, as SMS second factors (`users import --login-phones`).
 */
export interface ConvertOptions {
  loginPhones: boolean;
}

export const DEFAULT_CONVERT_OPTIONS: ConvertOptions = { loginPhones: false };

/** A line of our format; members left undefined are left out. */
export function lineOf(line: ImportLine): ConvertedLine {
  return { text: JSON.stringify(line) };
}

/** A record read but not importable (no email, a disabled account…): refused by the import as a line without email. */
export function refused(note: string): ConvertedLine {
  return { text: '{}', note };
}

/** A record that could not be read at all: passed on as a line that is not JSON. */
export function unreadable(note: string): ConvertedLine {
  return { text: '(unreadable record)', note };
}

/** A place kept so the lines after it keep their numbers (the import skips blank lines but counts them). */
export const BLANK: ConvertedLine = { text: '' };

/** A record of an input, or why it could not be read. */
export type SourceRecord = { line: number; value: unknown } | { line: number; error: string };

/** Input lines may be larger than an import line (the converter drops what we do not keep). */
const MAX_SOURCE_LINE_BYTES = 1024 * 1024;

/** The records of an NDJSON input, numbered as the file's lines (a blank line is no record). */
export async function* ndjsonRecords(input: Readable): AsyncGenerator<SourceRecord> {
  for await (const raw of ndjsonLines(input, MAX_SOURCE_LINE_BYTES)) {
    if (raw.tooLong) {
      yield { line: raw.number, error: `The line is longer than ${MAX_SOURCE_LINE_BYTES} bytes.` };
      continue;
    }
    try {
      yield { line: raw.number, value: JSON.parse(raw.text.replace(/^\uFEFF/, '')) as unknown };
    } catch {
      yield { line: raw.number, error: 'The line is not valid JSON.' };
    }
  }
}

/**
 * Converted lines in the numbering of their source: record N (from 1) becomes line N of the output,
 * blank lines filling the gaps (blank or header lines of the source), so the report's line numbers
 * are the source file's (its lines for NDJSON and CSV, the user's position in a JSON array).
 */
export async function* numbered(
  records: AsyncIterable<SourceRecord>,
  convert: (value: unknown) => ConvertedLine,
): AsyncGenerator<ConvertedLine> {
  let emitted = 0;
  for await (const record of records) {
    while (emitted < record.line - 1) {
      emitted += 1;
      yield BLANK;
    }
    emitted += 1;
    yield 'error' in record ? unreadable(record.error) : convertSafely(convert, record.value);
  }
}

function convertSafely(convert: (value: unknown) => ConvertedLine, value: unknown): ConvertedLine {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return unreadable('The record is not a JSON object.');
  return convert(value);
}

/**
 * The first character of a stream that is not white space (a byte-order mark skipped), and the
 * stream again, whole: tells a JSON document (`{`, `[`) from NDJSON or CSV without reading more
 * than its first chunk(s).
 */
export async function sniff(input: Readable): Promise<{ first: string | null; stream: Readable }> {
  const it = (input as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let first: string | null = null;
  let done = false;
  while (first === null) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    head.push(chunk);
    const match = /[^\s\uFEFF]/.exec(Buffer.concat(head).toString('utf8'));
    if (match) first = match[0];
  }
  async function* all(): AsyncGenerator<Buffer> {
    yield* head;
    if (done) return;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    }
  }
  return { first, stream: Readable.from(all(), { objectMode: false }) };
}

/** Our lines as an NDJSON byte stream, what `UserImportService.import` reads. */
export function ndjsonStream(lines: AsyncIterable<ConvertedLine>): Readable {
  async function* bytes(): AsyncGenerator<Buffer> {
    for await (const line of lines) yield Buffer.from(`${line.text.replace(/[\r\n]/g, ' ')}\n`);
  }
  return Readable.from(bytes(), { objectMode: false });
}

// ---- Field helpers shared by the converters ----

/** A non-empty string, trimmed, or undefined. */
export function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A boolean as JSON or as CSV writes it (`true`, `t`, `1`…). */
export function bool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const t = text(value)?.toLowerCase();
  if (t === undefined) return undefined;
  if (['true', 't', '1', 'yes'].includes(t)) return true;
  if (['false', 'f', '0', 'no'].includes(t)) return false;
  return undefined;
}

/**
 * A date as ISO 8601: from milliseconds since the epoch (number or digits), MongoDB's `{"$date"}`,
 * PostgreSQL's text (`2024-01-15 10:30:00.123456+00`) or ISO already. A value it cannot read is
 * passed on as it is, so the import reports it rather than the date being dropped silently.
 */
export function isoDate(value: unknown): unknown {
  if (value && typeof value === 'object' && '$date' in value) return isoDate(value.$date);
  if (typeof value === 'number')
    return Number.isFinite(value) ? new Date(value).toISOString() : String(value);
  const t = text(value);
  if (t === undefined) return undefined;
  if (/^\d{10,14}$/.test(t)) return new Date(Number(t)).toISOString();
  // PostgreSQL: a space for the T, microseconds, and an offset of hours only.
  const pg = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(
    t,
  );
  if (pg) {
    const fraction = pg[3] ? pg[3].slice(0, 4) : '';
    const zone =
      !pg[4] || pg[4] === 'Z'
        ? 'Z'
        : /^[+-]\d{2}$/.test(pg[4])
          ? `${pg[4]}:00`
          : pg[4].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
    const date = new Date(`${pg[1]}T${pg[2]}${fraction}${zone}`);
    if (!Number.isNaN(date.getTime())) return date.toISOString();
  }
  return t;
}

/** A phone number in E.164 (`+` and digits), adding the `+` some systems store without. */
export function e164(value: unknown): string | undefined {
  const t = text(value)?.replace(/[\s().-]/g, '');
  if (t === undefined) return undefined;
  return /^\d{7,15}$/.test(t) ? `+${t}` : t;
}

/** A JSON object given as an object or as JSON text (a CSV cell); anything else is undefined. */
export function jsonObject(value: unknown): Record<string, unknown> | undefined {
  let v = value;
  if (typeof v === 'string') {
    if (v.trim() === '') return undefined;
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      return undefined;
    }
  }
  return v && typeof v === 'object' && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/** An object without its undefined members and empty objects (for metadata). */
export function compact(o: Record<string, unknown>): Record<string, unknown> | undefined {
  const kept = Object.entries(o).filter(
    ([, v]) =>
      v !== undefined &&
      v !== null &&
      !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0),
  );
  return kept.length ? Object.fromEntries(kept) : undefined;
}

/**
 * A social provider's name in ours (the names `identities` and the OAuth routes use): the vendors'
 * names of the same providers mapped to one, any other lowercased to `[a-z0-9_-]`.
 */
export function providerName(vendorName: string): string {
  const n = vendorName.trim().toLowerCase();
  const known: Record<string, string> = {
    'google-oauth2': 'google',
    'google.com': 'google',
    google: 'google',
    github: 'github',
    'github.com': 'github',
    windowslive: 'microsoft',
    'microsoft.com': 'microsoft',
    azure: 'microsoft',
    microsoft: 'microsoft',
    apple: 'apple',
    'apple.com': 'apple',
    // Cognito's names for its built-in providers.
    signinwithapple: 'apple',
    loginwithamazon: 'amazon',
    facebook: 'facebook',
    'facebook.com': 'facebook',
    twitter: 'twitter',
    'twitter.com': 'twitter',
    linkedin: 'linkedin',
    linkedin_oidc: 'linkedin',
  };
  return (
    known[n] ??
    (n
      .replace(/\.com$/, '')
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 64) ||
      'unknown')
  );
}
