import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { auth0Lines, fromAuth0 } from './auth0';
import type { ConvertedLine } from './lines';

const fixture = (name: string) => createReadStream(join(__dirname, 'fixtures', name));
const collect = async (lines: AsyncIterable<ConvertedLine>) => {
  const out: ConvertedLine[] = [];
  for await (const line of lines) out.push(line);
  return out;
};
const json = (line: ConvertedLine) => JSON.parse(line.text) as Record<string, unknown>;

describe('Auth0 export → import lines', () => {
  it('maps the bulk export (NDJSON) line by line: the database user with its profile and metadata, social identities normalised, a blocked user disabled, email-less users refused, a broken line unreadable, numbering kept', async () => {
    const lines = await collect(auth0Lines(fixture('auth0-users.ndjson')));
    expect(lines).toHaveLength(8);
    expect(json(lines[0])).toEqual({
      email: 'ada@example.com',
      email_verified: true,
      username: 'ada_l',
      metadata: {
        name: 'Ada Lovelace',
        given_name: 'Ada',
        family_name: 'Lovelace',
        nickname: 'ada',
        picture: 'https://s.gravatar.com/avatar/ada.png',
        user_metadata: { theme: 'dark' },
        app_metadata: { plan: 'pro', roles: ['admin'] },
      },
      created_at: '2021-03-04T10:11:12.345Z',
      external_id: 'auth0|64b0c0ffee0000000000a001',
    });
    // The database identity (provider auth0) is no social identity.
    expect(json(lines[0]).identities).toBeUndefined();
    expect(json(lines[1])).toMatchObject({
      email: 'grace@example.com',
      external_id: 'google-oauth2|104729385610293847561',
      identities: [
        { provider: 'google', subject: '104729385610293847561', email: 'grace@example.com' },
      ],
    });
    // A linked GitHub account (numeric user id) beside the database identity; its own email.
    expect(json(lines[2])).toMatchObject({
      email: 'linus@example.com',
      email_verified: false,
      identities: [
        { provider: 'github', subject: '9001', email: 'linus@users.noreply.github.com' },
      ],
    });
    expect(json(lines[3]).identities).toEqual([
      { provider: 'microsoft', subject: '4d0c0ffee5c0ffee', email: 'bill@example.com' },
    ]);
    // Blocked in Auth0: imported disabled (not refused, and not active).
    expect(lines[4].note).toBeUndefined();
    expect(json(lines[4])).toMatchObject({
      email: 'mallory@example.com',
      status: 'disabled',
      external_id: 'auth0|64b0c0ffee0000000000a005',
    });
    // Users not blocked carry no status (active by default).
    expect(lines.slice(0, 4).map((l) => json(l).status)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    // Line 6 of the file is blank: kept blank, so line 7 (the SMS user) stays line 7.
    expect(lines[5].text).toBe('');
    expect(lines[6].note).toMatch(/sms\|64b0c0ffee0000000000a006 has no email address/);
    expect(lines[7].note).toBe('The line is not valid JSON.');
    expect(() => JSON.parse(lines[7].text)).toThrow();
  });

  it('maps the password hashes export: the user named auth0|<_id> with its bcrypt hash, so it joins the users export by external id', async () => {
    const lines = await collect(auth0Lines(fixture('auth0-password-hashes.ndjson')));
    expect(lines.map(json)).toEqual([
      {
        email: 'ada@example.com',
        email_verified: true,
        external_id: 'auth0|64b0c0ffee0000000000a001',
        password_hash: expect.stringMatching(/^\$2a\$10\$/),
      },
      {
        email: 'linus@example.com',
        email_verified: false,
        external_id: 'auth0|64b0c0ffee0000000000a003',
        password_hash: expect.stringMatching(/^\$2a\$10\$/),
      },
    ]);
  });

  it('reads a JSON array (the Import / Export extension) element by element, and one file whose lines carry the hash (passwordHash or password_hash); a verified phone only with loginPhones', async () => {
    const users = [
      { user_id: 'auth0|1', email: 'a@example.com', passwordHash: '$2b$10$abc' },
      {
        user_id: 'auth0|2',
        email: 'b@example.com',
        password_hash: '$2a$10$def',
        phone_number: '+14155550100',
        phone_verified: true,
      },
      {
        user_id: 'auth0|3',
        email: 'c@example.com',
        phone_number: '+14155550101',
        phone_verified: false,
      },
      42,
    ];
    const lines = await collect(
      auth0Lines(Readable.from([Buffer.from(`  ${JSON.stringify(users, null, 2)}`)])),
    );
    expect(json(lines[0])).toMatchObject({ external_id: 'auth0|1', password_hash: '$2b$10$abc' });
    expect(json(lines[1])).toMatchObject({ password_hash: '$2a$10$def' });
    // A profile or passwordless phone is no second factor by default.
    expect(json(lines[1]).phone_number).toBeUndefined();
    expect(lines[3].note).toBe('The record is not a JSON object.');
    const loginPhones = await collect(
      auth0Lines(Readable.from([Buffer.from(JSON.stringify(users))]), { loginPhones: true }),
    );
    expect(json(loginPhones[1]).phone_number).toBe('+14155550100');
    // An unverified phone is never made a second factor.
    expect(json(loginPhones[2]).phone_number).toBeUndefined();
  });

  it('derives the social identity from a social user_id when the export did not ask for identities', () => {
    expect(
      json(fromAuth0({ user_id: 'apple|001234.abcd', email: 'x@example.com' })).identities,
    ).toEqual([{ provider: 'apple', subject: '001234.abcd', email: 'x@example.com' }]);
    expect(
      json(fromAuth0({ user_id: 'auth0|abc', email: 'x@example.com' })).identities,
    ).toBeUndefined();
    expect(
      json(
        fromAuth0({
          user_id: 'oauth2|my-idp|77',
          email: 'x@example.com',
          identities: [{ provider: 'oauth2', connection: 'My-IdP', user_id: 'my-idp|77' }],
        }),
      ).identities,
    ).toEqual([{ provider: 'my-idp', subject: 'my-idp|77', email: 'x@example.com' }]);
  });

  it('carries Auth0 blocked as status disabled, blocked: false (or absent) as no status', () => {
    expect(json(fromAuth0({ user_id: 'auth0|b', email: 'b@example.com', blocked: true }))).toEqual({
      email: 'b@example.com',
      status: 'disabled',
      external_id: 'auth0|b',
    });
    expect(
      json(fromAuth0({ user_id: 'auth0|c', email: 'c@example.com', blocked: false })).status,
    ).toBeUndefined();
  });
});
