import { createServer } from 'node:http';
import { PassThrough, type Duplex, type Writable } from 'node:stream';
import {
  clientErrorRefusal,
  installClientErrorHandler,
  refusedRequestLine,
  type HttpClientError,
} from './client-error';

const BASE = 'https://gatehouse.dev/problems';

function parserError(code: string, raw: string, bytesParsed = raw.length): HttpClientError {
  return Object.assign(new Error(code), {
    code,
    rawPacket: Buffer.from(raw, 'latin1'),
    bytesParsed,
  });
}

/** A socket as `clientError` gets it, recording what the handler does with it. */
function fakeSocket(opts: { writable?: boolean; inFlight?: Writable } = {}) {
  const written: Buffer[] = [];
  const socket = {
    writable: opts.writable ?? true,
    _httpMessage: opts.inFlight ?? null,
    destroyed: false,
    end: jest.fn((data: Buffer | (() => void), cb?: () => void) => {
      if (typeof data === 'function') return data();
      written.push(data);
      cb?.();
    }),
    destroy: jest.fn(() => {
      socket.destroyed = true;
    }),
  };
  return { socket: socket as unknown as Duplex & typeof socket, written };
}

function answer(
  code: string,
  raw: string,
  socketOpts?: Parameters<typeof fakeSocket>[0],
  bytesParsed?: number,
) {
  const server = createServer();
  installClientErrorHandler(server, BASE);
  const { socket, written } = fakeSocket(socketOpts);
  server.emit('clientError', parserError(code, raw, bytesParsed), socket);
  const socketWritten = () => Buffer.concat(written).toString('latin1');
  return {
    socket,
    socketWritten,
    get written() {
      return socketWritten();
    },
  };
}

describe('clientErrorRefusal', () => {
  it('answers an oversized header block with headers-too-large, chunk extensions with payload-too-large, malformed and late requests with bad-request, socket errors with nothing', () => {
    expect(clientErrorRefusal('HPE_HEADER_OVERFLOW')).toMatchObject({
      status: 431,
      slug: 'headers-too-large',
      title: 'Request Header Fields Too Large',
    });
    expect(clientErrorRefusal('HPE_CHUNK_EXTENSIONS_OVERFLOW')).toMatchObject({
      status: 413,
      slug: 'payload-too-large',
      title: 'Payload Too Large',
    });
    expect(clientErrorRefusal('ERR_HTTP_REQUEST_TIMEOUT')).toMatchObject({
      status: 408,
      slug: 'bad-request',
      title: 'Bad Request',
    });
    for (const code of [
      'HPE_INVALID_HEADER_TOKEN',
      'HPE_LF_EXPECTED',
      'HPE_INVALID_URL',
      'HPE_INVALID_METHOD',
      'HPE_SOMETHING_NEW',
    ]) {
      expect(clientErrorRefusal(code)).toMatchObject({
        status: 400,
        slug: 'bad-request',
        title: 'Bad Request',
      });
    }
    for (const code of ['ECONNRESET', 'EPIPE', 'ETIMEDOUT', undefined])
      expect(clientErrorRefusal(code)).toBeNull();
  });
});

const refusedRequestPath = (err: HttpClientError) => refusedRequestLine(err).path;

describe('refusedRequestLine', () => {
  it('reads the path of an origin-form request line, without the query, percent-encoding what a path cannot hold', () => {
    expect(
      refusedRequestPath(
        parserError(
          'HPE_INVALID_HEADER_TOKEN',
          'GET /v1/auth/me?x=1 HTTP/1.1\r\nX: \u0000\r\n\r\n',
          30,
        ),
      ),
    ).toBe('/v1/auth/me');
    expect(
      refusedRequestPath(
        parserError('HPE_INVALID_URL', 'GET /a/\u00e9\u0001"<>\\^`{|}%41 HTTP/1.1\r\n', 8),
      ),
    ).toBe('/a/%E9%01%22%3C%3E%5C%5E%60%7B%7C%7D%41');
    expect(
      refusedRequestPath(parserError('HPE_INVALID_METHOD', 'G@T /x#frag HTTP/1.0\r\n', 1)),
    ).toBe('/x');
    expect(
      refusedRequestLine(parserError('HPE_INVALID_URL', 'HEAD /a\u00ff HTTP/1.1\r\n', 7)),
    ).toEqual({ method: 'HEAD', path: '/a%FF', traceparent: null });
    // However long, when the whole line is there (the review found paths over 2 KiB without instance).
    expect(
      refusedRequestPath(
        parserError('HPE_HEADER_OVERFLOW', `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nX: a`),
      ),
    ).toBe(`/${'a'.repeat(20_000)}`);
  });

  it('reads the first whole traceparent line of the refused head, wherever the error lies in it', () => {
    const tp = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect(
      refusedRequestLine(
        parserError(
          'HPE_INVALID_HEADER_TOKEN',
          `GET /a HTTP/1.1\r\nTraceParent:  ${tp} \r\nX: \u0000\r\n\r\n`,
          80,
        ),
      ).traceparent,
    ).toBe(tp);
    expect(
      refusedRequestLine(
        parserError(
          'HPE_INVALID_HEADER_TOKEN',
          `GET /a HTTP/1.1\r\nX: \u0000\r\ntraceparent: ${tp}\r\ntraceparent: 00-${'1'.repeat(32)}-00f067aa0ba902b7-01\r\n\r\n`,
          20,
        ),
      ).traceparent,
    ).toBe(tp);
    // A line cut off by the packet's end is not read.
    expect(
      refusedRequestLine(
        parserError('HPE_HEADER_OVERFLOW', `GET /a HTTP/1.1\r\ntraceparent: ${tp}`),
      ).traceparent,
    ).toBeNull();
    // Another request's head is not the refused one's.
    const pipelined = `GET /first HTTP/1.1\r\ntraceparent: ${tp}\r\n\r\nGET /second HTTP/1.1\r\nX: \u0000\r\n\r\n`;
    expect(
      refusedRequestLine(
        parserError('HPE_INVALID_HEADER_TOKEN', pipelined, pipelined.indexOf('\u0000')),
      ),
    ).toEqual({ method: 'GET', path: '/second', traceparent: null });
  });

  it('names nothing it cannot attribute for sure', () => {
    const cases: HttpClientError[] = [
      parserError('HPE_INVALID_URL', 'GET http://evil.example/a HTTP/1.1\r\n\r\n', 10),
      parserError('HPE_HEADER_OVERFLOW', `GET /${'a'.repeat(20_000)}`),
      parserError('HPE_INVALID_METHOD', '\u0016\u0003\u0001\u0000', 0),
      // Pipelined after a request with a body: where the refused head begins cannot be told.
      parserError(
        'HPE_INVALID_HEADER_TOKEN',
        'POST /first HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}GET /second HTTP/1.1\r\nX: \u0000\r\n\r\n',
      ),
      parserError(
        'HPE_INVALID_CHUNK_SIZE',
        'GET /first HTTP/1.1\r\n\r\nPOST /second HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz',
      ),
      Object.assign(new Error('x'), { code: 'HPE_INVALID_URL' }),
    ];
    for (const err of cases) expect(refusedRequestPath(err)).toBeNull();
    // A request line the packet cuts off names its path once its query has begun (found by the fuzzer: a 64 KiB query).
    expect(
      refusedRequestPath(
        parserError(
          'HPE_INVALID_URL',
          `POST /v1/auth/oauth/callback?a=${'\u00f0'.repeat(70_000)}`,
          33,
        ),
      ),
    ).toBe('/v1/auth/oauth/callback');
    // Whitespace inside the target is read too (between the method's space and the version).
    expect(
      refusedRequestPath(
        parserError('HPE_INVALID_CONSTANT', 'GET /a b\t\n?c\nd HTTP/1.1\r\n\r\n', 7),
      ),
    ).toBe('/a%20b%09%0A');
    // Pipelined after a bodiless request: the refused head follows the whole one before it.
    expect(
      refusedRequestPath(
        parserError(
          'HPE_INVALID_HEADER_TOKEN',
          'GET /first HTTP/1.1\r\nHost: a\r\n\r\nGET /second HTTP/1.1\r\nX: \u0000\r\n\r\n',
          60,
        ),
      ),
    ).toBe('/second');
    // A body error after the request's own head is that request's.
    expect(
      refusedRequestPath(
        parserError(
          'HPE_INVALID_CHUNK_SIZE',
          'POST /mine HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz',
        ),
      ),
    ).toBe('/mine');
    expect(
      refusedRequestPath(
        parserError('HPE_INVALID_CHUNK_SIZE', `POST /${'b'.repeat(2047)} HTTP/1.1\r\n\r\nzz`),
      ),
    ).toBe(`/${'b'.repeat(2047)}`);
  });
});

describe('installClientErrorHandler', () => {
  it('writes a whole HTTP/1.1 problem answer and closes the connection', () => {
    const { socket, written } = answer(
      'HPE_INVALID_HEADER_TOKEN',
      'GET /v1/auth/me HTTP/1.1\r\nX: \u0000\r\n\r\n',
      {},
      30,
    );
    const [head, body] = written.split('\r\n\r\n') as [string, string];
    const lines = head.split('\r\n');
    expect(lines[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Content-Type: application/problem+json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Cache-Control: no-store',
        'Referrer-Policy: no-referrer',
        'Connection: close',
      ]),
    );
    const parsed = JSON.parse(body) as Record<string, unknown>;
    expect(parsed).toEqual({
      type: `${BASE}/bad-request`,
      title: 'Bad Request',
      status: 400,
      detail: expect.any(String),
      instance: '/v1/auth/me',
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^traceresponse: 00-${parsed.traceId as string}-[0-9a-f]{16}-01$`),
      ),
    );
    expect(socket.destroy).toHaveBeenCalled();
  });

  it('answers a HEAD request with the head alone, its Content-Length the body it would have had', () => {
    const { written } = answer(
      'HPE_INVALID_URL',
      'HEAD /v1/auth/jwks.json?a=\u00ff HTTP/1.1\r\n',
      {},
      30,
    );
    const [head, body] = written.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(body).toBe('');
    expect(Number(/Content-Length: (\d+)/.exec(head)?.[1])).toBeGreaterThan(100);
    expect(
      refusedRequestLine(parserError('HPE_HEADER_OVERFLOW', `HEAD /${'a'.repeat(20_000)}`)),
    ).toEqual({ method: 'HEAD', path: null, traceparent: null });
  });

  it('answers a request that did not arrive in time 408 and an oversized header block 431', () => {
    expect(answer('ERR_HTTP_REQUEST_TIMEOUT', '').written).toMatch(
      /^HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*"type":"https:\/\/gatehouse\.dev\/problems\/bad-request"/,
    );
    expect(answer('HPE_HEADER_OVERFLOW', 'GET /a HTTP/1.1\r\nX: aaaa').written).toMatch(
      /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n[\s\S]*"type":"https:\/\/gatehouse\.dev\/problems\/headers-too-large"[\s\S]*"status":431[\s\S]*"instance":"\/a"/,
    );
  });

  it('only destroys a socket that cannot take an answer: reset or not writable', () => {
    for (const [code, opts] of [
      ['ECONNRESET', {}],
      ['EPIPE', {}],
      ['HPE_INVALID_METHOD', { writable: false }],
    ] as const) {
      const { socket, written } = answer(code, 'G@T / HTTP/1.1\r\n\r\n', opts);
      expect(written).toBe('');
      expect(socket.end).not.toHaveBeenCalled();
      expect(socket.destroy).toHaveBeenCalled();
    }
  });

  /** A response in flight on the socket, answering a request whose body is `complete` or not. */
  function inFlight(complete: boolean, headersSent: boolean, shouldKeepAlive = true) {
    return Object.assign(new PassThrough(), { req: { complete }, headersSent, shouldKeepAlive });
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('answers refused bytes after a whole request only once that request is answered, in turn', async () => {
    const served = inFlight(true, false);
    const {
      socket,
      written: early,
      socketWritten,
    } = answer('HPE_INVALID_METHOD', '{"a":1}', { inFlight: served });
    expect(early).toBe('');
    expect(socket.destroy).not.toHaveBeenCalled();
    served.end();
    served.resume();
    await settle();
    await settle();
    const late = socketWritten();
    expect(late).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(socket.destroy).toHaveBeenCalled();
  });

  it('answers the first failure of a connection once, however many chunks fail after it', async () => {
    const server = createServer();
    installClientErrorHandler(server, BASE);
    const served = inFlight(true, false);
    const { socket, written } = fakeSocket({ inFlight: served });
    for (let i = 0; i < 20; i++)
      server.emit('clientError', parserError('HPE_INVALID_METHOD', '{"a":1}'), socket);
    expect(served.listenerCount('finish')).toBeLessThanOrEqual(2);
    served.end();
    served.resume();
    await settle();
    await settle();
    expect(socket.end).toHaveBeenCalledTimes(1);
    expect(
      Buffer.concat(written)
        .toString('latin1')
        .match(/HTTP\/1\.1 400/g),
    ).toHaveLength(1);
  });

  it('writes nothing after the last response of a connection (its request said Connection: close)', async () => {
    for (const [code, keepAlive] of [
      ['HPE_CLOSED_CONNECTION', true],
      ['HPE_INVALID_METHOD', false],
    ] as const) {
      const served = inFlight(true, false, keepAlive);
      const { socket, written } = answer(code, '{"a":1}', { inFlight: served });
      served.end();
      served.resume();
      await settle();
      await settle();
      expect(written).toBe('');
      expect(socket.destroy).toHaveBeenCalled();
    }
  });

  it("answers a broken body as its own request's answer, unless that answer has started", async () => {
    expect(
      answer('HPE_INVALID_CHUNK_SIZE', 'POST / HTTP/1.1\r\n\r\nzz', {
        inFlight: inFlight(false, false),
      }).written,
    ).toMatch(/^HTTP\/1\.1 400 /);
    const started = inFlight(false, true);
    const { socket, written } = answer('HPE_INVALID_CHUNK_SIZE', 'POST / HTTP/1.1\r\n\r\nzz', {
      inFlight: started,
    });
    expect(written).toBe('');
    started.end();
    started.resume();
    await settle();
    expect(socket.end).not.toHaveBeenCalled();
    expect(socket.destroy).toHaveBeenCalled();
  });

  it('lets HTTP/1.1 requests without Host reach the app, which refuses them as a problem', () => {
    const server = createServer();
    installClientErrorHandler(server, BASE);
    expect((server as unknown as { requireHostHeader: boolean }).requireHostHeader).toBe(false);
  });
});
