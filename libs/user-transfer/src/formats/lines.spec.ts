import { Readable } from 'node:stream';
import { ndjsonLines } from '../ndjson-lines';
import { e164, isoDate, ndjsonStream, providerName, sniff } from './lines';
import { supabaseLines } from './supabase';

describe('converter helpers', () => {
  it('reads dates from milliseconds, MongoDB, PostgreSQL and ISO, and passes on what it cannot read', () => {
    expect(isoDate('1704067200000')).toBe('2024-01-01T00:00:00.000Z');
    expect(isoDate(1704067200000)).toBe('2024-01-01T00:00:00.000Z');
    expect(isoDate({ $date: '2024-01-01T00:00:00.000Z' })).toBe('2024-01-01T00:00:00.000Z');
    expect(isoDate('2024-01-15 10:30:00.123456+00')).toBe('2024-01-15T10:30:00.123Z');
    expect(isoDate('2024-01-15T12:30:00+02:00')).toBe('2024-01-15T10:30:00.000Z');
    expect(isoDate('2024-01-15 10:30:00-0130')).toBe('2024-01-15T12:00:00.000Z');
    expect(isoDate('')).toBeUndefined();
    expect(isoDate('soon')).toBe('soon');
  });

  it('writes phone numbers in E.164 and provider names in ours', () => {
    expect(e164('14155550100')).toBe('+14155550100');
    expect(e164('+1 (415) 555-0100')).toBe('+14155550100');
    expect(e164('call me')).toBe('callme');
    expect(
      [
        'google-oauth2',
        'google.com',
        'windowslive',
        'azure',
        'apple.com',
        'GitHub',
        'linkedin_oidc',
        'oidc.Corp SSO',
      ].map(providerName),
    ).toEqual([
      'google',
      'google',
      'microsoft',
      'microsoft',
      'apple',
      'github',
      'linkedin',
      'oidc-corp-sso',
    ]);
  });

  it('sniffs the first character past white space and a byte-order mark, and gives the stream back whole', async () => {
    const { first, stream } = await sniff(
      Readable.from([Buffer.from('\uFEFF  \n'), Buffer.from('{"users":[]}')]),
    );
    expect(first).toBe('{');
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('\uFEFF  \n{"users":[]}');
    expect((await sniff(Readable.from([]))).first).toBeNull();
  });

  it('keeps the source’s line numbers through to the import’s reader (blank places included)', async () => {
    const csv = 'id,email\n\n1,a@example.com\n2,\n';
    const read: { number: number; text: string }[] = [];
    for await (const line of ndjsonLines(
      ndjsonStream(supabaseLines(Readable.from([Buffer.from(csv)]))),
      65536,
    ))
      read.push({ number: line.number, text: line.text });
    expect(read).toEqual([
      { number: 3, text: '{"email":"a@example.com","email_verified":false,"external_id":"1"}' },
      { number: 4, text: '{}' },
    ]);
  });
});
