import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { clerkLines, fromClerk } from './clerk';
import type { ConvertedLine } from './lines';

const collect = async (lines: AsyncIterable<ConvertedLine>) => {
  const out: ConvertedLine[] = [];
  for await (const line of lines) out.push(line);
  return out;
};
const json = (line: ConvertedLine) => JSON.parse(line.text) as Record<string, unknown>;

describe('Clerk CSV export → import lines', () => {
  it('maps each row: bcrypt digest, Argon2 PHC digest, TOTP secret, names, verified email, no phone by default; unsupported hashers and email-less users refused; a broken row and what it swallowed reported at their lines', async () => {
    const lines = await collect(
      clerkLines(createReadStream(join(__dirname, 'fixtures', 'clerk-users.csv'))),
    );
    expect(lines).toHaveLength(8);
    expect(lines[0].text).toBe('');
    expect(json(lines[1])).toEqual({
      email: 'jane@example.com',
      email_verified: true,
      username: 'janedoe',
      metadata: { first_name: 'Jane', last_name: 'Doe' },
      external_id: 'user_2YDryYFVMM1W1plDDKz7Gzf4we6',
      password_hash: '$2b$10$6DL3wN8YzwgPsdVMwWt9wufp9.k7UknJM8HE9ctp0E1tUSfH0m0h.',
      totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    });
    // Unverified email: not verified here.
    expect(json(lines[2])).toMatchObject({
      email: 'john@example.com',
      email_verified: false,
      password_hash: expect.stringMatching(/^\$argon2id\$v=19\$/),
    });
    expect(json(lines[3])).toMatchObject({ email: 'social@example.com', email_verified: true });
    expect(json(lines[3]).password_hash).toBeUndefined();
    expect(lines[4].note).toMatch(/Clerk's md5 hasher, which Gatehouse does not import/);
    expect(lines[5].note).toMatch(/user_2dA1B2C3D4E5F6G7H8I9J0K1L2M has no email address/);
    expect(lines[6].note).toMatch(
      /^The CSV record could not be read: Invalid Closing Quote: got "k" at line 7/,
    );
    expect(lines[7].note).toMatch(/^The CSV record could not be read: Quote Not Closed/);
  });

  it('makes the verified primary phone an SMS factor only with loginPhones, an unverified one never', async () => {
    const lines = await collect(
      clerkLines(createReadStream(join(__dirname, 'fixtures', 'clerk-users.csv')), {
        loginPhones: true,
      }),
    );
    expect(json(lines[1]).phone_number).toBe('+14155550142');
    expect(json(lines[2]).phone_number).toBeUndefined();
  });

  it('reports every line a broken record swallowed before the parser found its feet again', async () => {
    const csv =
      'id,primary_email_address\na,a@example.com\nb,"b"x\nc,c@example.com\nd,d@example.com\ne,"e\nf,f@example.com\n';
    const lines = await collect(clerkLines(Readable.from([Buffer.from(csv)])));
    expect(
      lines.map((l) => (l.note ? 'unreadable' : l.text === '' ? 'blank' : json(l).email)),
    ).toEqual([
      'blank',
      'a@example.com',
      'unreadable',
      'unreadable',
      'unreadable',
      'unreadable',
      'unreadable',
    ]);
    expect(lines[3].note).toBe(
      'The line was read as part of the unreadable CSV record before it (line 3).',
    );
  });

  it('takes the first verified address when the primary one is missing, and milliseconds or ISO for created_at', () => {
    expect(
      json(
        fromClerk({
          id: 'u',
          verified_email_addresses: 'x@example.com|y@example.com',
          created_at: '1704067200000',
        }),
      ),
    ).toMatchObject({
      email: 'x@example.com',
      email_verified: true,
      created_at: '2024-01-01T00:00:00.000Z',
    });
    expect(
      json(
        fromClerk({
          id: 'u',
          primary_email_address: 'z@example.com',
          password_digest: 'pbkdf2_sha256$600000$salt$aGFzaA==',
          password_hasher: 'pbkdf2_sha256_django',
        }),
      ).password_hash,
    ).toBe('pbkdf2_sha256$600000$salt$aGFzaA==');
  });

  it('carries banned or locked (columns some exports have) as status disabled; their absence or false as no status', () => {
    const status = (extra: Record<string, unknown>) =>
      json(fromClerk({ id: 'u', primary_email_address: 'u@example.com', ...extra })).status;
    expect([
      status({ banned: 'true' }),
      status({ locked: 'true' }),
      status({ banned: true, locked: false }),
    ]).toEqual(['disabled', 'disabled', 'disabled']);
    expect([status({ banned: 'false', locked: 'false' }), status({})]).toEqual([
      undefined,
      undefined,
    ]);
  });
});
