import { appendFileSync } from 'node:fs';
import http, { type Server } from 'node:http';
import { createHash, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import Redis from 'ioredis';
import type { TestApp } from '../test-app';
import { answerViolations, type WireAnswer } from './answer-contract';
import {
  bodyFor,
  hostileNumber,
  hostileText,
  ID_PLACEHOLDER,
  plausibleBodyFor,
  type WireBody,
} from './hostile-values';
import { knownWords, operationsOf, type FuzzOperation } from './openapi-operations';
import { StateFingerprint, type Fingerprint } from './state-fingerprint';

/** A way of presenting credentials: valid (the fuzzer's own user or admin), or not. */
export interface FuzzMode {
  name: string;
  valid: boolean;
  /** Credential headers (`X-Service-Project-Key`, `Authorization`, `Cookie`…) and query parameters (`project_key`). */
  credentials: () => { headers: Record<string, string>; query: Record<string, string> };
}

export interface FuzzOptions {
  t: TestApp;
  /** Label for the report (`auth-runtime`, `control-plane`). */
  name: string;
  redisUrl: string;
  modes: FuzzMode[];
  /** Mints fresh valid credentials (after an answer that may have ended them, e.g. sign-out). */
  renew: () => Promise<void>;
  /**
   * Which rows are the fuzzer's own: rows of `table` whose id is `value()`, and rows of other
   * tables whose `column` is `value()`. Ids of every other row are foreign: a request naming one
   * must never succeed nor change anything.
   */
  ownership: { table: string; column: string; value: () => string };
  /** Hosts a redirect may lead to (the app's registered redirect URLs, the service itself). */
  redirectHosts: string[];
  /** Origins to present (allowed ones and not). */
  origins: string[];
  seed: number;
  /** Wall-clock budget for the whole run, first round included. */
  budgetMs: number;
  /** Cases per operation, credential group and round. */
  casesPerRound?: number;
  /** Called with one line per request and its answer (FUZZ_TRACE=<file> in the specs). */
  trace?: (line: string) => void;
}

export interface FuzzReport {
  seed: number;
  cases: number;
  rounds: number;
  stateChecks: number;
  statuses: Record<string, number>;
  /** Every operation (`METHOD /template`) and credential group (valid / not) tried. */
  covered: string[];
  operations: string[];
  ms: number;
}

interface FuzzCase {
  method: string;
  pathValues: {
    kind: 'own' | 'foreign' | 'fresh' | 'word' | 'hostile' | 'raw';
    text: string;
    pick: number;
  }[];
  query: {
    name: string;
    kind: 'credential' | 'value';
    text: string;
    encoding: 'encoded' | 'raw';
  }[];
  headers: [string, string | string[]][];
  declaredHeaders: [string, string][];
  body: WireBody;
  framing: Framing;
  forwardedFor: string;
}

/**
 * How a body is framed: by Content-Length, chunked, or not at all (the bytes follow the head of a
 * request that declares no body: the server must serve the request, then refuse the bytes as the
 * next one; the connection is closed after the answer).
 */
type Framing = 'length' | 'chunked' | 'unframed';

/** The request as it went on the wire, for the report. */
interface WireRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body: Buffer | null;
  bodyKind: string;
  framing: Framing;
}

const TOKEN_HEADER_NAME = /^[A-Za-z0-9-]{1,24}$/;

/** UTF-8 bytes as a latin1 string (one character a byte), minus what Node refuses to put in a header. */
function headerValue(text: string): string {
  return Buffer.from(text, 'utf8')
    .toString('latin1')
    .replace(/[\x00-\x08\x0a-\x1f\x7f]/g, '');
}

/** Percent-encodes every byte of the UTF-8 form that is not unreserved. */
function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(ch)
      ? ch
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Raw UTF-8 bytes on the wire (latin1 characters), with only what would break the request line encoded. */
function rawEncode(text: string, extra: RegExp): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out +=
      byte < 0x21 || byte === 0x7f || extra.test(ch)
        ? `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
        : ch;
  }
  return out;
}

/** Query values at the edges of what lists, pages and date filters take. */
const BOUNDARY_QUERY = [
  '0',
  '1',
  '2',
  '20',
  '99',
  '100',
  '101',
  '1000001',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  '',
  ' ',
  'true',
  '9999-12-31',
  '9999-12-30',
  '9999-12-31T23:59:59.999999Z',
  '1970-01-01',
  '1969-12-31',
  '0000-01-01',
  '2025-02-30',
  '2025-03-01T24:00:00Z',
  '+275760-09-13T00:00:00Z',
];

const latin1Text = fc.oneof(hostileText, fc.constantFrom('🔥', 'é', '\u00ff', '\u0100'));

function caseFor(
  op: FuzzOperation,
  words: readonly string[],
  origins: readonly string[],
  credentialHeaders: ReadonlySet<string>,
  credentialQuery: ReadonlySet<string>,
): fc.Arbitrary<FuzzCase> {
  const pathValue = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('own' as const),
        text: fc.constant(''),
        pick: fc.nat(),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('foreign' as const),
        text: fc.constant(''),
        pick: fc.nat(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('fresh' as const),
        text: fc.constant(''),
        pick: fc.nat(),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('word' as const),
        text: words.length ? fc.constantFrom(...words) : hostileText,
        pick: fc.nat(),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('hostile' as const),
        text: hostileText,
        pick: fc.nat(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('raw' as const), text: latin1Text, pick: fc.nat() }),
    },
  );
  const declaredQuery = op.query.map((p) =>
    fc.option(
      fc.record({
        name: fc.constant(p.name),
        kind: credentialQuery.has(p.name)
          ? fc.constantFrom('credential' as const, 'value' as const)
          : fc.constant('value' as const),
        text: fc.oneof(
          fc.constantFrom(...words, ...BOUNDARY_QUERY),
          hostileText,
          hostileNumber.map(String),
        ),
        encoding: fc.constantFrom('encoded' as const, 'encoded' as const, 'raw' as const),
      }),
      { freq: 3 },
    ),
  );
  const extraQuery = fc.array(
    fc.record({
      name: fc.oneof(
        fc.constantFrom(
          '__proto__',
          'constructor[prototype][polluted]',
          '__proto__[polluted]',
          'a[b]',
          'q[$ne]',
          'page[]',
          'limit',
        ),
        hostileText,
      ),
      kind: fc.constant('value' as const),
      text: hostileText,
      encoding: fc.constantFrom('encoded' as const, 'raw' as const),
    }),
    { maxLength: 2 },
  );
  const headerArb: fc.Arbitrary<[string, string | string[]]> = fc.oneof(
    fc.tuple(
      fc.constant('traceparent'),
      fc.oneof(
        fc.constant(`00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`),
        fc.constant(`ff-${'0'.repeat(32)}-${'0'.repeat(16)}-00`),
        hostileText,
      ),
    ),
    fc.tuple(
      fc.constant('Origin'),
      fc.oneof(fc.constantFrom(...origins, 'https://evil.example', 'null'), hostileText),
    ),
    fc.tuple(
      fc.constant('Cookie'),
      fc.oneof(
        hostileText.map((v) => `service_session=${v}`),
        hostileText.map((v) => `service_refresh_token=${v}`),
        fc.tuple(hostileText, hostileText).map(([k, v]) => `${k}=${v}`),
        fc.constant(`service_session=${'a'.repeat(5000)}; service_refresh_token=%ZZ; =; ;;`),
      ),
    ),
    fc.tuple(
      fc.constant('Accept'),
      fc.oneof(fc.constantFrom('application/xml', '*/*', 'text/html;q=0'), hostileText),
    ),
    fc.tuple(fc.constant('User-Agent'), fc.oneof(hostileText, fc.constant('u'.repeat(8000)))),
    fc.tuple(fc.constant('Accept-Language'), hostileText),
    fc.tuple(fc.constant('X-HTTP-Method-Override'), fc.constantFrom('DELETE', 'PUT', 'PATCH')),
    fc.tuple(fc.constant('Expect'), fc.constantFrom('100-continue', 'evil-expectation')),
    fc.tuple(fc.constant('Range'), fc.constantFrom('bytes=0-1', 'bytes=-1', 'evil')),
    fc.tuple(fc.constant('If-None-Match'), fc.constantFrom('*', '"x"')),
    fc.tuple(
      fc.constant('Host'),
      fc.oneof(fc.constantFrom('evil.example', 'localhost:1', 'a'.repeat(300)), hostileText),
    ),
    fc.tuple(
      fc.constantFrom('X-Service-Project-Key', 'Authorization'),
      fc.array(hostileText, { minLength: 2, maxLength: 2 }),
    ),
    fc.tuple(
      fc.constantFrom('X-Service-Project-Key', 'Authorization'),
      fc.oneof(
        hostileText,
        hostileText.map((v) => `Bearer ${v}`),
        fc.constant(`Bearer ${'a.'.repeat(3000)}`),
      ),
    ),
    fc.tuple(fc.stringMatching(TOKEN_HEADER_NAME), hostileText),
  );
  const wild = fc.record({
    method: fc.oneof(
      { weight: 19, arbitrary: fc.constant(op.method) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('get', 'post', 'put', 'patch', 'delete', 'head', 'options'),
      },
    ),
    pathValues: fc.tuple(...op.pathParams.map(() => pathValue)),
    query: fc
      .tuple(fc.tuple(...declaredQuery), extraQuery)
      .map(([declared, extra]) => [
        ...declared.filter((q): q is NonNullable<typeof q> => q !== null),
        ...extra,
      ]),
    headers: fc.array(headerArb, { maxLength: 3 }),
    declaredHeaders: fc.tuple(
      ...op.headers
        .filter((h) => !credentialHeaders.has(h.name.toLowerCase()))
        .map((h) => fc.tuple(fc.constant(h.name), hostileText)),
    ),
    body: fc.oneof(
      { weight: 1, arbitrary: fc.constant<WireBody>({ kind: 'none', bytes: null }) },
      { weight: op.body || op.method !== 'get' ? 4 : 1, arbitrary: bodyFor(op.body, words) },
    ),
    framing: fc.constantFrom<Framing>('length', 'length', 'chunked', 'chunked', 'unframed'),
    forwardedFor: fc.oneof(
      {
        weight: 8,
        arbitrary: fc
          .tuple(
            fc.constantFrom('198.51.100', '203.0.113', '192.0.2'),
            fc.integer({ min: 1, max: 254 }),
          )
          .map(([net, host]) => `${net}.${host}`),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '2001:db8::7',
          '127.0.0.1',
          '::ffff:127.0.0.1',
          '999.1.1.1',
          'unknown',
          ', ,',
          '198.51.100.1, 10.0.0.1',
        ),
      },
      { weight: 1, arbitrary: hostileText },
    ),
  });
  // A calm case is hostile in its body alone (or one member of it), everything else as a client
  // sends it, so requests get past the first checks and reach the code behind them.
  const calm = fc.record({
    method: fc.constant(op.method),
    pathValues: fc.tuple(
      ...op.pathParams.map(() =>
        fc.record({
          kind: fc.constantFrom('own' as const, 'own' as const, 'foreign' as const),
          text: fc.constant(''),
          pick: fc.nat(),
        }),
      ),
    ),
    query: fc
      .tuple(
        ...op.query
          .filter((p) => !credentialQuery.has(p.name))
          .map((p) =>
            fc.option(
              fc.record({
                name: fc.constant(p.name),
                kind: fc.constant('value' as const),
                text: fc.oneof(
                  { weight: 3, arbitrary: fc.constantFrom(...BOUNDARY_QUERY) },
                  { weight: 1, arbitrary: fc.constantFrom(...words, 'x') },
                ),
                encoding: fc.constant('encoded' as const),
              }),
              { freq: 2 },
            ),
          ),
      )
      .map((qs) => qs.filter((q): q is NonNullable<typeof q> => q !== null)),
    headers: fc.constant([] as FuzzCase['headers']),
    declaredHeaders: fc.constant([] as FuzzCase['declaredHeaders']),
    body: op.body
      ? plausibleBodyFor(op.body, words)
      : fc.constant<WireBody>({ kind: 'none', bytes: null }),
    framing: fc.constant<Framing>('length'),
    forwardedFor: fc
      .tuple(
        fc.constantFrom('198.51.100', '203.0.113', '192.0.2'),
        fc.integer({ min: 1, max: 254 }),
      )
      .map(([net, host]) => `${net}.${host}`),
  });
  return fc.oneof(wild, calm);
}

/** JSON with every character outside printable ASCII escaped, so a report shows the exact bytes. */
const show = (v: unknown): string =>
  (JSON.stringify(v) ?? 'undefined').replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

function describeRequest(r: WireRequest): string {
  const body =
    r.body === null
      ? 'no body'
      : `${r.bodyKind} (${r.body.length} bytes, ${r.framing}): ${show(r.body.subarray(0, 300).toString('latin1'))}`;
  const headers = Object.entries(r.headers).map(
    ([k, v]) => `${k}: ${show(Array.isArray(v) ? v.map((x) => x.slice(0, 120)) : v.slice(0, 120))}`,
  );
  return `${r.method.toUpperCase()} ${show(r.path.slice(0, 400))}\n    ${headers.join('\n    ')}\n    ${body}`;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function send(port: number, r: WireRequest): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const headers = { ...r.headers };
    if (r.body && r.framing === 'length') headers['Content-Length'] = String(r.body.length);
    if (r.body && r.framing === 'chunked') headers['Transfer-Encoding'] = 'chunked';
    if (r.body && r.framing === 'unframed') headers.Connection = 'close';
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: r.method.toUpperCase(),
        path: r.path,
        headers,
        agent,
        setHost: !Object.keys(headers).some((h) => h.toLowerCase() === 'host'),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error('no answer within 15 s')));
    req.on('error', reject);
    if (r.body && r.framing === 'unframed')
      (req as unknown as { useChunkedEncodingByDefault: boolean }).useChunkedEncodingByDefault =
        false;
    // Written before `end`, so Node does not add a Content-Length of its own.
    if (r.body && r.framing !== 'length') req.write(r.body);
    req.end(r.body && r.framing === 'length' ? r.body : undefined);
  });
}

/** A seed for one batch, derived from the run's seed so one number reproduces the whole run. */
function batchSeed(seed: number, ...parts: (string | number)[]): number {
  return createHash('sha256')
    .update([seed, ...parts].join('/'))
    .digest()
    .readUInt32BE(0);
}

/** Own properties of the built-in prototypes a polluting request could add to. */
function prototypeShapes(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((p) => Object.getOwnPropertyNames(p).sort().join(','))
    .join('|');
}

/**
 * Walks every operation of the app's OpenAPI document with hostile requests, round after round
 * until the budget is spent (the first round covers every operation with valid credentials and
 * without), and fails on the first answer that breaks the contract:
 * - no 5xx, no request left unanswered;
 * - every 4xx a whole problem of the catalog (`answerViolations`), no stack or SQL in any body,
 *   redirects only to the app's own hosts;
 * - no state change (`StateFingerprint`) from a request without valid credentials, whatever its
 *   answer, nor from one with valid credentials refused with a 4xx other than 401 (a failed sign-in
 *   legitimately records `user.sign_in_failed` and counts toward lockout) and 429; a request naming
 *   a foreign id never succeeds and changes nothing;
 * - no built-in prototype gains a property (the app runs in this process).
 * Cases come from fast-check arbitraries, seeded: the report's seed (FUZZ_SEED) replays the run.
 */
export async function fuzzApi(opts: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now();
  const { t } = opts;
  const server: Server = t.app.getHttpServer();
  if (!server.listening)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const doc = (await new Promise<Record<string, unknown>>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/docs/openapi.json', agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>),
        );
      })
      .on('error', reject);
  })) as unknown as Parameters<typeof operationsOf>[0];
  const ops = operationsOf(doc);
  const words = knownWords(doc);
  const credentialHeaders = new Set(
    opts.modes.flatMap((m) => Object.keys(m.credentials().headers).map((h) => h.toLowerCase())),
  );
  const credentialQuery = new Set(opts.modes.flatMap((m) => Object.keys(m.credentials().query)));
  const validModes = opts.modes.filter((m) => m.valid);
  const invalidModes = opts.modes.filter((m) => !m.valid);
  const redis = new Redis(opts.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1 });
  const state = new StateFingerprint(t.dataSource, redis);
  const shapes = prototypeShapes();
  const report: FuzzReport = {
    seed: opts.seed,
    cases: 0,
    rounds: 0,
    stateChecks: 0,
    statuses: {},
    covered: [],
    operations: ops.map((o) => `${o.method.toUpperCase()} ${o.template}`),
    ms: 0,
  };
  const covered = new Set<string>();

  /** Ids by table, the fuzzer's own and foreign ones; '' holds every table's. */
  type Pool = { own: string[]; foreign: string[] };
  let pools = new Map<string, Pool>();
  const loadPools = async () => {
    const { table, column } = opts.ownership;
    const tables = await t.dataSource.query<{ table_name: string; owned: boolean }[]>(
      `SELECT c.table_name, EXISTS (SELECT 1 FROM information_schema.columns o WHERE o.table_schema = 'public' AND o.table_name = c.table_name AND o.column_name = $1) AS owned
         FROM information_schema.columns c WHERE c.table_schema = 'public' AND c.column_name = 'id' AND c.data_type = 'uuid' ORDER BY c.table_name`,
      [column],
    );
    const parts = tables
      .filter((x) => x.owned || x.table_name === table)
      .map(
        (x) =>
          `(SELECT '${x.table_name}' AS t, id::text AS id, ${x.table_name === table ? 'id' : `"${column}"`}::text = $1 AS own FROM "${x.table_name}" ORDER BY id LIMIT 200)`,
      );
    const rows = parts.length
      ? await t.dataSource.query<{ t: string; id: string; own: boolean }[]>(
          parts.join(' UNION ALL '),
          [opts.ownership.value()],
        )
      : [];
    pools = new Map([['', { own: [], foreign: [] }]]);
    for (const r of rows) {
      for (const key of ['', r.t]) {
        const pool = pools.get(key) ?? { own: [], foreign: [] };
        (r.own ? pool.own : pool.foreign).push(r.id);
        pools.set(key, pool);
      }
    }
  };
  /**
   * An id for a path parameter or body member: of the table its name points to when there is one
   * (`/projects/{id}` → projects, `user_id` → users, `/api-keys/{keyId}` → api_keys), else of any.
   */
  const pickId = (kind: 'own' | 'foreign', pick: number, ...hints: string[]): string | null => {
    const tables = hints.map((h) =>
      h
        .replace(/([a-z])([A-Z])/g, '$1_$2')
        .toLowerCase()
        .replace(/-/g, '_')
        .replace(/_id$/, '')
        .replace(/(?<!s)$/, 's'),
    );
    const typed = tables.map((table) => pools.get(table)?.[kind]).find((p) => p?.length);
    const pool = typed ?? pools.get('')![kind];
    return pool.length ? pool[pick % pool.length] : null;
  };
  await loadPools();

  let baseline: Fingerprint | null = null;
  const runCase = async (op: FuzzOperation, mode: FuzzMode, c: FuzzCase, label: string) => {
    const creds = mode.credentials();
    let foreign = false;
    // The resource a path parameter names: the segment before it.
    const resources = [...op.template.matchAll(/([^/]+)\/\{[^}]+\}/g)].map((m) => m[1]);
    const segments = c.pathValues.map((v, n) => {
      switch (v.kind) {
        case 'own':
          return pickId('own', v.pick, op.pathParams[n] ?? '', resources[n] ?? '') ?? randomUUID();
        case 'foreign': {
          const id = pickId('foreign', v.pick, op.pathParams[n] ?? '', resources[n] ?? '');
          if (id) foreign = true;
          return id ?? randomUUID();
        }
        case 'fresh':
          return randomUUID();
        case 'raw':
          return rawEncode(v.text, /[/?#%]/);
        default:
          return percentEncode(v.text);
      }
    });
    let i = 0;
    const pathname = op.template.replace(/\{[^}]+\}/g, () => segments[i++] ?? '');
    const pairs: string[] = [];
    for (const q of c.query) {
      const value = q.kind === 'credential' ? creds.query[q.name] : q.text;
      if (value === undefined) continue;
      const enc = (s: string) =>
        q.encoding === 'raw' ? rawEncode(s, /[&#=+%]/) : percentEncode(s);
      pairs.push(`${enc(q.name)}=${enc(value)}`);
    }
    // Credential query parameters the mode names are sent unless the case replaced them.
    for (const [name, value] of Object.entries(creds.query))
      if (!c.query.some((q) => q.name === name)) pairs.push(`${name}=${percentEncode(value)}`);
    const path = pairs.length ? `${pathname}?${pairs.join('&')}` : pathname;

    const headers: Record<string, string | string[]> = {
      'X-Forwarded-For': headerValue(c.forwardedFor),
    };
    for (const [k, v] of Object.entries(creds.headers)) headers[k] = v;
    for (const [k, v] of c.declaredHeaders) headers[k] = headerValue(v);
    for (const [k, v] of c.headers) {
      const isCredential = credentialHeaders.has(k.toLowerCase());
      // A case may add a cookie to a bearer request or duplicate a credential header; it replaces
      // a credential only when the mode's credentials are not valid anyway.
      if (isCredential && k !== 'Cookie' && !Array.isArray(v) && mode.valid) continue;
      headers[k] = Array.isArray(v) ? v.map(headerValue) : headerValue(v);
    }
    // A duplicated credential header may spoil valid credentials (a joined project key) or not (Node
    // keeps the first Authorization): the checks of the mode still hold, at most more leniently.
    const replacedCredential = c.headers.some(
      ([k, v]) => Array.isArray(v) && credentialHeaders.has(k.toLowerCase()),
    );
    const valid = mode.valid;
    if (c.body.contentType !== undefined && c.body.bytes)
      headers['Content-Type'] = c.body.contentType;
    if (c.body.contentEncoding) headers['Content-Encoding'] = c.body.contentEncoding;
    let bodyBytes = c.body.bytes;
    if (bodyBytes && bodyBytes.includes('~~')) {
      const text = bodyBytes
        .toString('latin1')
        .replace(ID_PLACEHOLDER, (_m, kind: 'own' | 'foreign', n: string, hint: string) => {
          const id = pickId(kind, Number(n), hint);
          // An unframed body is no body to the server (HTTP/1.1 without Content-Length or chunking):
          // a foreign id in it names nothing the request acts on.
          if (kind === 'foreign' && id && c.framing !== 'unframed') foreign = true;
          return id ?? randomUUID();
        });
      bodyBytes = Buffer.from(text, 'latin1');
    }
    const request: WireRequest = {
      method: c.method,
      path,
      headers,
      body: bodyBytes,
      bodyKind: c.body.kind,
      framing: c.framing,
    };

    const before = baseline ?? (await state.take());
    let answer: WireAnswer;
    try {
      answer = await send(port, request);
    } catch (err) {
      throw new Error(
        `${label}: no answer (${err instanceof Error ? err.message : String(err)})\n  request: ${describeRequest(request)}`,
      );
    }
    report.cases += 1;
    opts.trace?.(
      `${label} [${mode.name}] ${describeRequest(request).replace(/\n\s*/g, ' | ')} => ${answer.status} ${answer.body.slice(0, 200)}`,
    );
    report.statuses[answer.status] = (report.statuses[answer.status] ?? 0) + 1;
    covered.add(`${op.method.toUpperCase()} ${op.template} ${mode.valid ? 'valid' : 'invalid'}`);

    const fields = Object.entries(headers);
    const traceparentIndex = fields.findIndex(([name]) => name.toLowerCase() === 'traceparent');
    const traceparent = fields[traceparentIndex]?.[1];
    // Where the traceparent line starts in the head as sent: the request line and the fields before it.
    const traceparentAt = fields
      .slice(0, Math.max(0, traceparentIndex))
      .flatMap(([name, value]) =>
        (Array.isArray(value) ? value : [value]).map((v) => `${name}: ${v}\r\n`),
      )
      .reduce(
        (n, line) => n + Buffer.byteLength(line, 'latin1'),
        Buffer.byteLength(`${request.method.toUpperCase()} ${request.path} HTTP/1.1\r\n`, 'latin1'),
      );
    const problems = answerViolations(
      answer,
      {
        method: c.method.toUpperCase(),
        path,
        traceparent: typeof traceparent === 'string' ? traceparent : undefined,
        traceparentAt,
      },
      { errorTypeBase: t.config.http.errorTypeBase, redirectHosts: opts.redirectHosts },
    );
    const success = answer.status < 400;
    // OPTIONS is a CORS preflight: it acts on nothing, whatever the path names.
    if (foreign && success && c.method !== 'options')
      problems.push(`a request naming a foreign id answered ${answer.status}`);
    const mustNotChange =
      !valid || foreign || (answer.status >= 400 && answer.status !== 401 && answer.status !== 429);
    let after: Fingerprint | null = null;
    if (mustNotChange) {
      after = await state.take();
      report.stateChecks += 1;
      const changed = StateFingerprint.diff(before, after);
      if (changed.length) problems.push(`state changed:\n      ${changed.join('\n      ')}`);
    }
    if (prototypeShapes() !== shapes || ({} as Record<string, unknown>).polluted !== undefined)
      problems.push('a built-in prototype was polluted');
    if (problems.length) {
      throw new Error(
        `${label} (credentials: ${mode.name}${replacedCredential ? ', duplicated' : ''}):\n  ${problems.join('\n  ')}\n  request: ${describeRequest(request)}\n  answer: ${answer.status} ${show(answer.headers['content-type'])} ${show(answer.body.slice(0, 600))}`,
      );
    }
    if (after && !(valid && success)) {
      baseline = after;
      return;
    }
    baseline = null;
    const unauthenticated = answer.status === 401 && answer.body.includes('/unauthenticated"');
    if (valid && (success || unauthenticated)) await opts.renew();
    await loadPools();
  };

  const perRound = opts.casesPerRound ?? 1;
  try {
    for (let round = 0; round === 0 || Date.now() - started < opts.budgetMs; round++) {
      report.rounds = round + 1;
      for (const [index, op] of ops.entries()) {
        for (const group of [validModes, invalidModes]) {
          if (round > 0 && Date.now() - started >= opts.budgetMs) break;
          const seed = batchSeed(
            opts.seed,
            round,
            index,
            group === validModes ? 'valid' : 'invalid',
          );
          const cases = fc.sample(
            fc.tuple(
              fc.constantFrom(...group),
              caseFor(op, words, opts.origins, credentialHeaders, credentialQuery),
            ),
            { seed, numRuns: perRound },
          );
          for (const [n, [mode, c]] of cases.entries()) {
            await runCase(
              op,
              mode,
              c,
              `${opts.name} seed ${opts.seed}, round ${round}, ${op.method.toUpperCase()} ${op.template}, case ${n}`,
            );
          }
        }
      }
    }
  } finally {
    redis.disconnect();
    report.ms = Date.now() - started;
    report.covered = [...covered].sort();
  }
  return report;
}

/**
 * The seed and budget of a run: FUZZ_SEED and FUZZ_SECONDS when set, else a fresh seed and the
 * default; FUZZ_TRACE=<file> appends one line per request to that file.
 */
export function fuzzSettings(defaultSeconds: number): {
  seed: number;
  budgetMs: number;
  trace?: (line: string) => void;
} {
  // eslint-disable-next-line no-restricted-properties -- the fuzz harness reads its own knobs
  const env = process.env;
  const seed = env.FUZZ_SEED ? Number(env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
  const seconds = env.FUZZ_SECONDS ? Number(env.FUZZ_SECONDS) : defaultSeconds;
  if (!Number.isInteger(seed) || !(seconds > 0))
    throw new Error('FUZZ_SEED must be an integer and FUZZ_SECONDS a positive number');
  const file = env.FUZZ_TRACE;
  return {
    seed,
    budgetMs: seconds * 1000,
    ...(file ? { trace: (line: string) => appendFileSync(file, `${line}\n`) } : {}),
  };
}
