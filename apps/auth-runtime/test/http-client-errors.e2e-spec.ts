import type { ProblemSlug } from '@gatehouse/problem-details';
import { Session } from '@gatehouse/entities';
import {
  expectRawProblem,
  listenOnLoopback,
  parseRawResponses,
  rawHttp,
  seedTenant,
  signUpUser,
  startTestApp,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';

/**
 * Requests that Node's HTTP parser refuses before any of our code sees them, sent as raw bytes to a
 * listening app: each is answered as a problem (docs/api-contract.md §4) by the server's `clientError` hook,
 * never with an empty 400 or 431, and the connection is closed.
 */
describe('requests refused by the HTTP parser (auth-runtime)', () => {
  let t: TestApp;
  let port: number;
  const H = 'Host: auth.test\r\n';

  beforeAll(async () => {
    t = await startTestApp(buildAuthRuntime);
    port = await listenOnLoopback(t);
  });
  afterAll(() => t.close());

  const refused: [
    name: string,
    raw: string,
    status: number,
    slug: ProblemSlug,
    instance: string | undefined,
  ][] = [
    [
      'a bare CR in a header value',
      `GET /v1/auth/me?x=1 HTTP/1.1\r\n${H}X-A: a\rb\r\n\r\n`,
      400,
      'bad-request',
      '/v1/auth/me',
    ],
    [
      'a bare LF in a header value',
      `GET /v1/auth/me HTTP/1.1\r\n${H}X-A: a\nb\r\n\r\n`,
      400,
      'bad-request',
      '/v1/auth/me',
    ],
    [
      'a NUL in a header value',
      `POST /v1/auth/sign-in HTTP/1.1\r\n${H}X-Service-Project-Key: pk_\u0000\r\n\r\n`,
      400,
      'bad-request',
      '/v1/auth/sign-in',
    ],
    [
      'a space in a header name',
      `GET /v1/auth/me HTTP/1.1\r\n${H}Bad Name: v\r\n\r\n`,
      400,
      'bad-request',
      '/v1/auth/me',
    ],
    [
      'raw non-ASCII bytes in the path',
      `GET /v1/auth/\u00e9t\u00e9?q=\u00ff HTTP/1.1\r\n${H}\r\n`,
      400,
      'bad-request',
      '/v1/auth/%E9t%E9',
    ],
    [
      'a control byte and quotes in the path',
      `GET /v1/auth/a\u0001"<b> HTTP/1.1\r\n${H}\r\n`,
      400,
      'bad-request',
      '/v1/auth/a%01%22%3Cb%3E',
    ],
    [
      'an invalid method',
      `G@T /v1/auth/me HTTP/1.1\r\n${H}\r\n`,
      400,
      'bad-request',
      '/v1/auth/me',
    ],
    [
      'an unknown HTTP version',
      `GET /v1/auth/me HTTP/9.9\r\n${H}\r\n`,
      400,
      'bad-request',
      '/v1/auth/me',
    ],
    [
      'a space inside the path',
      `GET /v1/auth/a b HTTP/1.1\r\n${H}\r\n`,
      400,
      'bad-request',
      '/v1/auth/a%20b',
    ],
    // Found by the review's fuzzing: a target with raw whitespace lost its instance.
    [
      'a tab and a line feed inside the path',
      `GET /v1/auth/sessions/\t\n HTTP/1.1\r\n${H}\r\n`,
      400,
      'bad-request',
      '/v1/auth/sessions/%09%0A',
    ],
    [
      'a line feed in the query',
      `POST /v1/auth/sign-in?a=\nb HTTP/1.1\r\n${H}\r\n`,
      400,
      'bad-request',
      '/v1/auth/sign-in',
    ],
    [
      'a Content-Length that is not a number',
      `POST /v1/auth/sign-in HTTP/1.1\r\n${H}Content-Type: application/json\r\nContent-Length: 1e3\r\n\r\n{}`,
      400,
      'bad-request',
      '/v1/auth/sign-in',
    ],
    [
      'Content-Length beside Transfer-Encoding (request smuggling)',
      `POST /v1/auth/sign-in HTTP/1.1\r\n${H}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      400,
      'bad-request',
      '/v1/auth/sign-in',
    ],
    [
      'a malformed chunk size',
      `POST /v1/auth/sign-in HTTP/1.1\r\n${H}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      400,
      'bad-request',
      '/v1/auth/sign-in',
    ],
    [
      'header fields over 16 KiB',
      `GET /v1/auth/me?q=1 HTTP/1.1\r\n${H}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'headers-too-large',
      '/v1/auth/me',
    ],
    // The whole line is in the packet: its path is named, however long (found by the review: a path over 2 KiB lost its instance).
    [
      'a request line over 16 KiB',
      `GET /${'a'.repeat(20_000)} HTTP/1.1\r\n${H}\r\n`,
      431,
      'headers-too-large',
      `/${'a'.repeat(20_000)}`,
    ],
    [
      'a path of 3 KiB with a bad header',
      `GET /v1/auth/${'b'.repeat(3000)} HTTP/1.1\r\n${H}X-A: a\u0000\r\n\r\n`,
      400,
      'bad-request',
      `/v1/auth/${'b'.repeat(3000)}`,
    ],
    [
      'a TLS handshake on the plain-HTTP port',
      '\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003',
      400,
      'bad-request',
      undefined,
    ],
  ];

  it.each(refused)(
    'answers %s as a problem and closes the connection',
    async (_name, raw, status, slug, instance) => {
      const { response, closed } = await rawHttp(port, raw);
      expectRawProblem(response, status, slug, instance);
      expect(response!.raw.length).toBe(
        response!.raw.indexOf('\r\n\r\n') + 4 + Buffer.byteLength(response!.body),
      );
      expect(closed).toBe(true);
    },
  );

  it("answers a pipelined packet in order, naming the refused request's own path (its head follows the whole one before it)", async () => {
    const { raw } = await rawHttp(
      port,
      `GET /health/live HTTP/1.1\r\n${H}\r\nGET /v1/auth/me HTTP/1.1\r\n${H}X-A: a\u0000\r\n\r\n`,
    );
    const [first, second, ...more] = parseRawResponses(raw);
    expect(first?.status).toBe(200);
    expectRawProblem(second ?? null, 400, 'bad-request', '/v1/auth/me');
    expect(more).toEqual([]);
  });

  const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
  it.each([
    [
      'a NUL in a header after it',
      `GET /v1/auth/me HTTP/1.1\r\n${H}traceparent: 00-${TRACE}-00f067aa0ba902b7-01\r\nX-A: a\u0000\r\n\r\n`,
      400,
      'bad-request',
    ],
    [
      'a NUL in a header before it',
      `GET /v1/auth/me HTTP/1.1\r\n${H}X-A: a\u0000\r\nTraceparent:  00-${TRACE}-00f067aa0ba902b7-01 \r\n\r\n`,
      400,
      'bad-request',
    ],
    [
      'a header block over 16 KiB',
      `GET /v1/auth/me HTTP/1.1\r\n${H}traceparent: 00-${TRACE}-00f067aa0ba902b7-01\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'headers-too-large',
    ],
  ] as [string, string, number, ProblemSlug][])(
    'keeps the trace id of a readable traceparent when refusing %s',
    async (_name, raw, status, slug) => {
      const { response } = await rawHttp(port, raw);
      const body = expectRawProblem(response, status, slug, '/v1/auth/me');
      expect(body.traceId).toBe(TRACE);
    },
  );

  it('ignores an invalid traceparent on a refused request (a fresh trace id)', async () => {
    const { response } = await rawHttp(
      port,
      `GET /v1/auth/me HTTP/1.1\r\n${H}traceparent: ff-${TRACE}-00f067aa0ba902b7-01\r\nX-A: a\u0000\r\n\r\n`,
    );
    const body = expectRawProblem(response, 400, 'bad-request', '/v1/auth/me');
    expect(body.traceId).not.toBe(TRACE);
  });

  it('answers an HTTP/1.1 request without Host 400 as a problem (Node answered it with an empty 400)', async () => {
    const { response } = await rawHttp(
      port,
      'GET /v1/auth/me?x=1 HTTP/1.1\r\nConnection: close\r\n\r\n',
    );
    const body = expectRawProblem(response, 400, 'bad-request', '/v1/auth/me', false);
    expect(body.detail).toBe('An HTTP/1.1 request must carry a Host header.');
    // HTTP/1.0 has no Host requirement.
    const old = await rawHttp(port, 'GET /health/live HTTP/1.0\r\n\r\n');
    expect(old.raw).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers a refused HEAD request with the head alone (found by the fuzzer: a body after it broke the client)', async () => {
    const { raw, closed } = await rawHttp(
      port,
      `HEAD /v1/auth/jwks.json?q=\u00ff HTTP/1.1\r\n${H}\r\n`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(raw).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/);
    expect(raw.endsWith('\r\n\r\n')).toBe(true);
    expect(closed).toBe(true);
  });

  it('ignores an expectation it does not know instead of answering an empty 417 (found by the fuzzer)', async () => {
    const me = await rawHttp(
      port,
      `GET /v1/auth/me HTTP/1.1\r\n${H}Expect: evil-expectation\r\nConnection: close\r\n\r\n`,
    );
    expect(me.response?.status).toBe(200);
    expect(JSON.parse(me.response!.body)).toEqual({ user: null });
    const signIn = await rawHttp(
      port,
      `POST /v1/auth/sign-in HTTP/1.1\r\n${H}Expect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expectRawProblem(signIn.response, 401, 'unauthenticated', '/v1/auth/sign-in', false);
  });

  it('answers a whole request first and the garbage after it second, never the garbage in its place (found by the fuzzer)', async () => {
    const tenant = await seedTenant(t.app, 'Pipelines');
    const user = await signUpUser(t, tenant.projectKey, 'pipeline@example.com');
    // A bodiless DELETE followed by bytes no request starts with: the DELETE is served, and only
    // then is the garbage refused. Answering the garbage first told the client its DELETE had
    // failed while the session was revoked all the same.
    const { raw, closed } = await rawHttp(
      port,
      `DELETE /v1/auth/sessions/${user.sessionId} HTTP/1.1\r\n${H}X-Service-Project-Key: ${tenant.projectKey}\r\nAuthorization: Bearer ${user.accessToken}\r\n\r\n{"a":1}`,
    );
    const [first, second, ...more] = parseRawResponses(raw);
    expect(first?.status).toBe(204);
    expectRawProblem(second ?? null, 400, 'bad-request');
    expect(more).toEqual([]);
    expect(closed).toBe(true);
    expect(
      (await t.dataSource.getRepository(Session).findOneByOrFail({ id: user.sessionId })).revokedAt,
    ).not.toBeNull();
  });

  it('sends nothing after the answer to a request that said Connection: close, whatever bytes follow it (found by the fuzzer)', async () => {
    const { raw, closed } = await rawHttp(
      port,
      `POST /health/live HTTP/1.1\r\n${H}Connection: close\r\n\r\n{"a":1}`,
    );
    const answers = parseRawResponses(raw);
    expect(answers.map((a) => a.status)).toEqual([405]);
    expect(answers[0]?.headers.connection).toBe('close');
    expect(closed).toBe(true);
  });

  it("refuses a broken body of the request being served as that request's answer", async () => {
    const { raw } = await rawHttp(
      port,
      `POST /v1/auth/sign-in HTTP/1.1\r\n${H}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\nzz\r\n`,
    );
    const answers = parseRawResponses(raw);
    expect(answers).toHaveLength(1);
    expectRawProblem(answers[0] ?? null, 400, 'bad-request', '/v1/auth/sign-in');
  });

  it('keeps serving well-formed requests on new connections', async () => {
    const tenant = await seedTenant(t.app);
    const { response } = await rawHttp(
      port,
      `GET /v1/auth/me HTTP/1.1\r\n${H}X-Service-Project-Key: ${tenant.projectKey}\r\nConnection: close\r\n\r\n`,
    );
    expect(response?.status).toBe(200);
    expect(JSON.parse(response!.body)).toEqual({ user: null });
  });
});
