import { execFileSync } from 'node:child_process';
import * as argon2 from 'argon2';
import * as bcrypt from 'bcrypt';
import {
  firebaseParametersOf,
  IMPORTED_HASH_BUDGET,
  ImportedHashError,
  importedHashOverBudget,
  parseImportedHash,
  verifyPassword,
  type PasswordScheme,
} from './index';

/**
 * Every hash here is made by the scheme's reference implementation, not by our code: Python's
 * hashlib (PBKDF2, scrypt, plain digests) in passlib's and Django's formats, the Argon2 reference
 * C code (node-argon2), OpenBSD bcrypt (node.bcrypt.js), and Firebase's own published scrypt
 * test vector (github.com/firebase/scrypt).
 */
function python(code: string): string {
  return execFileSync('python3', ['-c', code], { encoding: 'utf8' }).trim();
}

const PASSWORD = 'correct horse battery staple';

async function verifies(
  value: unknown,
  opts: { allowWeak?: boolean; firebase?: ReturnType<typeof firebaseParametersOf> } = {},
  password = PASSWORD,
): Promise<{ scheme: PasswordScheme; right: boolean; wrong: boolean }> {
  const parsed = parseImportedHash(value, {
    allowWeak: opts.allowWeak ?? false,
    firebase: (opts.firebase as never) ?? null,
  });
  return {
    scheme: parsed.scheme,
    right: await verifyPassword(password, parsed.hash, parsed.scheme),
    wrong: await verifyPassword(`${password}!`, parsed.hash, parsed.scheme),
  };
}

describe('imported password hashes', () => {
  it('PBKDF2 in passlib PHC form (sha1, sha256, sha512) and Django form, from Python hashlib', async () => {
    const phc = (digest: string, tag: string) =>
      python(`import hashlib,base64
salt=b'saltsaltsalt1234'
dk=hashlib.pbkdf2_hmac('${digest}', ${JSON.stringify(PASSWORD)}.encode(), salt, 29000)
ab64=lambda b: base64.b64encode(b).decode().rstrip('=').replace('+','.')
print('$pbkdf2${tag}$29000$'+ab64(salt)+'$'+ab64(dk))`);
    for (const [digest, tag] of [
      ['sha1', ''],
      ['sha256', '-sha256'],
      ['sha512', '-sha512'],
    ]) {
      expect(await verifies(phc(digest, tag))).toEqual({
        scheme: 'pbkdf2',
        right: true,
        wrong: false,
      });
    }
    const django = python(`import hashlib,base64
dk=hashlib.pbkdf2_hmac('sha256', ${JSON.stringify(PASSWORD)}.encode(), b'Xy1QnBC4cb3p', 870000)
print('pbkdf2_sha256$870000$Xy1QnBC4cb3p$'+base64.b64encode(dk).decode())`);
    expect(await verifies(django)).toEqual({ scheme: 'pbkdf2', right: true, wrong: false });
  });

  it('scrypt in PHC form, from Python hashlib', async () => {
    const hash = python(`import hashlib,base64
salt=b'0123456789abcdef'
dk=hashlib.scrypt(${JSON.stringify(PASSWORD)}.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)
b=lambda x: base64.b64encode(x).decode().rstrip('=')
print('$scrypt$ln=14,r=8,p=1$'+b(salt)+'$'+b(dk))`);
    expect(await verifies(hash)).toEqual({ scheme: 'scrypt', right: true, wrong: false });
  });

  it('argon2id and argon2i from the reference implementation', async () => {
    expect(
      await verifies(
        await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 19456, timeCost: 2 }),
      ),
    ).toEqual({ scheme: 'argon2', right: true, wrong: false });
    expect(
      await verifies(
        await argon2.hash(PASSWORD, { type: argon2.argon2i, memoryCost: 4096, timeCost: 3 }),
      ),
    ).toEqual({ scheme: 'argon2', right: true, wrong: false });
  });

  it('bcrypt $2a$, $2b$ and $2y$', async () => {
    const b = await bcrypt.hash(PASSWORD, 10);
    for (const prefix of ['$2a$', '$2b$', '$2y$'])
      expect(await verifies(prefix + b.slice(4))).toEqual({
        scheme: 'bcrypt',
        right: true,
        wrong: false,
      });
  });

  it("Firebase's modified scrypt with the project's parameters (Firebase's published test vector)", async () => {
    const firebase = firebaseParametersOf({
      signer_key:
        'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
      salt_separator: 'Bw==',
      rounds: '8',
      mem_cost: '14',
    });
    const line = {
      algorithm: 'firebase_scrypt',
      hash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
      salt: '42xEC+ixf3L2lw==',
    };
    expect(await verifies(line, { firebase }, 'user1password')).toEqual({
      scheme: 'firebase-scrypt',
      right: true,
      wrong: false,
    });
    expect(() => parseImportedHash(line, { allowWeak: false, firebase: null })).toThrow(
      /project parameters/,
    );
    expect(firebaseParametersOf({ signer_key: 'abc=' })).toMatch(/go together/);
  });

  it('salted SHA-256, SHA-512 and MD5 only with allow_weak_hashes, salt before or after, hex or base64', async () => {
    const digest = (alg: string, input: string, enc: 'hex' | 'base64') =>
      python(`import hashlib,base64
d=hashlib.${alg}(${JSON.stringify(input)}.encode()).digest()
print(d.hex() if '${enc}'=='hex' else base64.b64encode(d).decode())`);
    const weak = [
      {
        algorithm: 'sha256',
        hash: digest('sha256', `pepper${PASSWORD}`, 'hex'),
        salt: 'pepper',
        salt_position: 'prefix',
        encoding: 'hex',
      },
      {
        algorithm: 'sha512',
        hash: digest('sha512', `${PASSWORD}pepper`, 'base64'),
        salt: 'pepper',
        salt_position: 'suffix',
        encoding: 'base64',
      },
      { algorithm: 'md5', hash: digest('md5', PASSWORD, 'hex') },
    ];
    for (const line of weak) {
      expect(() => parseImportedHash(line, { allowWeak: false })).toThrow(/allow_weak_hashes/);
      expect(await verifies(line, { allowWeak: true })).toEqual({
        scheme: line.algorithm,
        right: true,
        wrong: false,
      });
    }
  });

  it('refuses what it could not verify, and work beyond the limits', () => {
    const refused = [
      'plaintext',
      '$1$md5crypt$abc',
      '$argon2id$v=19$m=4194304,t=3,p=1$c2FsdHNhbHQ$aGFzaA',
      '$scrypt$ln=30,r=8,p=1$c2FsdA$aGFzaA',
      '$pbkdf2-sha256$99999999$c2FsdA$aGFzaA',
      '$scrypt$ln=20,r=16,p=4$c2FsdA$aGFzaA',
      '$argon2id$v=19$m=262144,t=10,p=1$c2FsdHNhbHQ$aGFzaA',
      `$2b$16$${'a'.repeat(53)}`,
      'pbkdf2_sha256$0$salt$aGFzaA==',
      { algorithm: 'rot13', hash: 'x' },
      { algorithm: 'md5', hash: 'not hex' },
      42,
      null,
      'x'.repeat(2000),
    ];
    for (const value of refused)
      expect(() => parseImportedHash(value, { allowWeak: true })).toThrow(ImportedHashError);
  });

  it('a corrupt stored hash verifies nothing (no throw)', async () => {
    expect(await verifyPassword(PASSWORD, '{not json', 'firebase-scrypt')).toBe(false);
    expect(await verifyPassword(PASSWORD, '$argon2id$broken', 'argon2')).toBe(false);
  });
});

describe('the work budget of an imported hash (64 MiB, about a second of one core)', () => {
  const salt = 'c2FsdHNhbHRzYWx0';
  const key = (bytes: number) => Buffer.alloc(bytes, 1).toString('base64').replace(/=+$/, '');
  const refusedAtImport = (value: unknown) => {
    try {
      parseImportedHash(value, { allowWeak: false });
    } catch (err) {
      return err instanceof ImportedHashError
        ? err.message
        : `not an ImportedHashError: ${String(err)}`;
    }
    return null;
  };

  it('bcrypt: cost ≤ 14, for imported bcrypt and for ours from a Gatehouse export', () => {
    const bcryptOf = (cost: number) => `$2b$${String(cost).padStart(2, '0')}$${'a'.repeat(53)}`;
    expect(importedHashOverBudget(bcryptOf(14), 'bcrypt')).toBeNull();
    expect(importedHashOverBudget(bcryptOf(15), 'bcrypt')).toMatch(
      /cost 15 is over the work budget \(cost ≤ 14/,
    );
    expect(importedHashOverBudget(bcryptOf(15), 'bcrypt-sha256')).toMatch(/cost 15/);
    expect(refusedAtImport(bcryptOf(14).replace('$2b$', '$2y$'))).toBeNull();
    expect(refusedAtImport(bcryptOf(16))).toMatch(/cost 16/);
    expect(refusedAtImport({ algorithm: 'bcrypt_sha256', hash: bcryptOf(20) })).toMatch(/cost 20/);
  });

  it('scrypt: 128·N·r ≤ 64 MiB and 128·N·r·p ≤ 320 MiB (ln=16 r=8 p≤5; ln=14 r=8 p≤20), N < 2^(16·r)', () => {
    const scryptOf = (ln: number, r: number, p: number) =>
      `$scrypt$ln=${ln},r=${r},p=${p}$${salt}$${key(32)}`;
    for (const [ln, r, p] of [
      [16, 8, 5],
      [14, 8, 20],
      [15, 8, 1],
      [17, 4, 1],
      [18, 2, 5],
    ])
      expect([ln, r, p, refusedAtImport(scryptOf(ln, r, p))]).toEqual([ln, r, p, null]);
    expect(importedHashOverBudget(scryptOf(17, 8, 1), 'scrypt')).toBe(
      'scrypt needs 128 MiB (128·N·r); the work budget is 64 MiB a verification',
    );
    expect(importedHashOverBudget(scryptOf(20, 16, 4), 'scrypt')).toMatch(/needs 2048 MiB/);
    expect(importedHashOverBudget(scryptOf(16, 8, 6), 'scrypt')).toMatch(
      /p=6 at 64 MiB is over the work budget \(128·N·r·p ≤ 320 MiB/,
    );
    expect(importedHashOverBudget(scryptOf(14, 8, 21), 'scrypt')).toMatch(/p=21/);
    expect(importedHashOverBudget(scryptOf(16, 1, 1), 'scrypt')).toMatch(/N < 2\^\(16·r\)/);
    expect(refusedAtImport(scryptOf(30, 8, 1))).toMatch(/128·N·r/);
  });

  it('Argon2: m ≤ 64 MiB, p ≤ 4, m·t ≤ 1,048,576 (t ≤ 16 at 64 MiB); OWASP and RFC 9106 parameters fit', () => {
    const argonOf = (m: number, t: number, p: number) =>
      `$argon2id$v=19$m=${m},t=${t},p=${p}$${salt}$${key(32)}`;
    for (const [m, t, p] of [
      [19456, 2, 1],
      [65536, 3, 4],
      [65536, 16, 4],
      [47104, 1, 1],
      [32768, 32, 1],
    ])
      expect([m, t, p, refusedAtImport(argonOf(m, t, p))]).toEqual([m, t, p, null]);
    // node-argon2 writes m, p, t.
    expect(refusedAtImport(`$argon2id$v=19$m=65536,p=4,t=16$${salt}$${key(32)}`)).toBeNull();
    expect(importedHashOverBudget(argonOf(65537, 1, 1), 'argon2')).toBe(
      'argon2 m=65537 KiB (64 MiB) is over the work budget (m ≤ 65536 KiB, 64 MiB a verification)',
    );
    expect(importedHashOverBudget(argonOf(262144, 10, 1), 'argon2')).toMatch(
      /m=262144 KiB \(256 MiB\)/,
    );
    expect(importedHashOverBudget(argonOf(102400, 2, 8), 'argon2')).toMatch(
      /m=102400 KiB \(100 MiB\)/,
    );
    expect(importedHashOverBudget(argonOf(65536, 17, 1), 'argon2')).toMatch(
      /m·t = 1114112 is over the work budget/,
    );
    expect(importedHashOverBudget(argonOf(65536, 3, 5), 'argon2')).toMatch(/p=5/);
  });

  it('PBKDF2: iterations × blocks ≤ 4,000,000 (SHA-1), 5,000,000 (SHA-256), 1,700,000 (SHA-512), derived key ≤ 64 bytes', () => {
    const phc = (tag: string, i: number, bytes: number) =>
      `$pbkdf2${tag}$${i}$${salt}$${key(bytes)}`;
    const within: [string, number, number][] = [
      ['-sha256', 5_000_000, 32],
      ['-sha256', 2_500_000, 64],
      ['-sha512', 1_700_000, 64],
      ['', 4_000_000, 20],
      ['', 1_000_000, 64],
      ['-sha512', 210_000, 64],
      ['-sha256', 27_500, 64],
    ];
    for (const [tag, i, bytes] of within)
      expect([tag, i, bytes, refusedAtImport(phc(tag, i, bytes))]).toEqual([tag, i, bytes, null]);
    expect(importedHashOverBudget(phc('-sha256', 5_000_001, 32), 'pbkdf2')).toBe(
      'pbkdf2-sha256 at 5000001 iterations × 1 block(s) is over the work budget (≤ 5000000, about a second)',
    );
    expect(importedHashOverBudget(phc('-sha256', 2_500_001, 64), 'pbkdf2')).toMatch(/× 2 block/);
    expect(importedHashOverBudget(phc('', 1_000_001, 64), 'pbkdf2')).toMatch(
      /pbkdf2-sha1 .* × 4 block/,
    );
    expect(importedHashOverBudget(phc('-sha512', 1_700_001, 64), 'pbkdf2')).toMatch(
      /pbkdf2-sha512/,
    );
    // The reported attack: 5,000,000 iterations and a 1,000-character derived key.
    expect(importedHashOverBudget(phc('-sha512', 5_000_000, 750), 'pbkdf2')).toBe(
      'pbkdf2 derived key of 750 bytes is over the work budget (≤ 64 bytes)',
    );
    const django = (i: number, bytes: number) =>
      `pbkdf2_sha256$${i}$Xy1QnBC4cb3p$${Buffer.alloc(bytes, 2).toString('base64')}`;
    expect(refusedAtImport(django(1_200_000, 32))).toBeNull();
    expect(refusedAtImport(django(5_000_001, 32))).toMatch(/over the work budget/);
    expect(
      refusedAtImport(`pbkdf2_sha1$4000001$salt$${Buffer.alloc(20).toString('base64')}`),
    ).toMatch(/pbkdf2-sha1/);
  });

  it("Firebase scrypt: rounds ≤ 8 and mem_cost ≤ 14 (Firebase's own ranges, 16 MiB), for the project's parameters and a line's own", () => {
    const params = (rounds: number, memCost: number) => ({
      signer_key: 'c2lnbmVy',
      salt_separator: 'Bw==',
      rounds,
      mem_cost: memCost,
    });
    expect(firebaseParametersOf(params(8, 14))).toEqual(params(8, 14));
    expect(firebaseParametersOf(params(9, 14))).toMatch(/rounds must be 1–8 and mem_cost 1–14/);
    expect(firebaseParametersOf(params(8, 15))).toMatch(/rounds must be 1–8 and mem_cost 1–14/);
    const line = (rounds: number, memCost: number) => ({
      algorithm: 'firebase_scrypt',
      hash: key(64),
      salt: key(12),
      ...params(rounds, memCost),
    });
    expect(refusedAtImport(line(8, 14))).toBeNull();
    expect(refusedAtImport(line(16, 16))).toMatch(/rounds must be 1–8/);
    const stored = (rounds: number, memCost: number) =>
      JSON.stringify({ hash: key(64), salt: key(12), ...params(rounds, memCost) });
    expect(importedHashOverBudget(stored(8, 14), 'firebase-scrypt')).toBeNull();
    expect(importedHashOverBudget(stored(16, 16), 'firebase-scrypt')).toMatch(
      /rounds 16, mem_cost 16 are over the work budget/,
    );
  });

  it('a stored hash whose parameters cannot be read is over the budget (its cost is unknown); salted digests cost one hash', () => {
    expect(importedHashOverBudget('$argon2id$broken', 'argon2')).toMatch(
      /without readable parameters/,
    );
    expect(importedHashOverBudget('{not json', 'firebase-scrypt')).toMatch(
      /without readable parameters/,
    );
    expect(importedHashOverBudget('$scrypt$ln=x', 'scrypt')).toMatch(/without readable parameters/);
    expect(
      importedHashOverBudget(
        JSON.stringify({ hash: 'ab', encoding: 'hex', salt: '', salt_position: 'prefix' }),
        'md5',
      ),
    ).toBeNull();
    expect(IMPORTED_HASH_BUDGET.memoryBytes).toBe(64 * 1024 * 1024);
  });
});
