import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DEFAULT_CONVERT_OPTIONS, type ConvertedLine } from './lines';
import { fromSupabase, supabaseLines } from './supabase';

const NOW = new Date('2025-01-01T00:00:00Z');
const collect = async (lines: AsyncIterable<ConvertedLine>) => {
  const out: ConvertedLine[] = [];
  for await (const line of lines) out.push(line);
  return out;
};
const json = (line: ConvertedLine) => JSON.parse(line.text) as Record<string, unknown>;
const fixture = (name: string) => createReadStream(join(__dirname, 'fixtures', name));

describe('Supabase auth.users → import lines', () => {
  it('maps the psql CSV export (header line kept blank, so line numbers are the file’s): bcrypt hash, confirmation as verification, metadata, PostgreSQL timestamps; deleted and phone-only users refused', async () => {
    const lines = await collect(
      supabaseLines(fixture('supabase-users.csv'), DEFAULT_CONVERT_OPTIONS, NOW),
    );
    expect(lines).toHaveLength(7);
    expect(lines[0].text).toBe('');
    expect(json(lines[1])).toEqual({
      email: 'ada@example.com',
      email_verified: true,
      metadata: { full_name: 'Ada Lovelace', plan: 'pro' },
      created_at: '2024-01-15T10:29:58.654Z',
      external_id: '6f1c1d7e-0000-4000-8000-000000000001',
      password_hash: '$2a$10$VpVxYQ/kuEDjO4IR8Ab9PeyEK1rG9KbW4MXGyhl7hg.yJJ1CigQpe',
    });
    expect(json(lines[2])).toMatchObject({
      email: 'new@example.com',
      email_verified: false,
      created_at: '2024-02-01T08:00:00.000Z',
    });
    expect(json(lines[2]).metadata).toBeUndefined();
    // A confirmed sign-in phone is no second factor unless asked for.
    expect(json(lines[3]).phone_number).toBeUndefined();
    expect(lines[4].note).toMatch(/000000000004 has no email address/);
    expect(lines[5].note).toMatch(/deleted in Supabase/);
    // Signed up with Google: no password hash, the provider's metadata kept.
    expect(json(lines[6])).toMatchObject({
      email: 'oauth@example.com',
      email_verified: true,
      metadata: { sub: '104729385610293847561', name: 'O Auth' },
    });
    expect(json(lines[6]).password_hash).toBeUndefined();
  });

  it('maps NDJSON rows (row_to_json) with their auth.identities: social ones linked by provider_id, the email identity not', async () => {
    const lines = await collect(
      supabaseLines(fixture('supabase-users.ndjson'), DEFAULT_CONVERT_OPTIONS, NOW),
    );
    expect(json(lines[0])).toMatchObject({
      email: 'oauth@example.com',
      created_at: '2024-05-01T00:00:00.500Z',
      identities: [
        { provider: 'google', subject: '104729385610293847561', email: 'oauth@example.com' },
        { provider: 'github', subject: '9001', email: 'oauth@users.noreply.github.com' },
      ],
    });
    // Banned until a time still to come: imported disabled.
    expect(lines[1].note).toBeUndefined();
    expect(json(lines[1])).toMatchObject({ status: 'disabled' });
    expect(json(lines[0]).status).toBeUndefined();
  });

  it('reads identities given as JSON text (a CSV cell) and identity_data.sub where provider_id is missing; a ban in the past is no ban', () => {
    const line = fromSupabase(
      {
        id: 'u',
        email: 'u@example.com',
        banned_until: '2020-01-01 00:00:00+00',
        identities: JSON.stringify([{ provider: 'azure', identity_data: { sub: 'ms-1' } }]),
      },
      DEFAULT_CONVERT_OPTIONS,
      NOW,
    );
    expect(json(line).identities).toEqual([
      { provider: 'microsoft', subject: 'ms-1', email: 'u@example.com' },
    ]);
    expect(json(line).status).toBeUndefined();
    // A ban that has not ended yet (PostgreSQL's text, as in a CSV cell): disabled; a deleted user is still refused.
    expect(
      json(
        fromSupabase(
          { id: 'b', email: 'b@example.com', banned_until: '2999-01-01 00:00:00+00' },
          DEFAULT_CONVERT_OPTIONS,
          NOW,
        ),
      ),
    ).toMatchObject({ email: 'b@example.com', status: 'disabled' });
    expect(
      fromSupabase(
        { id: 'd', email: 'd@example.com', deleted_at: '2024-01-01 00:00:00+00' },
        DEFAULT_CONVERT_OPTIONS,
        NOW,
      ).note,
    ).toMatch(/deleted in Supabase/);
  });

  it('keeps MFA: a verified phone factor as the SMS factor, a base32 TOTP secret; the sign-in phone only with loginPhones; an encrypted TOTP secret refuses the user', async () => {
    const loginPhones = await collect(
      supabaseLines(fixture('supabase-users.csv'), { loginPhones: true }, NOW),
    );
    // Supabase stores the number without its +.
    expect(json(loginPhones[3]).phone_number).toBe('+14155550100');
    const row = {
      id: 'u',
      email: 'u@example.com',
      phone: '14155550100',
      phone_confirmed_at: '2024-01-01 00:00:00+00',
    };
    expect(
      json(
        fromSupabase(
          { ...row, mfa_phone: '14155550177', mfa_totp_secret: 'JBSWY3DPEHPK3PXP' },
          DEFAULT_CONVERT_OPTIONS,
          NOW,
        ),
      ),
    ).toMatchObject({ phone_number: '+14155550177', totp_secret: 'JBSWY3DPEHPK3PXP' });
    expect(
      json(fromSupabase({ ...row, mfa_phone: '14155550177' }, { loginPhones: true }, NOW))
        .phone_number,
    ).toBe('+14155550177');
    expect(json(fromSupabase(row, { loginPhones: true }, NOW)).phone_number).toBe('+14155550100');
    expect(
      json(fromSupabase({ ...row, phone_confirmed_at: '' }, { loginPhones: true }, NOW))
        .phone_number,
    ).toBeUndefined();
    const encrypted = JSON.stringify({
      key_id: 'k1',
      alg: 'aes-gcm-hkdf',
      nonce: 'bm9uY2U=',
      data: 'ZGF0YQ==',
    });
    expect(
      fromSupabase({ ...row, mfa_totp_secret: encrypted }, DEFAULT_CONVERT_OPTIONS, NOW).note,
    ).toMatch(/TOTP factor whose secret Supabase stored encrypted/);
  });

  it('reports a CSV record it cannot read at its line, after the records before it', async () => {
    const csv = 'id,email,encrypted_password\n1,a@example.com,\n2,"b@exa"mple.com,\n';
    const lines = await collect(
      supabaseLines(Readable.from([Buffer.from(csv)]), DEFAULT_CONVERT_OPTIONS, NOW),
    );
    expect(lines).toHaveLength(3);
    expect(json(lines[1]).email).toBe('a@example.com');
    expect(lines[2].note).toMatch(/^The CSV record could not be read: Invalid Closing Quote/);
  });
});
