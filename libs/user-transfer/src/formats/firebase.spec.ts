import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { firebaseLines } from './firebase';
import type { ConvertedLine } from './lines';

const collect = async (lines: AsyncIterable<ConvertedLine>) => {
  const out: ConvertedLine[] = [];
  for await (const line of lines) out.push(line);
  return out;
};
const json = (line: ConvertedLine) => JSON.parse(line.text) as Record<string, unknown>;
const fromText = (text: string) => collect(firebaseLines(Readable.from([Buffer.from(text)])));

describe('Firebase auth:export → import lines', () => {
  it('maps each user: scrypt hash and salt, createdAt in ms, providers to identities, an SMS second factor’s phone, a disabled user disabled, email-less users refused', async () => {
    const lines = await collect(
      firebaseLines(createReadStream(join(__dirname, 'fixtures', 'firebase-users.json'))),
    );
    expect(lines).toHaveLength(6);
    expect(json(lines[0])).toEqual({
      email: 'user1@example.com',
      email_verified: true,
      metadata: { display_name: 'User One', custom_attributes: { role: 'editor' } },
      created_at: '2024-01-01T00:00:00.000Z',
      external_id: 'user1',
      password_hash: {
        algorithm: 'firebase_scrypt',
        hash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
        salt: '42xEC+ixf3L2lw==',
      },
    });
    expect(json(lines[1])).toMatchObject({
      email: 'grace@example.com',
      metadata: {
        display_name: 'Grace Hopper',
        photo_url: 'https://lh3.googleusercontent.com/a/grace',
      },
      identities: [
        { provider: 'google', subject: '104729385610293847561', email: 'grace@example.com' },
        { provider: 'github', subject: '9001', email: 'grace@users.noreply.github.com' },
      ],
    });
    expect(json(lines[1]).password_hash).toBeUndefined();
    // The phone provider's number (phone sign-in) is no second factor by default.
    expect(json(lines[2])).toMatchObject({ email: 'phone@example.com', email_verified: false });
    expect(json(lines[2]).phone_number).toBeUndefined();
    expect(json(lines[2]).identities).toBeUndefined();
    expect(lines[3].note).toMatch(/pOnly4 has no email address/);
    // Disabled in Firebase: imported disabled.
    expect(lines[4].note).toBeUndefined();
    expect(json(lines[4])).toMatchObject({ status: 'disabled', external_id: 'off5' });
    expect([lines[0], lines[1], lines[2], lines[5]].map((l) => json(l).status)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(json(lines[5]).phone_number).toBe('+14155550199');
  });

  it('carries the phone provider’s number as an SMS factor with loginPhones; an SMS second factor’s number still comes first', async () => {
    const lines = await collect(
      firebaseLines(createReadStream(join(__dirname, 'fixtures', 'firebase-users.json')), {
        loginPhones: true,
      }),
    );
    expect(json(lines[2]).phone_number).toBe('+14155550100');
    expect(json(lines[5]).phone_number).toBe('+14155550199');
    const both = await collect(
      firebaseLines(
        Readable.from([
          Buffer.from(
            JSON.stringify({
              users: [
                {
                  localId: 'b',
                  email: 'b@example.com',
                  phoneNumber: '+14155550111',
                  mfaInfo: [{ phoneInfo: '+14155550122' }],
                },
              ],
            }),
          ),
        ]),
        { loginPhones: true },
      ),
    );
    expect(json(both[0]).phone_number).toBe('+14155550122');
  });

  it('reads the users one by one: a document broken part way gives the users before the break, then one unreadable line', async () => {
    const lines = await fromText(
      '{"users":[{"localId":"a","email":"a@example.com"},{"localId":"b","email":"b@example.com"},{"localId":"c","email":',
    );
    expect(lines.slice(0, 2).map((l) => json(l).external_id)).toEqual(['a', 'b']);
    expect(lines).toHaveLength(3);
    expect(lines[2].note).toMatch(/^The file is not valid JSON after user 2 /);
  });

  it('refuses a file that is not a Firebase export, and reads none of an export without users', async () => {
    expect((await fromText('[{"localId":"a"}]'))[0].note).toMatch(
      /one JSON object \{"users": \[\.\.\.\]\}/,
    );
    expect(await fromText('{"users":[]}')).toEqual([]);
    expect(await fromText('{"kind":"nothing"}')).toEqual([]);
  });

  it('passes a createdAt it cannot read to the import (which reports it) and maps other providers by name', async () => {
    const [line] = await fromText(
      JSON.stringify({
        users: [
          {
            localId: 'x',
            email: 'x@example.com',
            createdAt: 'yesterday',
            providerUserInfo: [
              { providerId: 'apple.com', rawId: '001.abc' },
              { providerId: 'microsoft.com', rawId: 'ms-1' },
              { providerId: 'oidc.my-idp', rawId: 'o-1' },
            ],
          },
        ],
      }),
    );
    expect(json(line).created_at).toBe('yesterday');
    expect((json(line).identities as { provider: string }[]).map((i) => i.provider)).toEqual([
      'apple',
      'microsoft',
      'oidc-my-idp',
    ]);
  });
});
