import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { finished, type Duplex } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import { newSpanId, traceIdFrom, traceResponse } from '@gatehouse/crypto';
import { PlatformError } from '@gatehouse/platform';

/** What Node's HTTP parser hands to `clientError` (llhttp's code, the chunk it was parsing). */
export interface HttpClientError extends Error {
  code?: string;
  rawPacket?: Buffer;
  bytesParsed?: number;
}

interface Refusal {
  status: number;
  /** A slug of the problem catalog (docs/api-contract.md §4); platform cannot import the catalog itself. */
  slug: 'validation-error' | 'payload-too-large';
  title: string;
  detail: string;
}

const MALFORMED = { slug: 'validation-error', title: 'Validation Error' } as const;
const TOO_LARGE = { slug: 'payload-too-large', title: 'Payload Too Large' } as const;

/**
 * The answer to each kind of refusal: the status HTTP defines for it, and the catalog type of its
 * nature — a size limit is `payload-too-large` (431 for the header block, 413 for chunk
 * extensions), anything malformed or incomplete `validation-error` (400; 408 when the request did
 * not arrive in time). Null for socket errors (reset, broken pipe), which no answer can reach.
 */
export function clientErrorRefusal(code: string | undefined): Refusal | null {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, ...TOO_LARGE, detail: 'The request line and header fields exceed the size limit.' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, ...TOO_LARGE, detail: 'The chunk extensions of the request body exceed the size limit.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, ...MALFORMED, detail: 'The request was not received in time.' };
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
      return { status: 400, ...MALFORMED, detail: 'A header field holds a character HTTP does not allow there (such as CR, LF or NUL).' };
    case 'HPE_INVALID_URL':
      return { status: 400, ...MALFORMED, detail: 'The request target holds a character HTTP does not allow (such as a raw non-ASCII byte).' };
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return { status: 400, ...MALFORMED, detail: 'The request body is framed ambiguously or wrongly (Content-Length, Transfer-Encoding or chunks).' };
    default:
      return code?.startsWith('HPE_') ? { status: 400, ...MALFORMED, detail: 'The request is not well-formed HTTP/1.1.' } : null;
  }
}

const MAX_INSTANCE_BYTES = 2048;
const REQUEST_LINE = /^(\S+) (\/\S*) HTTP\/\d\.\d$/;
/** Bytes a path may carry as they are (RFC 3986 pchar, `/` and `%`); every other byte is percent-encoded. */
const PATH_BYTE = /[A-Za-z0-9\-._~!$&'()*+,;=:@/%]/;

/** Errors only a request body can raise: the request they refuse is the one whose head ended before. */
const BODY_ERRORS = new Set(['HPE_INVALID_CHUNK_SIZE', 'HPE_CHUNK_EXTENSIONS_OVERFLOW']);

/**
 * The method and path of the refused request, each when it can be read: the packet begins with the
 * refused request's own head — the error lies in that head (no head ended before it), or in its
 * body (one head ended before, and the error is one only a body raises); in a pipelined packet the
 * first line may be another request's, so nothing is read. The path needs a whole request line of
 * origin form (`METHOD /path HTTP/x.y`) and at most 2 KiB; it is given without the query string, as
 * every problem's `instance`, with bytes outside a URL path's characters percent-encoded, so
 * nothing hostile is echoed raw. The method (to answer a HEAD without a body) is the first word.
 */
export function refusedRequestLine(err: HttpClientError): { method: string | null; path: string | null } {
  const none = { method: null, path: null };
  const packet = err.rawPacket;
  if (!Buffer.isBuffer(packet)) return none;
  const errorAt = typeof err.bytesParsed === 'number' ? Math.min(err.bytesParsed, packet.length) : packet.length;
  const before = packet.subarray(0, Math.max(0, errorAt));
  const headEnd = before.indexOf('\r\n\r\n');
  const ownRequest = headEnd < 0 || (BODY_ERRORS.has(err.code ?? '') && before.indexOf('\r\n\r\n', headEnd + 4) < 0);
  if (!ownRequest) return none;
  const method = /^([A-Z]{1,20}) /.exec(packet.toString('latin1', 0, 21))?.[1] ?? null;
  const lineEnd = packet.indexOf('\r\n');
  const target = lineEnd < 0 ? undefined : REQUEST_LINE.exec(packet.toString('latin1', 0, lineEnd))?.[2];
  const path = target?.split(/[?#]/, 1)[0];
  if (path === undefined || path.length > MAX_INSTANCE_BYTES) return { method, path: null };
  let out = '';
  for (const ch of path) out += PATH_BYTE.test(ch) ? ch : `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
  return { method, path: out };
}

/**
 * A whole HTTP/1.1 answer: the problem body (as the ProblemDetailsFilter renders it; none for a
 * HEAD request, whose answer has only the head) and `Connection: close`.
 */
export function clientErrorResponse(refusal: Refusal, errorTypeBase: string, request: { method: string | null; path: string | null }): Buffer {
  const instance = request.path;
  const traceId = traceIdFrom(undefined);
  const body: Record<string, unknown> = {
    type: `${errorTypeBase}/${refusal.slug}`,
    title: refusal.title,
    status: refusal.status,
    detail: refusal.detail,
    ...(instance === null ? {} : { instance }),
    traceId,
    ...(refusal.slug === 'validation-error' ? { errors: {} } : {}),
  };
  const json = JSON.stringify(body);
  const head = [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}`,
    'Content-Type: application/problem+json',
    `Content-Length: ${Buffer.byteLength(json)}`,
    'Cache-Control: no-store',
    'Referrer-Policy: no-referrer',
    `traceresponse: ${traceResponse(traceId, newSpanId())}`,
    `Date: ${new Date().toUTCString()}`,
    'Connection: close',
  ];
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${request.method === 'HEAD' ? '' : json}`, 'latin1');
}

/** The response a socket is busy with (Node's own bookkeeping), with the request it answers. */
type InFlight = ServerResponse & { req?: IncomingMessage };
const inFlightOf = (socket: Duplex): InFlight | null => (socket as Duplex & { _httpMessage?: InFlight | null })._httpMessage ?? null;

/**
 * Writes the answer (none: just closes) and closes: destroyed once flushed, or after a second if
 * the peer never reads.
 */
function answerAndClose(socket: Duplex, answer: Buffer | null): void {
  if (!socket.writable || answer === null) {
    if (socket.writable) socket.end(() => socket.destroy());
    else socket.destroy();
    return;
  }
  const timer = setTimeout(() => socket.destroy(), 1000);
  timer.unref();
  socket.end(answer, () => {
    clearTimeout(timer);
    socket.destroy();
  });
}

/**
 * Answers the refused bytes in their turn. When they broke the body of the request being served
 * (its body is incomplete), that request is the refused one: answered now if its response has not
 * started, else closed once it is sent. When the request being served is whole, the refused bytes
 * are a later request (pipelined, or unframed bytes after a bodiless request): the responses owed
 * before it are sent first, and only then the refusal — answering it in their place would tell the
 * client its earlier request failed while it was carried out (found by the fuzzer).
 */
function answerInTurn(socket: Duplex, answer: Buffer | null): void {
  const inFlight = inFlightOf(socket);
  if (!inFlight || inFlight.writableFinished) return answerAndClose(socket, answer);
  if (inFlight.req && !inFlight.req.complete) {
    if (!inFlight.headersSent) return answerAndClose(socket, answer);
    finished(inFlight, () => socket.destroy());
    return;
  }
  // Node hands the socket to the next queued response once this one finishes. A response that
  // closes the connection (its request said `Connection: close`) is the last one: nothing follows.
  finished(inFlight, (err) => (err ? socket.destroy() : setImmediate(() => answerInTurn(socket, inFlight.shouldKeepAlive ? answer : null))));
}

/**
 * Answers what Node's HTTP layer refuses before the app sees it (a bare CR, LF or NUL in a header,
 * raw non-ASCII bytes in the path, a header block over the limit, request smuggling framings, a
 * TLS handshake on the plain port, a request that took too long) as a problem, instead of Node's
 * empty 400/431, in its turn after the responses the connection still owes (`answerInTurn`), then
 * closes the connection. Socket errors (reset, broken pipe) just destroy it.
 */
export function installClientErrorHandler(server: Server, errorTypeBase: string): void {
  // Once the parser has failed it fails again on every further chunk of the connection: the first
  // failure is the one answered.
  const refused = new WeakSet<Duplex>();
  server.on('clientError', (err: HttpClientError, socket: Duplex) => {
    if (refused.has(socket)) return;
    refused.add(socket);
    const refusal = clientErrorRefusal(err.code);
    if (!refusal || !socket.writable) {
      socket.destroy();
      return;
    }
    // Bytes after a request that said `Connection: close` are no request at all: close in turn.
    answerInTurn(socket, err.code === 'HPE_CLOSED_CONNECTION' ? null : clientErrorResponse(refusal, errorTypeBase, refusedRequestLine(err)));
  });
  // An HTTP/1.1 request without Host is refused by `hostRequiredMiddleware` (a problem with the
  // request's trace id) rather than by Node's empty 400.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  // An `Expect` other than 100-continue: Node answers an empty 417 unless someone listens. RFC 9110
  // §10.1.1 lets a server ignore an expectation it does not know (417 is a MAY), and the catalog
  // has no 417: the request is served as if it had none (found by the fuzzer).
  server.on('checkExpectation', (req, res) => server.emit('request', req, res));
}

/** RFC 9112 §3.2: an HTTP/1.1 request without a Host header is 400 (as Node itself would answer). */
export function hostRequiredMiddleware() {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
      next(new PlatformError('validation-error', 'An HTTP/1.1 request must carry a Host header.'));
      return;
    }
    next();
  };
}
