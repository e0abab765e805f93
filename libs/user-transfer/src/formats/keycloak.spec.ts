import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parseImportedHash, verifyPassword } from '@gatehouse/crypto';
import { fromKeycloak, keycloakLines } from './keycloak';
import type { ConvertedLine } from './lines';

const collect = async (lines: AsyncIterable<ConvertedLine>) => {
  const out: ConvertedLine[] = [];
  for await (const line of lines) out.push(line);
  return out;
};
const json = (line: ConvertedLine) => JSON.parse(line.text) as Record<string, unknown>;
const credential = (type: string, secretData: object, credentialData: object) => ({
  type,
  secretData: JSON.stringify(secretData),
  credentialData: JSON.stringify(credentialData),
});

describe('Keycloak realm export → import lines', () => {
  it('maps each user of the realm file: PBKDF2-SHA512, Argon2id and PBKDF2-SHA256 passwords as PHC strings, the OTP secret as base32, federated identities; a disabled user disabled; service accounts and unsupported OTP refused', async () => {
    const lines = await collect(
      keycloakLines(createReadStream(join(__dirname, 'fixtures', 'keycloak-realm.json'))),
    );
    expect(lines).toHaveLength(6);
    expect(json(lines[0])).toEqual({
      email: 'ada@example.com',
      email_verified: true,
      username: 'ada',
      metadata: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        attributes: { locale: ['en'], department: ['engines'] },
      },
      created_at: '2024-01-01T00:00:00.000Z',
      external_id: '6f2b0a1e-0000-4000-8000-00000000a001',
      password_hash:
        '$pbkdf2-sha512$i=210000$jx4tPEtaaXiHlqW0w9Lh8A==$tFPr68ueN3EskPc5Nt+fm0eHPTgVr5loCAq+lOZwv3fZmLSXomve9TWd/HNFpMl4mkfzNcBVG+seRD6zgM6fIw==',
      // base32 of the bytes of "abcdefghijklmnopqrst" (Python's base64.b32encode).
      totp_secret: 'MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U',
    });
    expect(json(lines[1])).toMatchObject({
      email: 'grace@example.com',
      password_hash:
        '$argon2id$v=19$m=7168,t=5,p=1$Dx4tPEtaaXiHlqW0w9Lh8A$UbFhHhtyHrhnBFJPtwDfFaIGDiI/eNFuwRn9RTOYP0Q',
      identities: [
        { provider: 'google', subject: '104729385610293847561', email: 'grace@example.com' },
        { provider: 'github', subject: '9001', email: 'grace@example.com' },
      ],
    });
    // Username = email (the realm's "email as username"): no username here.
    expect(json(lines[2])).toMatchObject({
      email: 'linus@example.com',
      email_verified: false,
      password_hash: expect.stringMatching(/^\$pbkdf2-sha256\$i=27500\$/),
    });
    expect(json(lines[2]).username).toBeUndefined();
    expect(lines[3].note).toMatch(/service account of client backend/);
    // enabled: false in Keycloak: imported disabled.
    expect(lines[4].note).toBeUndefined();
    expect(json(lines[4])).toMatchObject({ status: 'disabled' });
    expect([lines[0], lines[1], lines[2]].map((l) => json(l).status)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(lines[5].note).toMatch(
      /OTP credential \(totp, 8 digits, 30 s, HmacSHA1\) Gatehouse cannot check/,
    );
  });

  it('the hashes it writes verify the passwords Keycloak hashed (PBKDF2 by Python hashlib, Argon2id by the reference argon2 library), and refuse others', async () => {
    const lines = await collect(
      keycloakLines(createReadStream(join(__dirname, 'fixtures', 'keycloak-realm.json'))),
    );
    for (const [i, password] of [
      [0, 'keycloak password 1'],
      [1, 'keycloak password 2'],
      [2, 'keycloak password 3'],
    ] as const) {
      // Read as the import reads a line's hash, then verified as a sign-in verifies it.
      const { scheme, hash } = parseImportedHash(json(lines[i]).password_hash, {
        allowWeak: false,
      });
      expect([i, await verifyPassword(password, hash, scheme)]).toEqual([i, true]);
      expect([i, await verifyPassword(`${password}!`, hash, scheme)]).toEqual([i, false]);
    }
  });

  it('takes a base32 secret as it is, a bcrypt provider’s modular crypt as it is, and refuses Argon2d and providers it does not know', () => {
    const user = { id: 'u', email: 'u@example.com', enabled: true };
    expect(
      json(
        fromKeycloak({
          ...user,
          credentials: [
            credential(
              'otp',
              { value: 'jbswy3dpehpk3pxp' },
              {
                subType: 'totp',
                digits: 6,
                period: 30,
                algorithm: 'HmacSHA1',
                secretEncoding: 'BASE32',
              },
            ),
          ],
        }),
      ).totp_secret,
    ).toBe('JBSWY3DPEHPK3PXP');
    const bcryptHash = '$2a$10$VpVxYQ/kuEDjO4IR8Ab9PeyEK1rG9KbW4MXGyhl7hg.yJJ1CigQpe';
    expect(
      json(
        fromKeycloak({
          ...user,
          credentials: [
            credential(
              'password',
              { value: bcryptHash },
              { algorithm: 'bcrypt', hashIterations: 10 },
            ),
          ],
        }),
      ).password_hash,
    ).toBe(bcryptHash);
    expect(
      fromKeycloak({
        ...user,
        credentials: [
          credential(
            'password',
            { value: 'aGFzaA==', salt: 'c2FsdA==' },
            {
              algorithm: 'argon2',
              hashIterations: 3,
              additionalParameters: { type: ['d'], version: ['1.3'] },
            },
          ),
        ],
      }).note,
    ).toMatch(/Argon2d version 1\.3 password, which Gatehouse does not import/);
    expect(
      fromKeycloak({
        ...user,
        credentials: [
          credential(
            'password',
            { value: 'aGFzaA==', salt: 'c2FsdA==' },
            { algorithm: 'sha1-custom', hashIterations: 1 },
          ),
        ],
      }).note,
    ).toMatch(/Keycloak's sha1-custom provider/);
    // An OTP credential without a secret refuses the user (never imported without their second factor); Keycloak < 12's layout is read.
    expect(
      fromKeycloak({
        ...user,
        credentials: [
          {
            type: 'otp',
            secretData: '{}',
            credentialData: JSON.stringify({
              subType: 'totp',
              digits: 6,
              period: 30,
              algorithm: 'HmacSHA1',
            }),
          },
        ],
      }).note,
    ).toMatch(/OTP credential whose secret the export does not carry/);
    expect(
      json(
        fromKeycloak({
          ...user,
          credentials: [
            {
              type: 'totp',
              value: 'abcdefghijklmnopqrst',
              digits: 6,
              period: 30,
              algorithm: 'HmacSHA1',
            },
          ],
        }),
      ).totp_secret,
    ).toBe('MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U');
    // A temporary password (UPDATE_PASSWORD required) is not carried.
    expect(
      json(
        fromKeycloak({
          ...user,
          requiredActions: ['UPDATE_PASSWORD'],
          credentials: [
            credential(
              'password',
              { value: bcryptHash },
              { algorithm: 'bcrypt', hashIterations: 10 },
            ),
          ],
        }),
      ).password_hash,
    ).toBeUndefined();
    // A username our rules do not take is kept in metadata.
    expect(json(fromKeycloak({ ...user, username: 'ada lovelace' })).metadata).toEqual({
      keycloak_username: 'ada lovelace',
    });
  });

  it('refuses a file that is not a Keycloak export, and reads a users file of --users different_files', async () => {
    expect(
      (await collect(keycloakLines(Readable.from([Buffer.from('[{"id":"a"}]')]))))[0].note,
    ).toMatch(/one JSON object with "users"/);
    const lines = await collect(
      keycloakLines(
        Readable.from([
          Buffer.from(JSON.stringify({ realm: 'r', users: [{ id: 'a', email: 'a@example.com' }] })),
        ]),
      ),
    );
    expect(lines.map(json)).toEqual([
      { email: 'a@example.com', email_verified: false, external_id: 'a' },
    ]);
  });
});
