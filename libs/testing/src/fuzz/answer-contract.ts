import { readTraceId } from '@gatehouse/crypto';
import { PROBLEM_TYPES, type ProblemSlug } from '@gatehouse/problem-details';

export interface WireAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Texts no answer may carry: stack frames, driver and runtime error names, SQL, file paths. */
const LEAKS: [RegExp, string][] = [
  [/\bat (?:async )?[\w$.<>]+ \(|\bat [^\s"]+\.(?:ts|js):\d+/, 'a stack frame'],
  [
    /\b(?:QueryFailedError|EntityNotFoundError|TypeORMError|ReferenceError|TypeError|RangeError|SyntaxError)\b/,
    'a runtime or driver error name',
  ],
  [/\b(?:SELECT|INSERT|UPDATE|DELETE)\b[^"]{0,200}\b(?:FROM|INTO|SET|WHERE)\b/, 'SQL'],
  [
    /syntax error at or near|violates (?:unique|foreign key|not-null|check) constraint|duplicate key value|invalid input syntax for|relation "[^"]*" does not exist/,
    'a PostgreSQL message',
  ],
  [/node_modules|\/work\/|\/src\/[\w/-]+\.ts/, 'a file path'],
];

const PROBLEM_MEMBERS = new Set([
  'type',
  'title',
  'status',
  'detail',
  'instance',
  'traceId',
  'errors',
]);

const header = (a: WireAnswer, name: string): string | undefined => {
  const v = a.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/**
 * What is wrong with an answer, as readable lines (empty when nothing): no 5xx; no leak in any
 * body; every 4xx a whole problem of the catalog (type, its title, its status, a detail, the
 * request's path as `instance` (a refusal of the HTTP parser's too, unless its path is over the
 * header limit), the `traceresponse`'s trace id, that of the request's `traceparent` when it is
 * a valid one, `errors` of string arrays for a validation error), a 405 with `Allow`, a 429 with
 * `Retry-After`; a redirect only to a host of `redirectHosts`.
 */
export function answerViolations(
  a: WireAnswer,
  req: { method: string; path: string; traceparent?: string; traceparentAt?: number },
  opts: { errorTypeBase: string; redirectHosts: readonly string[] },
): string[] {
  const out: string[] = [];
  if (a.status >= 500) out.push(`answered ${a.status}`);
  for (const [pattern, what] of LEAKS) if (pattern.test(a.body)) out.push(`the body shows ${what}`);
  // 304 is the answer HTTP gives a GET with `If-None-Match: *` (RFC 9110 §13.1.2), not a redirect.
  if (a.status === 304 && !['GET', 'HEAD'].includes(req.method))
    out.push(`answered 304 to ${req.method}`);
  if (a.status >= 300 && a.status < 400 && a.status !== 304) {
    const location = header(a, 'location');
    let host: string | null = null;
    try {
      host = location ? new URL(location, 'http://answer.invalid').host : null;
    } catch {
      host = null;
    }
    if (!host || !opts.redirectHosts.includes(host))
      out.push(`redirects to ${JSON.stringify(location)}`);
  }
  if (a.status < 400 || a.status >= 500) return out;

  if (!/^application\/problem\+json/.test(header(a, 'content-type') ?? ''))
    out.push(`a ${a.status} of type ${JSON.stringify(header(a, 'content-type'))}`);
  if (req.method === 'HEAD') return out;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(a.body) as Record<string, unknown>;
  } catch {
    return [
      ...out,
      `a ${a.status} whose body is not JSON: ${JSON.stringify(a.body.slice(0, 200))}`,
    ];
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return [...out, 'a problem that is not an object'];
  const slug =
    typeof body.type === 'string' && body.type.startsWith(`${opts.errorTypeBase}/`)
      ? body.type.slice(opts.errorTypeBase.length + 1)
      : null;
  const entry = slug && slug in PROBLEM_TYPES ? PROBLEM_TYPES[slug as ProblemSlug] : null;
  // Statuses HTTP defines where the catalog has no slug of their own (Node's parser refusals, see docs/decisions.md).
  const parserStatus =
    (a.status === 408 && slug === 'bad-request') ||
    (a.status === 413 && slug === 'payload-too-large');
  if (!entry) out.push(`problem type ${JSON.stringify(body.type)} is not in the catalog`);
  else {
    if (body.title !== entry.title)
      out.push(`title ${JSON.stringify(body.title)} is not the catalog's for ${slug}`);
    if (entry.status !== a.status && !parserStatus)
      out.push(`slug ${slug} (${entry.status}) answered with ${a.status}`);
  }
  if (body.status !== a.status)
    out.push(`body status ${JSON.stringify(body.status)} is not ${a.status}`);
  if (typeof body.detail !== 'string' || body.detail.length === 0) out.push('no detail');
  if (typeof body.traceId !== 'string' || !/^[0-9a-f]{32}$/.test(body.traceId))
    out.push(`traceId ${JSON.stringify(body.traceId)}`);
  else if (!(header(a, 'traceresponse') ?? '').includes(`00-${body.traceId}-`))
    out.push("traceresponse does not carry the body's trace id");
  const path = req.path.split('?')[0];
  // A refusal of the HTTP parser reads the request's head from the bytes Node hands over: the chunk
  // it was parsing, which holds at most 64 KiB. A head over the 16 KiB header limit may go on past
  // it (a 431, or a 400 when a byte the parser refuses comes first): a path that long may end past
  // it, and a head that long before the traceparent line (the request line, or fields sent before it)
  // leaves that line past it.
  // And the kernel, not the client, cuts a request into chunks: a head over the limit (every 431)
  // may have begun in a chunk before the one being parsed when the limit was passed (seen in CI on
  // a loaded machine: a 20 KiB query string, the refused chunk holding only its end).
  const parserRefusal = header(a, 'connection') === 'close' && [400, 431].includes(a.status);
  const headOverLimit = parserRefusal && a.status === 431;
  const unreadable =
    headOverLimit || (parserRefusal && Buffer.byteLength(path, 'latin1') > 16 * 1024);
  const headersUnreadable =
    headOverLimit ||
    (parserRefusal && (req.traceparentAt ?? Buffer.byteLength(req.path, 'latin1')) > 16 * 1024);
  const requestTrace = readTraceId(req.traceparent);
  if (requestTrace !== null && !headersUnreadable && body.traceId !== requestTrace)
    out.push(
      `traceId ${JSON.stringify(body.traceId)} is not the request's traceparent's ${requestTrace}`,
    );
  if (
    body.instance === undefined
      ? !unreadable
      : body.instance !== path && !percentEncodedPaths(path).includes(body.instance as string)
  ) {
    out.push(`instance ${JSON.stringify(body.instance)} is not the path ${JSON.stringify(path)}`);
  }
  if (slug === 'validation-error' || body.errors !== undefined) {
    const errors = body.errors;
    const valid =
      errors &&
      typeof errors === 'object' &&
      !Array.isArray(errors) &&
      Object.values(errors).every((m) => Array.isArray(m) && m.every((s) => typeof s === 'string'));
    if (!valid) out.push(`errors ${JSON.stringify(errors)} is not field -> messages`);
  }
  // Extension members (RFC 9457 §3.2: `locked_until`, a conflict's `organization_ids`) are snake_case like the API.
  for (const k of Object.keys(body))
    if (!PROBLEM_MEMBERS.has(k) && !/^[a-z][a-z0-9_]*$/.test(k))
      out.push(`unexpected member ${JSON.stringify(k)}`);
  if (a.status === 405 && !header(a, 'allow')) out.push('a 405 without Allow');
  if (a.status === 429 && !/^\d+$/.test(header(a, 'retry-after') ?? ''))
    out.push('a 429 without Retry-After');
  return out;
}

/**
 * The path as the parser-refusal answer names it: bytes outside a URL path's characters
 * percent-encoded. Node's client writes a request head as latin1, except when it sends it early
 * (an `Expect` header), as UTF-8: both byte forms of the path are accepted.
 */
function percentEncodedPaths(path: string): string[] {
  const encode = (bytes: Buffer) => {
    let out = '';
    for (const byte of bytes) {
      const ch = String.fromCharCode(byte);
      out += /[A-Za-z0-9\-._~!$&'()*+,;=:@/%]/.test(ch)
        ? ch
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    }
    return out;
  };
  return [encode(Buffer.from(path, 'latin1')), encode(Buffer.from(path, 'utf8'))];
}
