import { createHash, pbkdf2, scrypt, timingSafeEqual, type BinaryLike, type ScryptOptions } from 'node:crypto';
import { promisify } from 'node:util';
import * as argon2 from 'argon2';
import * as bcrypt from 'bcrypt';
import { FirebaseScrypt } from 'firebase-scrypt';

/**
 * Schemes a password hash imported from another system may be in (docs/migration.md). Each is
 * verified in its own scheme at the next sign-in, then replaced by ours (`bcrypt-sha256`).
 */
export type ImportedScheme = 'bcrypt' | 'argon2' | 'scrypt' | 'pbkdf2' | 'firebase-scrypt' | 'sha256' | 'sha512' | 'md5';

/** Salted plain digests: accepted only when the import says `allow_weak_hashes`. */
export const WEAK_SCHEMES: readonly ImportedScheme[] = ['sha256', 'sha512', 'md5'];

/** Firebase's project-wide scrypt parameters (Authentication → Users → Password hash parameters). */
export interface FirebaseScryptParameters {
  signer_key: string;
  salt_separator: string;
  rounds: number;
  mem_cost: number;
}

/** A hash ready to store: the scheme and the stored string (PHC or modular crypt as given, or JSON of the parameters). */
export interface ParsedImportedHash {
  /** `bcrypt-sha256` is ours, from a Gatehouse export. */
  scheme: ImportedScheme | 'bcrypt-sha256';
  hash: string;
}

/** Why an import line's `password_hash` was refused (its message goes into the report). */
export class ImportedHashError extends Error {}

const pbkdf2Async = promisify(pbkdf2);
const scryptAsync = promisify(scrypt) as (password: BinaryLike, salt: BinaryLike, keylen: number, options: ScryptOptions) => Promise<Buffer>;

// Work limits: an imported hash is computed at a sign-in, so a hostile file must not be able to
// make one sign-in cost seconds of CPU or gigabytes of memory.
const MAX_PBKDF2_ITERATIONS = 5_000_000;
const MAX_SCRYPT_LOG_N = 20;
const MAX_SCRYPT_R = 16;
const MAX_SCRYPT_P = 4;
const MAX_ARGON2_MEMORY_KIB = 262_144;
const MAX_ARGON2_TIME = 10;
const MAX_FIREBASE_MEM_COST = 16;
const MAX_FIREBASE_ROUNDS = 16;

/** Standard or passlib's adapted base64 ('.' for '+'), padding optional. */
function b64(value: string): Buffer | null {
  if (!/^[A-Za-z0-9+/.\-_]*={0,2}$/.test(value)) return null;
  const buf = Buffer.from(value.replace(/\./g, '+').replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return buf.length ? buf : null;
}

function intIn(value: string | undefined, min: number, max: number): number | null {
  if (value === undefined || !/^\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}

/**
 * Reads an import line's `password_hash` (CONTRACT §12): a string that names its scheme (modular
 * crypt `$2a$`/`$2b$`/`$2y$`, PHC `$argon2id$`/`$argon2i$`/`$scrypt$`/`$pbkdf2$`/`$pbkdf2-sha256$`/
 * `$pbkdf2-sha512$`, Django `pbkdf2_sha256$`/`pbkdf2_sha1$`), or an object for Firebase's modified
 * scrypt and for salted plain digests. Refuses what it cannot verify later, work beyond the limits,
 * and weak digests unless `allowWeak`.
 */
export function parseImportedHash(value: unknown, options: { allowWeak: boolean; firebase?: FirebaseScryptParameters | null }): ParsedImportedHash {
  if (typeof value === 'string') return parseHashString(value);
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ImportedHashError('must be a hash string or an object with an algorithm');
  const o = value as Record<string, unknown>;
  const hash = typeof o.hash === 'string' ? o.hash : null;
  if (!hash) throw new ImportedHashError('hash is required');
  if (o.algorithm === 'bcrypt_sha256') {
    // Ours, as a Gatehouse export writes it: bcrypt over the password's SHA-256 (passwords.ts).
    if (!/^\$2b\$\d{2}\$[./A-Za-z0-9]{53}$/.test(hash)) throw new ImportedHashError('bcrypt_sha256 needs a $2b$ bcrypt hash');
    return { scheme: 'bcrypt-sha256', hash };
  }
  if (o.algorithm === 'firebase_scrypt') {
    // The project's parameters, or (a Gatehouse export) the line's own.
    const own = firebaseParametersOf({ signer_key: o.signer_key as string | undefined, salt_separator: o.salt_separator as string | undefined, rounds: o.rounds as number | undefined, mem_cost: o.mem_cost as number | undefined });
    if (typeof own === 'string') throw new ImportedHashError(own);
    const fb = own ?? options.firebase;
    if (!fb) throw new ImportedHashError('firebase_scrypt needs the project parameters signer_key, salt_separator, rounds and mem_cost');
    if (typeof o.salt !== 'string' || !b64(o.salt) || !b64(hash)) throw new ImportedHashError('firebase_scrypt needs a base64 hash and salt');
    return { scheme: 'firebase-scrypt', hash: JSON.stringify({ hash, salt: o.salt, signer_key: fb.signer_key, salt_separator: fb.salt_separator, rounds: fb.rounds, mem_cost: fb.mem_cost }) };
  }
  if (o.algorithm === 'sha256' || o.algorithm === 'sha512' || o.algorithm === 'md5') {
    if (!options.allowWeak) throw new ImportedHashError(`${o.algorithm} is a weak hash: import it only with allow_weak_hashes=true`);
    const encoding = o.encoding ?? 'hex';
    if (encoding !== 'hex' && encoding !== 'base64') throw new ImportedHashError('encoding must be hex or base64');
    const position = o.salt_position ?? 'prefix';
    if (position !== 'prefix' && position !== 'suffix') throw new ImportedHashError('salt_position must be prefix or suffix');
    if (o.salt !== undefined && typeof o.salt !== 'string') throw new ImportedHashError('salt must be a string');
    const digestLength = { md5: 16, sha256: 32, sha512: 64 }[o.algorithm];
    const bytes = encoding === 'hex' ? (/^[0-9a-fA-F]+$/.test(hash) ? Buffer.from(hash, 'hex') : null) : b64(hash);
    if (!bytes || bytes.length !== digestLength) throw new ImportedHashError(`hash is not a ${o.algorithm} digest in ${encoding}`);
    return { scheme: o.algorithm, hash: JSON.stringify({ hash, encoding, salt: o.salt ?? '', salt_position: position }) };
  }
  throw new ImportedHashError('algorithm must be firebase_scrypt, sha256, sha512 or md5');
}

function parseHashString(value: string): ParsedImportedHash {
  if (value.length > 1024) throw new ImportedHashError('is too long');
  if (/^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/.test(value)) {
    const cost = Number(value.slice(4, 6));
    if (cost < 4 || cost > 16) throw new ImportedHashError('bcrypt cost must be 4–16');
    // $2y$ (PHP) is $2b$ under another name.
    return { scheme: 'bcrypt', hash: value.replace(/^\$2y\$/, '$2b$') };
  }
  const argon = /^\$argon2(?:id|i)\$v=19\$([a-z]=\d+(?:,[a-z]=\d+){2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(value);
  if (argon) {
    // Parameters in any order (the reference encoder writes m,t,p; node-argon2 writes m,p,t).
    const params = Object.fromEntries(argon[1].split(',').map((kv) => kv.split('=') as [string, string]));
    if (intIn(params.m, 8, MAX_ARGON2_MEMORY_KIB) === null || intIn(params.t, 1, MAX_ARGON2_TIME) === null || intIn(params.p, 1, 16) === null) throw new ImportedHashError('argon2 parameters beyond the limits (m ≤ 256 MiB, t ≤ 10, p ≤ 16)');
    return { scheme: 'argon2', hash: value };
  }
  const sc = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([^$]+)\$([^$]+)$/.exec(value);
  if (sc) {
    if (intIn(sc[1], 1, MAX_SCRYPT_LOG_N) === null || intIn(sc[2], 1, MAX_SCRYPT_R) === null || intIn(sc[3], 1, MAX_SCRYPT_P) === null) throw new ImportedHashError(`scrypt parameters beyond the limits (ln ≤ ${MAX_SCRYPT_LOG_N}, r ≤ ${MAX_SCRYPT_R}, p ≤ ${MAX_SCRYPT_P})`);
    if (!b64(sc[4]) || !b64(sc[5])) throw new ImportedHashError('scrypt salt and hash must be base64');
    return { scheme: 'scrypt', hash: value };
  }
  const pb = /^\$pbkdf2(-sha256|-sha512)?\$(?:i=)?(\d+)\$([^$]+)\$([^$]+)$/.exec(value);
  if (pb) {
    if (intIn(pb[2], 1, MAX_PBKDF2_ITERATIONS) === null) throw new ImportedHashError(`pbkdf2 iterations must be 1–${MAX_PBKDF2_ITERATIONS}`);
    if (!b64(pb[3]) || !b64(pb[4])) throw new ImportedHashError('pbkdf2 salt and hash must be base64');
    return { scheme: 'pbkdf2', hash: value };
  }
  const dj = /^pbkdf2_(sha256|sha1)\$(\d+)\$([^$]+)\$([A-Za-z0-9+/]+=*)$/.exec(value);
  if (dj) {
    if (intIn(dj[2], 1, MAX_PBKDF2_ITERATIONS) === null) throw new ImportedHashError(`pbkdf2 iterations must be 1–${MAX_PBKDF2_ITERATIONS}`);
    return { scheme: 'pbkdf2', hash: value };
  }
  throw new ImportedHashError('names no supported scheme (bcrypt, argon2, scrypt, pbkdf2, Django pbkdf2)');
}

function same(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Verifies a password against an imported hash in its own scheme. The password as typed: the other system hashed it so. */
export async function verifyImportedHash(password: string, stored: string, scheme: ImportedScheme): Promise<boolean> {
  try {
    switch (scheme) {
      case 'bcrypt':
        return await bcrypt.compare(password, stored);
      case 'argon2':
        return await argon2.verify(stored, password);
      case 'scrypt': {
        const m = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([^$]+)\$([^$]+)$/.exec(stored)!;
        const expected = b64(m[5])!;
        const N = 2 ** Number(m[1]);
        const r = Number(m[2]);
        const derived = await scryptAsync(password, b64(m[4])!, expected.length, { N, r, p: Number(m[3]), maxmem: 256 * N * r + 1024 * 1024 });
        return same(derived, expected);
      }
      case 'pbkdf2': {
        const phc = /^\$pbkdf2(-sha256|-sha512)?\$(?:i=)?(\d+)\$([^$]+)\$([^$]+)$/.exec(stored);
        if (phc) {
          const expected = b64(phc[4])!;
          const digest = phc[1] === '-sha256' ? 'sha256' : phc[1] === '-sha512' ? 'sha512' : 'sha1';
          return same(await pbkdf2Async(password, b64(phc[3])!, Number(phc[2]), expected.length, digest), expected);
        }
        const dj = /^pbkdf2_(sha256|sha1)\$(\d+)\$([^$]+)\$([A-Za-z0-9+/]+=*)$/.exec(stored)!;
        const expected = Buffer.from(dj[4], 'base64');
        // Django's salt is used as its text, not decoded.
        return same(await pbkdf2Async(password, dj[3], Number(dj[2]), expected.length, dj[1]), expected);
      }
      case 'firebase-scrypt': {
        const p = JSON.parse(stored) as { hash: string; salt: string } & FirebaseScryptParameters;
        return await new FirebaseScrypt({ memCost: p.mem_cost, rounds: p.rounds, saltSeparator: p.salt_separator, signerKey: p.signer_key }).verify(password, p.salt, p.hash);
      }
      case 'sha256':
      case 'sha512':
      case 'md5': {
        const p = JSON.parse(stored) as { hash: string; encoding: 'hex' | 'base64'; salt: string; salt_position: 'prefix' | 'suffix' };
        const input = p.salt_position === 'prefix' ? p.salt + password : password + p.salt;
        const expected = p.encoding === 'hex' ? Buffer.from(p.hash, 'hex') : b64(p.hash)!;
        return same(createHash(scheme).update(input, 'utf8').digest(), expected);
      }
    }
  } catch {
    // A stored hash that cannot be computed (a corrupt row) verifies nothing.
    return false;
  }
  return false;
}

export function firebaseParametersOf(input: { signer_key?: string; salt_separator?: string; rounds?: string | number; mem_cost?: string | number }): FirebaseScryptParameters | null | string {
  const given = [input.signer_key, input.salt_separator, input.rounds, input.mem_cost].filter((v) => v !== undefined).length;
  if (given === 0) return null;
  if (given < 4) return 'signer_key, salt_separator, rounds and mem_cost go together';
  const rounds = intIn(String(input.rounds), 1, MAX_FIREBASE_ROUNDS);
  const memCost = intIn(String(input.mem_cost), 1, MAX_FIREBASE_MEM_COST);
  if (rounds === null || memCost === null) return `rounds must be 1–${MAX_FIREBASE_ROUNDS} and mem_cost 1–${MAX_FIREBASE_MEM_COST}`;
  if (!b64(input.signer_key!) || !b64(input.salt_separator!)) return 'signer_key and salt_separator must be base64';
  return { signer_key: input.signer_key!, salt_separator: input.salt_separator!, rounds, mem_cost: memCost };
}
