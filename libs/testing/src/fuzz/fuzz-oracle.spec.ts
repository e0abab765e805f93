import fc from 'fast-check';
import { answerViolations, type WireAnswer } from './answer-contract';
import { bodyFor, hostileText, ID_PLACEHOLDER, plausibleObject } from './hostile-values';
import { knownWords, operationsOf } from './openapi-operations';
import { StateFingerprint, type Fingerprint } from './state-fingerprint';

const BASE = 'https://gatehouse.dev/problems';
const TRACE = '0af7651916cd43dd8448eb211c80319c';
const req = { method: 'POST', path: '/v1/things/1?x=2' };
const check = (
  a: Partial<WireAnswer> & { body: string },
  opts: { redirectHosts?: string[] } = {},
) =>
  answerViolations(
    {
      status: 400,
      headers: {
        'content-type': 'application/problem+json',
        traceresponse: `00-${TRACE}-b7ad6b7169203331-01`,
      },
      ...a,
    },
    req,
    { errorTypeBase: BASE, redirectHosts: opts.redirectHosts ?? [] },
  );
const problem = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: `${BASE}/validation-error`,
    title: 'Validation Error',
    status: 400,
    detail: 'Bad.',
    instance: '/v1/things/1',
    traceId: TRACE,
    errors: { name: ['must be a string'] },
    ...over,
  });

describe('answerViolations', () => {
  it('accepts a whole problem of the catalog and a plain success', () => {
    expect(check({ body: problem() })).toEqual([]);
    expect(
      check({
        status: 409,
        body: problem({
          type: `${BASE}/conflict`,
          title: 'Conflict',
          status: 409,
          errors: undefined,
          organization_ids: ['x'],
        }),
      }),
    ).toEqual([]);
    expect(
      check({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' }),
    ).toEqual([]);
  });

  it('names each way an answer breaks the contract', () => {
    expect(check({ status: 500, body: problem({ status: 500 }) })).toContain('answered 500');
    expect(check({ headers: { 'content-type': 'text/html' }, body: problem() })).toContain(
      'a 400 of type "text/html"',
    );
    expect(check({ body: '' })).toEqual(
      expect.arrayContaining([expect.stringMatching(/body is not JSON/)]),
    );
    expect(check({ body: problem({ type: `${BASE}/made-up` }) })).toContain(
      'problem type "https://gatehouse.dev/problems/made-up" is not in the catalog',
    );
    expect(check({ body: problem({ title: 'Oops' }) })).toContain(
      'title "Oops" is not the catalog\'s for validation-error',
    );
    expect(check({ status: 404, body: problem({ status: 404 }) })).toContain(
      'slug validation-error (400) answered with 404',
    );
    expect(check({ body: problem({ instance: '/elsewhere' }) })).toContain(
      'instance "/elsewhere" is not the path "/v1/things/1"',
    );
    expect(check({ body: problem({ instance: undefined }) })).toContain(
      'instance undefined is not the path "/v1/things/1"',
    );
    expect(check({ body: problem({ errors: { name: 'x' } }) })).toContain(
      'errors {"name":"x"} is not field -> messages',
    );
    expect(check({ body: problem({ traceId: 'nope' }) })).toContain('traceId "nope"');
    expect(
      check({ headers: { 'content-type': 'application/problem+json' }, body: problem() }),
    ).toContain("traceresponse does not carry the body's trace id");
    expect(check({ body: problem({ Stack: 'x' }) })).toContain('unexpected member "Stack"');
    expect(
      check({
        status: 405,
        body: problem({
          type: `${BASE}/method-not-allowed`,
          title: 'Method Not Allowed',
          status: 405,
          errors: undefined,
        }),
      }),
    ).toContain('a 405 without Allow');
    expect(
      check({
        status: 429,
        body: problem({
          type: `${BASE}/rate-limited`,
          title: 'Too Many Requests',
          status: 429,
          errors: undefined,
        }),
      }),
    ).toContain('a 429 without Retry-After');
  });

  it('finds stack frames, driver errors, SQL and file paths in any body, success included', () => {
    const leaks = [
      'Error: x\n    at Object.<anonymous> (/app/dist/main.js:10:5)',
      'QueryFailedError: boom',
      'SELECT id FROM users WHERE email = $1',
      'duplicate key value violates unique constraint "users_pkey"',
      'see /work/app/src/users/users.service.ts',
    ];
    for (const leak of leaks)
      expect(
        check({
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ detail: leak }),
        }),
      ).not.toEqual([]);
  });

  it('lets a redirect lead only to the hosts given, and a 304 answer only a GET', () => {
    expect(
      check(
        { status: 302, headers: { location: 'https://app.example.com/cb?error=x' }, body: '' },
        { redirectHosts: ['app.example.com'] },
      ),
    ).toEqual([]);
    expect(
      check(
        { status: 302, headers: { location: 'https://evil.example/' }, body: '' },
        { redirectHosts: ['app.example.com'] },
      ),
    ).toEqual(['redirects to "https://evil.example/"']);
    expect(check({ status: 304, headers: {}, body: '' })).toEqual(['answered 304 to POST']);
  });

  it('wants the trace id of a valid traceparent, and any trace id for an invalid one', () => {
    const traced = (traceparent: string) =>
      answerViolations(
        {
          status: 400,
          headers: {
            'content-type': 'application/problem+json',
            traceresponse: `00-${TRACE}-b7ad6b7169203331-01`,
          },
          body: problem(),
        },
        { ...req, traceparent },
        { errorTypeBase: BASE, redirectHosts: [] },
      );
    expect(traced(`00-${TRACE}-b7ad6b7169203331-01`)).toEqual([]);
    expect(traced(`00-${'1'.repeat(32)}-b7ad6b7169203331-01`)).toEqual([
      `traceId "${TRACE}" is not the request's traceparent's ${'1'.repeat(32)}`,
    ]);
    expect(traced(`ff-${'1'.repeat(32)}-b7ad6b7169203331-01`)).toEqual([]);
    // A parser refusal of a request line over the header limit cannot read the headers after it.
    const longLine = answerViolations(
      {
        status: 431,
        headers: {
          'content-type': 'application/problem+json',
          connection: 'close',
          traceresponse: `00-${TRACE}-b7ad6b7169203331-01`,
        },
        body: problem({
          type: `${BASE}/headers-too-large`,
          title: 'Request Header Fields Too Large',
          status: 431,
          errors: undefined,
        }),
      },
      {
        method: 'GET',
        path: `/v1/things/1?q=${'x'.repeat(20_000)}`,
        traceparent: `00-${'1'.repeat(32)}-b7ad6b7169203331-01`,
      },
      { errorTypeBase: BASE, redirectHosts: [] },
    );
    expect(longLine).toEqual([]);
    // Nor one whose fields sent before the traceparent pass the limit (seed 206449466: a long
    // duplicated X-Service-Project-Key); with a short head before it the trace id is still wanted.
    const refusalAt = (traceparentAt: number, status = 431) =>
      answerViolations(
        {
          status,
          headers: {
            'content-type': 'application/problem+json',
            connection: 'close',
            traceresponse: `00-${TRACE}-b7ad6b7169203331-01`,
          },
          body: problem(
            status === 431
              ? {
                  type: `${BASE}/headers-too-large`,
                  title: 'Request Header Fields Too Large',
                  status: 431,
                  errors: undefined,
                }
              : { type: `${BASE}/bad-request`, title: 'Bad Request', errors: undefined },
          ),
        },
        {
          method: 'GET',
          path: '/v1/things/1',
          traceparent: `00-${'1'.repeat(32)}-b7ad6b7169203331-01`,
          traceparentAt,
        },
        { errorTypeBase: BASE, redirectHosts: [] },
      );
    expect(refusalAt(40_000)).toEqual([]);
    // A 431's head passed the limit, so it may have begun in an earlier chunk than the one the
    // parser refused: even a traceparent near its start may be unread. A 400 for a bad byte early
    // in a short head is read whole, and its trace id is wanted.
    expect(refusalAt(200)).toEqual([]);
    expect(refusalAt(200, 400)).toEqual([
      `traceId "${TRACE}" is not the request's traceparent's ${'1'.repeat(32)}`,
    ]);
  });

  it('wants a parser refusal to name the path, percent-encoded where it must be (found by the review: some had no instance)', () => {
    const refusal = (instance?: string) =>
      answerViolations(
        {
          status: 400,
          headers: {
            'content-type': 'application/problem+json',
            connection: 'close',
            traceresponse: `00-${TRACE}-b7ad6b7169203331-01`,
          },
          body: problem({ instance }),
        },
        { method: 'GET', path: '/a/\u00e9' },
        { errorTypeBase: BASE, redirectHosts: [] },
      );
    expect(refusal()).toEqual(['instance undefined is not the path "/a/\u00e9"']);
    expect(refusal('/a/%E9')).toEqual([]);
    expect(refusal('/a/%C3%A9')).toEqual([]);
    expect(refusal('/b')).not.toEqual([]);
    // A path over the header limit may end past the bytes the parser hands over.
    const long = `/a/${'\u00e9'.repeat(20_000)}`;
    const longRefusal = (status: number) =>
      answerViolations(
        {
          status,
          headers: {
            'content-type': 'application/problem+json',
            connection: 'close',
            traceresponse: `00-${TRACE}-b7ad6b7169203331-01`,
          },
          body: problem({
            instance: undefined,
            status,
            ...(status === 431
              ? {
                  type: `${BASE}/headers-too-large`,
                  title: 'Request Header Fields Too Large',
                  errors: undefined,
                }
              : {}),
          }),
        },
        { method: 'GET', path: long },
        { errorTypeBase: BASE, redirectHosts: [] },
      );
    expect(longRefusal(400)).toEqual([]);
    expect(longRefusal(431)).toEqual([]);
  });
});

describe('StateFingerprint.diff', () => {
  const print = (
    tables: [string, string][],
    keys: [string, string, number][],
    takenAt: number,
  ): Fingerprint => ({
    tables: new Map(tables),
    keys: new Map(keys.map(([k, digest, ttlMs]) => [k, { digest, ttlMs }])),
    takenAt,
  });

  it('reports changed tables and added, changed or removed keys', () => {
    const a = print(
      [
        ['users', '1:a'],
        ['sessions', '0:x'],
      ],
      [
        ['k1', 'd1', -1],
        ['k2', 'd2', -1],
        ['k3', 'd3', -1],
      ],
      0,
    );
    const b = print(
      [
        ['users', '2:b'],
        ['sessions', '0:x'],
      ],
      [
        ['k1', 'd1', -1],
        ['k2', 'zz', -1],
        ['k4', 'd4', -1],
      ],
      50,
    );
    expect(StateFingerprint.diff(a, b)).toEqual([
      'table users: 1:a -> 2:b',
      'redis key changed: k2',
      'redis key added: k4',
      'redis key removed: k3',
    ]);
    expect(StateFingerprint.diff(a, a)).toEqual([]);
  });

  it('does not count a key that expired on its own during the request', () => {
    const a = print(
      [],
      [
        ['short', 'd', 400],
        ['long', 'd', 60_000],
      ],
      0,
    );
    const b = print([], [], 100);
    expect(StateFingerprint.diff(a, b)).toEqual(['redis key removed: long']);
  });
});

describe('the OpenAPI walk and the generators', () => {
  const doc = {
    paths: {
      '/v1/things/{id}': {
        patch: {
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'limit', in: 'query', required: false, schema: {} },
            { name: 'X-Key', in: 'header', required: true, schema: { type: 'string' } },
          ],
          requestBody: {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Patch' } } },
          },
        },
        delete: {},
      },
    },
    components: {
      schemas: {
        Patch: {
          type: 'object',
          properties: {
            owner_id: { type: 'string' },
            nested: { allOf: [{ $ref: '#/components/schemas/Inner' }] },
          },
          required: ['owner_id'],
        },
        Inner: {
          type: 'object',
          properties: { role: { type: 'string', enum: ['admin', 'member'] } },
        },
      },
    },
  };

  it('lists every operation with its parameters and its body schema, $refs and allOf resolved', () => {
    const [patch, del] = operationsOf(doc);
    expect(patch).toMatchObject({
      method: 'patch',
      template: '/v1/things/{id}',
      pathParams: ['id'],
      methodsOfPath: ['patch', 'delete'],
    });
    expect(patch.query.map((q) => q.name)).toEqual(['limit']);
    expect(patch.headers.map((h) => h.name)).toEqual(['X-Key']);
    expect(patch.body?.properties?.nested?.properties?.role?.enum).toEqual(['admin', 'member']);
    expect(del).toMatchObject({ method: 'delete', body: null });
    expect(knownWords(doc)).toEqual(['admin', 'member']);
  });

  it('draws the same cases from the same seed, hostile text with NUL, lone surrogates and polluting keys among them', () => {
    const body = operationsOf(doc)[0].body;
    const draw = (seed: number) =>
      fc
        .sample(bodyFor(body, ['admin']), { seed, numRuns: 300 })
        .map((b) => `${b.kind}:${b.bytes?.toString('latin1').slice(0, 200) ?? ''}`);
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    const texts = fc.sample(hostileText, { seed: 1, numRuns: 2000 });
    expect(texts.some((s) => s.includes('\u0000'))).toBe(true);
    expect(texts.some((s) => !s.isWellFormed())).toBe(true);
    expect(draw(7).some((b) => b.includes('__proto__'))).toBe(true);
  });

  it('fills members named like ids with placeholders the runner swaps for own or foreign ids', () => {
    const objects = fc.sample(plausibleObject(operationsOf(doc)[0].body!, 0, []), {
      seed: 3,
      numRuns: 20,
    });
    for (const o of objects) expect(String(o.owner_id)).toMatch(new RegExp(ID_PLACEHOLDER.source));
  });
});
