import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { cognitoLines, fromCognito } from './cognito';
import type { ConvertedLine } from './lines';

const collect = async (lines: AsyncIterable<ConvertedLine>) => {
  const out: ConvertedLine[] = [];
  for await (const line of lines) out.push(line);
  return out;
};
const json = (line: ConvertedLine) => JSON.parse(line.text) as Record<string, unknown>;
const fixture = () => createReadStream(join(__dirname, 'fixtures', 'cognito-users.json'));

describe('Cognito list-users → import lines', () => {
  it('maps each user: attributes, sub as the external id, custom attributes, ISO and epoch-seconds dates, a federated user’s identity; no password (Cognito exports none); a disabled user disabled, email-less users refused', async () => {
    const lines = await collect(cognitoLines(fixture()));
    expect(lines).toHaveLength(5);
    expect(json(lines[0])).toEqual({
      email: 'ada@example.com',
      email_verified: true,
      metadata: { name: 'Ada Lovelace', custom: { plan: 'pro' } },
      created_at: '2024-01-15T10:30:00.123Z',
      external_id: '3c5e1a2b-0000-4000-8000-00000000c001',
    });
    expect(json(lines[1])).toEqual({
      email: 'grace@example.com',
      email_verified: false,
      metadata: { cognito_username: 'Google_104729385610293847561' },
      created_at: '2023-11-14T22:13:20.500Z',
      external_id: '3c5e1a2b-0000-4000-8000-00000000c002',
      identities: [
        { provider: 'google', subject: '104729385610293847561', email: 'grace@example.com' },
      ],
    });
    expect(lines[2].note).toMatch(/phone-only has no email attribute/);
    // Enabled: false in the pool: imported disabled.
    expect(lines[3].note).toBeUndefined();
    expect(json(lines[3])).toMatchObject({ status: 'disabled' });
    expect([lines[0], lines[1], lines[4]].map((l) => json(l).status)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(json(lines[4])).toMatchObject({
      email: 'linus@example.com',
      external_id: '3c5e1a2b-0000-4000-8000-00000000c005',
    });
  });

  it('carries a verified phone_number (SMS MFA or sign-in: the export does not say) only with loginPhones', async () => {
    const lines = await collect(cognitoLines(fixture(), { loginPhones: true }));
    expect(json(lines[0]).phone_number).toBe('+14155550100');
    const unverified = fromCognito(
      {
        Username: 'u',
        Attributes: [
          { Name: 'email', Value: 'u@example.com' },
          { Name: 'phone_number', Value: '+14155550111' },
        ],
      },
      { loginPhones: true },
    );
    expect(json(unverified).phone_number).toBeUndefined();
  });

  it('takes a federated user’s provider and subject from the username when the identities attribute is missing, and refuses a file that is not list-users output', async () => {
    expect(
      json(
        fromCognito({
          Username: 'SignInWithApple_001234.abcd',
          UserStatus: 'EXTERNAL_PROVIDER',
          Attributes: [{ Name: 'email', Value: 'x@example.com' }],
        }),
      ).identities,
    ).toEqual([{ provider: 'apple', subject: '001234.abcd', email: 'x@example.com' }]);
    expect((await collect(cognitoLines(Readable.from([Buffer.from('[]')]))))[0].note).toMatch(
      /\{"Users": \[\.\.\.\]\}/,
    );
  });

  it('carries Enabled: false and the UserStatus of users Cognito no longer lets sign in (ARCHIVED, COMPROMISED) as status disabled; other statuses as no status', () => {
    const user = (extra: Record<string, unknown>) =>
      json(
        fromCognito({
          Username: 'u',
          Attributes: [{ Name: 'email', Value: 'u@example.com' }],
          ...extra,
        }),
      ).status;
    expect([
      user({ Enabled: false }),
      user({ Enabled: 'false' }),
      user({ UserStatus: 'COMPROMISED' }),
      user({ UserStatus: 'ARCHIVED', Enabled: true }),
    ]).toEqual(['disabled', 'disabled', 'disabled', 'disabled']);
    expect([
      user({ Enabled: true, UserStatus: 'CONFIRMED' }),
      user({ UserStatus: 'FORCE_CHANGE_PASSWORD' }),
      user({ UserStatus: 'RESET_REQUIRED' }),
      user({}),
    ]).toEqual([undefined, undefined, undefined, undefined]);
  });
});
