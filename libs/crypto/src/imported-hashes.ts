import {
  createHash,
  pbkdf2,
  scrypt,
  timingSafeEqual,
  type BinaryLike,
  type ScryptOptions,
} from 'node:crypto';
import { promisify } from 'node:util';
import * as argon2 from 'argon2';
import * as bcrypt from 'bcrypt';
import { FirebaseScrypt } from 'firebase-scrypt';

/**
 * Schemes a password hash imported from another system may be in (docs/migration.md). Each is
 * verified in its own scheme at the next sign-in, then replaced by ours (`bcrypt-sha256`).
 */
export type ImportedScheme =
  'bcrypt' | 'argon2' | 'scrypt' | 'pbkdf2' | 'firebase-scrypt' | 'sha256' | 'sha512' | 'md5';

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
const scryptAsync = promisify(scrypt) as (
  password: BinaryLike,
  salt: BinaryLike,
  keylen: number,
  options: ScryptOptions,
) => Promise<Buffer>;

/**
 * The work budget of one verification (docs/api-contract.md §12): at most 64 MiB of memory and about a second
 * of one core, measured per scheme on a 2-core Intel Xeon host with its reference implementation
 * (docs/migration.md, "Work budget"). A hash beyond it is refused at import, and one stored before
 * the budget existed is refused at sign-in without being computed (`importedHashOverBudget`).
 */
export const IMPORTED_HASH_BUDGET = {
  memoryBytes: 64 * 1024 * 1024,
  /** bcrypt: cost 14 ≈ 0.94 s. */
  bcryptMaxCost: 14,
  /** scrypt: 128·N·r bytes of memory, 128·N·r·p bytes worked through (320 MiB ≈ 0.8–1.1 s). */
  scryptMaxWorkBytes: 320 * 1024 * 1024,
  /** Argon2: m ≤ 64 MiB; m·t (KiB passes) ≤ 1 GiB, t = 16 at 64 MiB ≈ 0.85 s of CPU; p lanes are threads. */
  argon2MaxPasses: 1024 * 1024,
  argon2MaxLanes: 4,
  /** PBKDF2: iterations × blocks of the derived key (ceil(dkLen / digest length)), ≈ 1 s each. */
  pbkdf2MaxBlockIterations: { sha1: 4_000_000, sha256: 5_000_000, sha512: 1_700_000 } as Record<
    'sha1' | 'sha256' | 'sha512',
    number
  >,
  pbkdf2MaxKeyBytes: 64,
  /** Firebase's own ranges (its scrypt at rounds 8, mem_cost 14 is 16 MiB, ≈ 45 ms). */
  firebaseMaxRounds: 8,
  firebaseMaxMemCost: 14,
} as const;

const MIB = 1024 * 1024;
const PBKDF2_DIGEST_BYTES = { sha1: 20, sha256: 32, sha512: 64 } as const;

/** Standard or passlib's adapted base64 ('.' for '+'), padding optional. */
function b64(value: string): Buffer | null {
  if (!/^[A-Za-z0-9+/.\-_]*={0,2}$/.test(value)) return null;
  const buf = Buffer.from(
    value.replace(/\./g, '+').replace(/-/g, '+').replace(/_/g, '/'),
    'base64',
  );
  return buf.length ? buf : null;
}

function intIn(value: string | undefined, min: number, max: number): number | null {
  if (value === undefined || !/^\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}

/**
 * Reads an import line's `password_hash` (docs/api-contract.md §12): a string that names its scheme (modular
 * crypt `$2a$`/`$2b$`/`$2y$`, PHC `$argon2id$`/`$argon2i$`/`$scrypt$`/`$pbkdf2$`/`$pbkdf2-sha256$`/
 * `$pbkdf2-sha512$`, Django `pbkdf2_sha256$`/`pbkdf2_sha1$`), or an object for Firebase's modified
 * scrypt and for salted plain digests. Refuses what it cannot verify later, work beyond the limits,
 * and weak digests unless `allowWeak`.
 */
export function parseImportedHash(
  value: unknown,
  options: { allowWeak: boolean; firebase?: FirebaseScryptParameters | null },
): ParsedImportedHash {
  if (typeof value === 'string') return parseHashString(value);
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new ImportedHashError('must be a hash string or an object with an algorithm');
  const o = value as Record<string, unknown>;
  const hash = typeof o.hash === 'string' ? o.hash : null;
  if (!hash) throw new ImportedHashError('hash is required');
  if (o.algorithm === 'bcrypt_sha256') {
    // Ours, as a Gatehouse export writes it: bcrypt over the password's SHA-256 (passwords.ts).
    if (!/^\$2b\$\d{2}\$[./A-Za-z0-9]{53}$/.test(hash))
      throw new ImportedHashError('bcrypt_sha256 needs a $2b$ bcrypt hash');
    return withinBudget({ scheme: 'bcrypt-sha256', hash });
  }
  if (o.algorithm === 'firebase_scrypt') {
    // The project's parameters, or (a Gatehouse export) the line's own.
    const own = firebaseParametersOf({
      signer_key: o.signer_key as string | undefined,
      salt_separator: o.salt_separator as string | undefined,
      rounds: o.rounds as number | undefined,
      mem_cost: o.mem_cost as number | undefined,
    });
    if (typeof own === 'string') throw new ImportedHashError(own);
    const fb = own ?? options.firebase;
    if (!fb)
      throw new ImportedHashError(
        'firebase_scrypt needs the project parameters signer_key, salt_separator, rounds and mem_cost',
      );
    if (typeof o.salt !== 'string' || !b64(o.salt) || !b64(hash))
      throw new ImportedHashError('firebase_scrypt needs a base64 hash and salt');
    return withinBudget({
      scheme: 'firebase-scrypt',
      hash: JSON.stringify({
        hash,
        salt: o.salt,
        signer_key: fb.signer_key,
        salt_separator: fb.salt_separator,
        rounds: fb.rounds,
        mem_cost: fb.mem_cost,
      }),
    });
  }
  if (o.algorithm === 'sha256' || o.algorithm === 'sha512' || o.algorithm === 'md5') {
    if (!options.allowWeak)
      throw new ImportedHashError(
        `${o.algorithm} is a weak hash: import it only with allow_weak_hashes=true`,
      );
    const encoding = o.encoding ?? 'hex';
    if (encoding !== 'hex' && encoding !== 'base64')
      throw new ImportedHashError('encoding must be hex or base64');
    const position = o.salt_position ?? 'prefix';
    if (position !== 'prefix' && position !== 'suffix')
      throw new ImportedHashError('salt_position must be prefix or suffix');
    if (o.salt !== undefined && typeof o.salt !== 'string')
      throw new ImportedHashError('salt must be a string');
    const digestLength = { md5: 16, sha256: 32, sha512: 64 }[o.algorithm];
    const bytes =
      encoding === 'hex'
        ? /^[0-9a-fA-F]+$/.test(hash)
          ? Buffer.from(hash, 'hex')
          : null
        : b64(hash);
    if (!bytes || bytes.length !== digestLength)
      throw new ImportedHashError(`hash is not a ${o.algorithm} digest in ${encoding}`);
    return {
      scheme: o.algorithm,
      hash: JSON.stringify({ hash, encoding, salt: o.salt ?? '', salt_position: position }),
    };
  }
  throw new ImportedHashError('algorithm must be firebase_scrypt, sha256, sha512 or md5');
}

function parseHashString(value: string): ParsedImportedHash {
  if (value.length > 1024) throw new ImportedHashError('is too long');
  if (/^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/.test(value)) {
    const cost = Number(value.slice(4, 6));
    if (cost < 4 || cost > 31) throw new ImportedHashError('bcrypt cost must be 4–31');
    // $2y$ (PHP) is $2b$ under another name.
    return withinBudget({ scheme: 'bcrypt', hash: value.replace(/^\$2y\$/, '$2b$') });
  }
  const argon =
    /^\$argon2(?:id|i)\$v=19\$([a-z]=\d+(?:,[a-z]=\d+){2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(
      value,
    );
  if (argon) {
    // Parameters in any order (the reference encoder writes m,t,p; node-argon2 writes m,p,t).
    const params = Object.fromEntries(
      argon[1].split(',').map((kv) => kv.split('=') as [string, string]),
    );
    if (
      intIn(params.m, 8, 2 ** 32 - 1) === null ||
      intIn(params.t, 1, 2 ** 32 - 1) === null ||
      intIn(params.p, 1, 2 ** 24 - 1) === null
    )
      throw new ImportedHashError('argon2 needs m ≥ 8, t ≥ 1 and p ≥ 1');
    return withinBudget({ scheme: 'argon2', hash: value });
  }
  const sc = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([^$]+)\$([^$]+)$/.exec(value);
  if (sc) {
    if (
      intIn(sc[1], 1, 63) === null ||
      intIn(sc[2], 1, 2 ** 30 - 1) === null ||
      intIn(sc[3], 1, 2 ** 30 - 1) === null
    )
      throw new ImportedHashError('scrypt needs ln 1–63, r ≥ 1 and p ≥ 1');
    if (!b64(sc[4]) || !b64(sc[5]))
      throw new ImportedHashError('scrypt salt and hash must be base64');
    return withinBudget({ scheme: 'scrypt', hash: value });
  }
  const pb = /^\$pbkdf2(-sha256|-sha512)?\$(?:i=)?(\d+)\$([^$]+)\$([^$]+)$/.exec(value);
  if (pb) {
    if (intIn(pb[2], 1, 2 ** 32 - 1) === null)
      throw new ImportedHashError('pbkdf2 iterations must be at least 1');
    if (!b64(pb[3]) || !b64(pb[4]))
      throw new ImportedHashError('pbkdf2 salt and hash must be base64');
    return withinBudget({ scheme: 'pbkdf2', hash: value });
  }
  const dj = /^pbkdf2_(sha256|sha1)\$(\d+)\$([^$]+)\$([A-Za-z0-9+/]+=*)$/.exec(value);
  if (dj) {
    if (intIn(dj[2], 1, 2 ** 32 - 1) === null)
      throw new ImportedHashError('pbkdf2 iterations must be at least 1');
    return withinBudget({ scheme: 'pbkdf2', hash: value });
  }
  throw new ImportedHashError(
    'names no supported scheme (bcrypt, argon2, scrypt, pbkdf2, Django pbkdf2)',
  );
}

function withinBudget(parsed: ParsedImportedHash): ParsedImportedHash {
  const over = importedHashOverBudget(parsed.hash, parsed.scheme);
  if (over) throw new ImportedHashError(over);
  return parsed;
}

const mib = (bytes: number) => `${Math.round((bytes / MIB) * 10) / 10} MiB`;

/**
 * Why one verification of this stored hash would exceed the work budget (IMPORTED_HASH_BUDGET:
 * 64 MiB, about a second of one core), or null when it would not. Reads only the parameters: the
 * hash is never computed. A hash whose parameters cannot be read is over budget (nothing knows its
 * cost); salted digests cost one hash. `bcrypt-sha256` is ours and counts as bcrypt.
 */
export function importedHashOverBudget(
  stored: string,
  scheme: ImportedScheme | 'bcrypt-sha256',
): string | null {
  const B = IMPORTED_HASH_BUDGET;
  switch (scheme) {
    case 'bcrypt':
    case 'bcrypt-sha256': {
      const m = /^\$2[abxy]\$(\d{2})\$/.exec(stored);
      if (!m) return 'bcrypt hash without a readable cost';
      return Number(m[1]) > B.bcryptMaxCost
        ? `bcrypt cost ${Number(m[1])} is over the work budget (cost ≤ ${B.bcryptMaxCost}, about a second)`
        : null;
    }
    case 'argon2': {
      const m = /^\$argon2(?:id|i)\$v=19\$([a-z]=\d{1,10}(?:,[a-z]=\d{1,10}){2})\$/.exec(stored);
      if (!m) return 'argon2 hash without readable parameters';
      const p = Object.fromEntries(m[1].split(',').map((kv) => kv.split('='))) as Record<
        string,
        string | undefined
      >;
      const [mem, t, lanes] = [Number(p.m), Number(p.t), Number(p.p)];
      if (!(mem >= 1 && t >= 1 && lanes >= 1)) return 'argon2 hash without readable parameters';
      if (mem * 1024 > B.memoryBytes)
        return `argon2 m=${mem} KiB (${mib(mem * 1024)}) is over the work budget (m ≤ ${B.memoryBytes / 1024} KiB, ${mib(B.memoryBytes)} a verification)`;
      if (lanes > B.argon2MaxLanes)
        return `argon2 p=${lanes} is over the work budget (p ≤ ${B.argon2MaxLanes})`;
      if (mem * t > B.argon2MaxPasses)
        return `argon2 m·t = ${mem * t} is over the work budget (m·t ≤ ${B.argon2MaxPasses}, KiB; t ≤ 16 at 64 MiB)`;
      return null;
    }
    case 'scrypt': {
      const m = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,10}),p=(\d{1,10})\$/.exec(stored);
      if (!m) return 'scrypt hash without readable parameters';
      const [ln, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
      if (!(ln >= 1 && r >= 1 && p >= 1)) return 'scrypt hash without readable parameters';
      const memory = 128 * 2 ** ln * r;
      if (memory > B.memoryBytes)
        return `scrypt needs ${mib(memory)} (128·N·r); the work budget is ${mib(B.memoryBytes)} a verification`;
      if (memory * p > B.scryptMaxWorkBytes)
        return `scrypt p=${p} at ${mib(memory)} is over the work budget (128·N·r·p ≤ ${mib(B.scryptMaxWorkBytes)}, about a second)`;
      // OpenSSL (Node's scrypt) computes only N < 2^(16·r): such a hash could never verify.
      if (ln >= 16 * r) return `scrypt needs N < 2^(16·r)`;
      return null;
    }
    case 'pbkdf2': {
      const phc = /^\$pbkdf2(-sha256|-sha512)?\$(?:i=)?(\d{1,10})\$[^$]+\$([^$]+)$/.exec(stored);
      const dj = phc
        ? null
        : /^pbkdf2_(sha256|sha1)\$(\d{1,10})\$[^$]+\$([A-Za-z0-9+/]+=*)$/.exec(stored);
      if (!phc && !dj) return 'pbkdf2 hash without readable parameters';
      const digest = phc
        ? phc[1] === '-sha256'
          ? 'sha256'
          : phc[1] === '-sha512'
            ? 'sha512'
            : 'sha1'
        : (dj![1] as 'sha256' | 'sha1');
      const iterations = Number((phc ?? dj)![2]);
      const keyBytes = phc ? (b64(phc[3])?.length ?? 0) : Buffer.from(dj![3], 'base64').length;
      if (keyBytes < 1) return 'pbkdf2 hash without a readable derived key';
      if (keyBytes > B.pbkdf2MaxKeyBytes)
        return `pbkdf2 derived key of ${keyBytes} bytes is over the work budget (≤ ${B.pbkdf2MaxKeyBytes} bytes)`;
      const work = iterations * Math.ceil(keyBytes / PBKDF2_DIGEST_BYTES[digest]);
      const max = B.pbkdf2MaxBlockIterations[digest];
      if (work > max)
        return `pbkdf2-${digest} at ${iterations} iterations × ${Math.ceil(keyBytes / PBKDF2_DIGEST_BYTES[digest])} block(s) is over the work budget (≤ ${max}, about a second)`;
      return null;
    }
    case 'firebase-scrypt': {
      let p: { rounds?: unknown; mem_cost?: unknown };
      try {
        p = JSON.parse(stored) as typeof p;
      } catch {
        return 'firebase_scrypt hash without readable parameters';
      }
      const { rounds, mem_cost: memCost } = p;
      if (
        typeof rounds !== 'number' ||
        typeof memCost !== 'number' ||
        !Number.isInteger(rounds) ||
        !Number.isInteger(memCost) ||
        rounds < 1 ||
        memCost < 1
      )
        return 'firebase_scrypt hash without readable parameters';
      if (rounds > B.firebaseMaxRounds || memCost > B.firebaseMaxMemCost)
        return `firebase_scrypt rounds ${rounds}, mem_cost ${memCost} are over the work budget (rounds ≤ ${B.firebaseMaxRounds}, mem_cost ≤ ${B.firebaseMaxMemCost})`;
      return null;
    }
    case 'sha256':
    case 'sha512':
    case 'md5':
      return null;
  }
}

function same(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Verifies a password against an imported hash in its own scheme. The password as typed: the other system hashed it so. */
export async function verifyImportedHash(
  password: string,
  stored: string,
  scheme: ImportedScheme,
): Promise<boolean> {
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
        const derived = await scryptAsync(password, b64(m[4])!, expected.length, {
          N,
          r,
          p: Number(m[3]),
          maxmem: 256 * N * r + 1024 * 1024,
        });
        return same(derived, expected);
      }
      case 'pbkdf2': {
        const phc = /^\$pbkdf2(-sha256|-sha512)?\$(?:i=)?(\d+)\$([^$]+)\$([^$]+)$/.exec(stored);
        if (phc) {
          const expected = b64(phc[4])!;
          const digest = phc[1] === '-sha256' ? 'sha256' : phc[1] === '-sha512' ? 'sha512' : 'sha1';
          return same(
            await pbkdf2Async(password, b64(phc[3])!, Number(phc[2]), expected.length, digest),
            expected,
          );
        }
        const dj = /^pbkdf2_(sha256|sha1)\$(\d+)\$([^$]+)\$([A-Za-z0-9+/]+=*)$/.exec(stored)!;
        const expected = Buffer.from(dj[4], 'base64');
        // Django's salt is used as its text, not decoded.
        return same(
          await pbkdf2Async(password, dj[3], Number(dj[2]), expected.length, dj[1]),
          expected,
        );
      }
      case 'firebase-scrypt': {
        const p = JSON.parse(stored) as { hash: string; salt: string } & FirebaseScryptParameters;
        return await new FirebaseScrypt({
          memCost: p.mem_cost,
          rounds: p.rounds,
          saltSeparator: p.salt_separator,
          signerKey: p.signer_key,
        }).verify(password, p.salt, p.hash);
      }
      case 'sha256':
      case 'sha512':
      case 'md5': {
        const p = JSON.parse(stored) as {
          hash: string;
          encoding: 'hex' | 'base64';
          salt: string;
          salt_position: 'prefix' | 'suffix';
        };
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

export function firebaseParametersOf(input: {
  signer_key?: string;
  salt_separator?: string;
  rounds?: string | number;
  mem_cost?: string | number;
}): FirebaseScryptParameters | null | string {
  const given = [input.signer_key, input.salt_separator, input.rounds, input.mem_cost].filter(
    (v) => v !== undefined,
  ).length;
  if (given === 0) return null;
  if (given < 4) return 'signer_key, salt_separator, rounds and mem_cost go together';
  const rounds = intIn(String(input.rounds), 1, IMPORTED_HASH_BUDGET.firebaseMaxRounds);
  const memCost = intIn(String(input.mem_cost), 1, IMPORTED_HASH_BUDGET.firebaseMaxMemCost);
  if (rounds === null || memCost === null)
    return `rounds must be 1–${IMPORTED_HASH_BUDGET.firebaseMaxRounds} and mem_cost 1–${IMPORTED_HASH_BUDGET.firebaseMaxMemCost} (Firebase's own ranges, within the work budget)`;
  if (!b64(input.signer_key!) || !b64(input.salt_separator!))
    return 'signer_key and salt_separator must be base64';
  return {
    signer_key: input.signer_key!,
    salt_separator: input.salt_separator!,
    rounds,
    mem_cost: memCost,
  };
}
