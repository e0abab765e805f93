import autocannon from 'autocannon';

/** What one autocannon run is told to send. */
export interface Target {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** A fixed body, or a fresh one per request. */
  body?: string | (() => string);
  /** Per-request headers, computed just before the request is written (e.g. a rotated cookie). */
  dynamicHeaders?: (context: Record<string, unknown>) => Record<string, string>;
  onResponse?: (
    status: number,
    headers: Record<string, string | string[]>,
    context: Record<string, unknown>,
  ) => void;
  /** A 2xx whose body fails this is counted as an error (e.g. `/me` answering `{user: null}`). */
  verifyBody?: (body: string) => boolean;
}

export interface LoadResult {
  /** Successful (2xx, body verified) responses per second over the measured window. */
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  mismatches: number;
  durationS: number;
}

function parseUrl(url: string) {
  const u = new URL(url);
  return { origin: u.origin, path: `${u.pathname}${u.search}` };
}

/** One autocannon run against `target` for `durationS` seconds with `connections` keep-alive connections. */
export async function hammer(
  target: Target,
  durationS: number,
  connections: number,
): Promise<LoadResult> {
  const { origin, path } = parseUrl(target.url);
  const { body, dynamicHeaders, onResponse, verifyBody } = target;
  let ok = 0;
  let mismatches = 0;
  const result = await autocannon({
    url: origin,
    connections,
    duration: durationS,
    pipelining: 1,
    timeout: 10,
    requests: [
      {
        method: target.method,
        path,
        setupRequest: (req, context) => ({
          ...req,
          headers: {
            ...target.headers,
            ...(dynamicHeaders ? dynamicHeaders(context as Record<string, unknown>) : {}),
          },
          ...(body === undefined ? {} : { body: typeof body === 'function' ? body() : body }),
        }),
        onResponse: (
          status: number,
          resBody: string,
          context: object,
          headers?: Record<string, unknown>,
        ) => {
          if (status >= 200 && status < 300) {
            if (!verifyBody || verifyBody(resBody)) ok++;
            else mismatches++;
          }
          onResponse?.(
            status,
            (headers ?? {}) as Record<string, string | string[]>,
            context as Record<string, unknown>,
          );
        },
      },
    ],
  });
  return {
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    mismatches,
    durationS: result.duration,
  };
}

/** The values of a response header, whatever case the server wrote its name in. */
export function headerValues(headers: Record<string, string | string[]>, name: string): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === name) out.push(...(Array.isArray(v) ? v : [v]));
  }
  return out;
}

/** The value of cookie `name` in a response's Set-Cookie headers. */
export function setCookieValue(
  headers: Record<string, string | string[]>,
  name: string,
): string | null {
  for (const line of headerValues(headers, 'set-cookie')) {
    const [pair] = line.split(';');
    const eq = pair?.indexOf('=') ?? -1;
    if (pair && eq > 0 && pair.slice(0, eq).trim() === name)
      return decodeURIComponent(pair.slice(eq + 1).trim());
  }
  return null;
}
