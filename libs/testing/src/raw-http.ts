import net from 'node:net';
import type { Server } from 'node:http';
import { PROBLEM_TYPES, type ProblemSlug } from '@gatehouse/problem-details';
import type { TestApp } from './test-app';

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent, as latin1 (one character a byte). */
  raw: string;
}

/** Makes the app listen on an ephemeral loopback port (closed by `t.close()`); returns the port. */
export async function listenOnLoopback(t: TestApp): Promise<number> {
  const server: Server = t.app.getHttpServer();
  if (!server.listening)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('not listening');
  return address.port;
}

/**
 * Writes raw bytes to the server (what no HTTP client library would send) and reads until the
 * server closes the connection or `timeoutMs` passes. Returns the first response, parsed, or null
 * when the server sent nothing; `closed` tells whether the server ended the connection.
 */
export function rawHttp(
  port: number,
  request: string | Buffer,
  timeoutMs = 3000,
): Promise<{ response: RawResponse | null; closed: boolean; raw: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let closed = false;
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(typeof request === 'string' ? Buffer.from(request, 'latin1') : request),
    );
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('end', () => {
      closed = true;
    });
    socket.on('error', () => {
      closed = true;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('latin1');
      resolve({ response: parseResponse(raw), closed, raw });
    });
  });
}

function parseResponse(raw: string): RawResponse | null {
  return parseRawResponses(raw)[0] ?? null;
}

/** Every response in what a server sent on one connection, in order (bodies by Content-Length). */
export function parseRawResponses(raw: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = raw;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return out;
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine ?? '')?.[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const next = end + 4 + length;
    out.push({ status, headers, body: rest.slice(end + 4, next), raw: rest.slice(0, next) });
    rest = rest.slice(next);
  }
}

/**
 * Asserts a whole problem answer read from a raw socket: status line, `application/problem+json`,
 * `Connection: close` when `closes`, no-store, a `traceresponse` carrying the body's trace id, and
 * the body exactly (catalog type and title, `instance` only when given, `errors: {}` for
 * `validation-error`). Only printable ASCII on the wire: hostile bytes are never echoed raw.
 */
export function expectRawProblem(
  response: RawResponse | null,
  status: number,
  slug: ProblemSlug,
  instance?: string,
  closes = true,
): Record<string, unknown> {
  expect(response).not.toBeNull();
  const res = response!;
  expect(res.status).toBe(status);
  expect(res.raw).toMatch(/^[\x20-\x7e\r\n]*$/);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  if (closes) expect(res.headers.connection).toBe('close');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(body).toEqual({
    type: `https://gatehouse.dev/problems/${slug}`,
    title: PROBLEM_TYPES[slug].title,
    status,
    detail: expect.any(String),
    ...(instance === undefined ? {} : { instance }),
    traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
    ...(slug === 'validation-error' ? { errors: {} } : {}),
  });
  expect(res.headers.traceresponse).toMatch(
    new RegExp(`^00-${body.traceId as string}-[0-9a-f]{16}-01$`),
  );
  return body;
}
