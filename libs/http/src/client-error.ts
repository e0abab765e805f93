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
  slug: 'bad-request' | 'headers-too-large' | 'payload-too-large';
  title: string;
  detail: string;
}

const MALFORMED = { slug: 'bad-request', title: 'Bad Request' } as const;
const HEADERS_TOO_LARGE = {
  slug: 'headers-too-large',
  title: 'Request Header Fields Too Large',
} as const;
const TOO_LARGE = { slug: 'payload-too-large', title: 'Payload Too Large' } as const;

/**
 * The answer to each kind of refusal (docs/api-contract.md §4): a header block over the limit is 431
 * `headers-too-large`, oversized chunk extensions (part of the body) 413 `payload-too-large`,
 * anything malformed or incomplete `bad-request` (400; 408 when the request did not arrive in
 * time). Null for socket errors (reset, broken pipe), which no answer can reach.
 */
export function clientErrorRefusal(code: string | undefined): Refusal | null {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        ...HEADERS_TOO_LARGE,
        detail: 'The request line and header fields exceed the size limit.',
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        status: 413,
        ...TOO_LARGE,
        detail: 'The chunk extensions of the request body exceed the size limit.',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, ...MALFORMED, detail: 'The request was not received in time.' };
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
      return {
        status: 400,
        ...MALFORMED,
        detail:
          'A header field holds a character HTTP does not allow there (such as CR, LF or NUL).',
      };
    case 'HPE_INVALID_URL':
      return {
        status: 400,
        ...MALFORMED,
        detail:
          'The request target holds a character HTTP does not allow (such as a raw non-ASCII byte).',
      };
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return {
        status: 400,
        ...MALFORMED,
        detail:
          'The request body is framed ambiguously or wrongly (Content-Length, Transfer-Encoding or chunks).',
      };
    default:
      return code?.startsWith('HPE_')
        ? { status: 400, ...MALFORMED, detail: 'The request is not well-formed HTTP/1.1.' }
        : null;
  }
}

/**
 * A request line of origin form. The target is everything between the method's space and the
 * version: a target holding raw spaces, tabs or line feeds (what makes the parser refuse it) is
 * still read, and its bytes percent-encoded.
 */
const REQUEST_LINE = /^(\S+) (\/[^\r]*?) HTTP\/\d\.\d$/;
/** The start of a request line the packet cuts off, up to where its query or fragment begins. */
const PARTIAL_REQUEST_LINE = /^\S+ (\/[^\r?#]*)[?#]/;
/** Bytes a path may carry as they are (RFC 3986 pchar, `/` and `%`); every other byte is percent-encoded. */
const PATH_BYTE = /[A-Za-z0-9\-._~!$&'()*+,;=:@/%]/;
/** A header line naming the W3C trace context (field names are case-insensitive, the value trimmed). */
const TRACEPARENT_LINE = /^traceparent:[ \t]*([^\r\n]*?)[ \t]*$/i;

/** Errors only a request body can raise: the request they refuse is the one whose head ended before. */
const BODY_ERRORS = new Set(['HPE_INVALID_CHUNK_SIZE', 'HPE_CHUNK_EXTENSIONS_OVERFLOW']);

export interface RefusedRequest {
  method: string | null;
  path: string | null;
  /** The `traceparent` field of the refused request's head, when a whole line of it can be read. */
  traceparent: string | null;
}

/**
 * Where the refused request's head begins in the packet, or -1 when that cannot be told. The error
 * lies in that head (no head ended before it: the packet's start; or heads ended before it, the
 * last of them that of a whole request the packet carried before, so the refused head starts right
 * after it, when a request line stands there), or in its body (one head ended before, and the error
 * is one only a body raises: the packet's start).
 */
function refusedHeadStart(packet: Buffer, errorAt: number, code: string | undefined): number {
  const before = packet.subarray(0, Math.max(0, errorAt));
  const firstEnd = before.indexOf('\r\n\r\n');
  if (firstEnd < 0) return 0;
  if (BODY_ERRORS.has(code ?? '')) return before.indexOf('\r\n\r\n', firstEnd + 4) < 0 ? 0 : -1;
  const start = before.lastIndexOf('\r\n\r\n') + 4;
  const lineEnd = packet.indexOf('\r\n', start);
  return lineEnd > start && REQUEST_LINE.test(packet.toString('latin1', start, lineEnd))
    ? start
    : -1;
}

/**
 * The method, path and `traceparent` of the refused request, each when it can be read from the
 * bytes Node hands over: the refused request's own head (`refusedHeadStart`). The path needs a
 * whole request line of origin form (`METHOD /path HTTP/x.y`, CRLF-terminated); it is given without the query
 * string, as every problem's `instance`, with bytes outside a URL path's characters
 * percent-encoded, so nothing hostile is echoed raw. The method (to answer a HEAD without a body)
 * is the first word; the `traceparent` the first whole header line of that name in the head.
 */
export function refusedRequestLine(err: HttpClientError): RefusedRequest {
  const none = { method: null, path: null, traceparent: null };
  const packet = err.rawPacket;
  if (!Buffer.isBuffer(packet)) return none;
  const errorAt =
    typeof err.bytesParsed === 'number' ? Math.min(err.bytesParsed, packet.length) : packet.length;
  const start = refusedHeadStart(packet, errorAt, err.code);
  if (start < 0) return none;
  const headEnd = packet.indexOf('\r\n\r\n', start);
  const head = packet.toString('latin1', start, headEnd < 0 ? packet.length : headEnd + 2);
  const method = /^([A-Z]{1,20}) /.exec(head.slice(0, 21))?.[1] ?? null;
  const lines = head.split('\r\n');
  // The last element is what follows the last CRLF: a line not yet whole.
  lines.pop();
  let traceparent: string | null = null;
  for (const line of lines.slice(1)) {
    const m = TRACEPARENT_LINE.exec(line);
    if (m) {
      traceparent = m[1] ?? null;
      break;
    }
  }
  // A request line longer than the packet still names its path when its query has begun in it.
  const target =
    lines.length > 0
      ? REQUEST_LINE.exec(lines[0] ?? '')?.[2]
      : PARTIAL_REQUEST_LINE.exec(head)?.[1];
  const path = target?.split(/[?#]/, 1)[0];
  if (path === undefined) return { method, path: null, traceparent };
  let out = '';
  for (const ch of path)
    out += PATH_BYTE.test(ch)
      ? ch
      : `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
  return { method, path: out, traceparent };
}

/**
 * A whole HTTP/1.1 answer: the problem body (as the ProblemDetailsFilter renders it; none for a
 * HEAD request, whose answer has only the head) and `Connection: close`.
 */
export function clientErrorResponse(
  refusal: Refusal,
  errorTypeBase: string,
  request: RefusedRequest,
): Buffer {
  const instance = request.path;
  const traceId = traceIdFrom(request.traceparent ?? undefined);
  const body: Record<string, unknown> = {
    type: `${errorTypeBase}/${refusal.slug}`,
    title: refusal.title,
    status: refusal.status,
    detail: refusal.detail,
    ...(instance === null ? {} : { instance }),
    traceId,
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
  return Buffer.from(
    `${head.join('\r\n')}\r\n\r\n${request.method === 'HEAD' ? '' : json}`,
    'latin1',
  );
}

/** The response a socket is busy with (Node's own bookkeeping), with the request it answers. */
type InFlight = ServerResponse & { req?: IncomingMessage };
const inFlightOf = (socket: Duplex): InFlight | null =>
  (socket as Duplex & { _httpMessage?: InFlight | null })._httpMessage ?? null;

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
  finished(inFlight, (err) =>
    err
      ? socket.destroy()
      : setImmediate(() => answerInTurn(socket, inFlight.shouldKeepAlive ? answer : null)),
  );
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
    answerInTurn(
      socket,
      err.code === 'HPE_CLOSED_CONNECTION'
        ? null
        : clientErrorResponse(refusal, errorTypeBase, refusedRequestLine(err)),
    );
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
    if (
      req.headers.host === undefined &&
      req.httpVersionMajor === 1 &&
      req.httpVersionMinor === 1
    ) {
      next(new PlatformError('bad-request', 'An HTTP/1.1 request must carry a Host header.'));
      return;
    }
    next();
  };
}
