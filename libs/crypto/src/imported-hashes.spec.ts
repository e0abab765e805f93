import { execFileSync } from 'node:child_process';
import * as argon2 from 'argon2';
import * as bcrypt from 'bcrypt';
import { firebaseParametersOf, ImportedHashError, parseImportedHash, verifyPassword, type PasswordScheme } from './index';

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

async function verifies(value: unknown, opts: { allowWeak?: boolean; firebase?: ReturnType<typeof firebaseParametersOf> } = {}, password = PASSWORD): Promise<{ scheme: PasswordScheme; right: boolean; wrong: boolean }> {
  const parsed = parseImportedHash(value, { allowWeak: opts.allowWeak ?? false, firebase: (opts.firebase as never) ?? null });
  return { scheme: parsed.scheme, right: await verifyPassword(password, parsed.hash, parsed.scheme), wrong: await verifyPassword(`${password}!`, parsed.hash, parsed.scheme) };
}

describe('imported password hashes', () => {
  it('PBKDF2 in passlib PHC form (sha1, sha256, sha512) and Django form, from Python hashlib', async () => {
    const phc = (digest: string, tag: string) =>
      python(`import hashlib,base64
salt=b'saltsaltsalt1234'
dk=hashlib.pbkdf2_hmac('${digest}', ${JSON.stringify(PASSWORD)}.encode(), salt, 29000)
ab64=lambda b: base64.b64encode(b).decode().rstrip('=').replace('+','.')
print('$pbkdf2${tag}$29000$'+ab64(salt)+'$'+ab64(dk))`);
    for (const [digest, tag] of [['sha1', ''], ['sha256', '-sha256'], ['sha512', '-sha512']]) {
      expect(await verifies(phc(digest, tag))).toEqual({ scheme: 'pbkdf2', right: true, wrong: false });
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
    expect(await verifies(await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 19456, timeCost: 2 }))).toEqual({ scheme: 'argon2', right: true, wrong: false });
    expect(await verifies(await argon2.hash(PASSWORD, { type: argon2.argon2i, memoryCost: 4096, timeCost: 3 }))).toEqual({ scheme: 'argon2', right: true, wrong: false });
  });

  it('bcrypt $2a$, $2b$ and $2y$', async () => {
    const b = await bcrypt.hash(PASSWORD, 10);
    for (const prefix of ['$2a$', '$2b$', '$2y$']) expect(await verifies(prefix + b.slice(4))).toEqual({ scheme: 'bcrypt', right: true, wrong: false });
  });

  it("Firebase's modified scrypt with the project's parameters (Firebase's published test vector)", async () => {
    const firebase = firebaseParametersOf({ signer_key: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==', salt_separator: 'Bw==', rounds: '8', mem_cost: '14' });
    const line = { algorithm: 'firebase_scrypt', hash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==', salt: '42xEC+ixf3L2lw==' };
    expect(await verifies(line, { firebase }, 'user1password')).toEqual({ scheme: 'firebase-scrypt', right: true, wrong: false });
    expect(() => parseImportedHash(line, { allowWeak: false, firebase: null })).toThrow(/project parameters/);
    expect(firebaseParametersOf({ signer_key: 'abc=' })).toMatch(/go together/);
  });

  it('salted SHA-256, SHA-512 and MD5 only with allow_weak_hashes, salt before or after, hex or base64', async () => {
    const digest = (alg: string, input: string, enc: 'hex' | 'base64') => python(`import hashlib,base64
d=hashlib.${alg}(${JSON.stringify(input)}.encode()).digest()
print(d.hex() if '${enc}'=='hex' else base64.b64encode(d).decode())`);
    const weak = [
      { algorithm: 'sha256', hash: digest('sha256', `pepper${PASSWORD}`, 'hex'), salt: 'pepper', salt_position: 'prefix', encoding: 'hex' },
      { algorithm: 'sha512', hash: digest('sha512', `${PASSWORD}pepper`, 'base64'), salt: 'pepper', salt_position: 'suffix', encoding: 'base64' },
      { algorithm: 'md5', hash: digest('md5', PASSWORD, 'hex') },
    ];
    for (const line of weak) {
      expect(() => parseImportedHash(line, { allowWeak: false })).toThrow(/allow_weak_hashes/);
      expect(await verifies(line, { allowWeak: true })).toEqual({ scheme: line.algorithm, right: true, wrong: false });
    }
  });

  it('refuses what it could not verify, and work beyond the limits', () => {
    const refused = ['plaintext', '$1$md5crypt$abc', '$argon2id$v=19$m=4194304,t=3,p=1$c2FsdHNhbHQ$aGFzaA', '$scrypt$ln=30,r=8,p=1$c2FsdA$aGFzaA', '$pbkdf2-sha256$99999999$c2FsdA$aGFzaA', 'pbkdf2_sha256$0$salt$aGFzaA==', { algorithm: 'rot13', hash: 'x' }, { algorithm: 'md5', hash: 'not hex' }, 42, null, 'x'.repeat(2000)];
    for (const value of refused) expect(() => parseImportedHash(value, { allowWeak: true })).toThrow(ImportedHashError);
  });

  it('a corrupt stored hash verifies nothing (no throw)', async () => {
    expect(await verifyPassword(PASSWORD, '{not json', 'firebase-scrypt')).toBe(false);
    expect(await verifyPassword(PASSWORD, '$argon2id$broken', 'argon2')).toBe(false);
  });
});
