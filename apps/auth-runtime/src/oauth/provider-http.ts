/** Largest response we read from an identity provider; anything bigger is a provider error. */
export const MAX_PROVIDER_RESPONSE_BYTES = 1024 * 1024;

export interface ProviderResponse {
  status: number;
  body: string;
}

export class ProviderHttpError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'ProviderHttpError';
  }
}

async function readCapped(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Node's web streams are async-iterable; the body is read chunk by chunk so a huge answer stops early.
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new ProviderHttpError('provider response too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * One HTTP call to an identity provider, bounded in time (connect, headers and body together) and
 * size. Redirects are not followed. Rejects with the network or abort error.
 */
export async function providerRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<ProviderResponse> {
  const target = new URL(url);
  if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new ProviderHttpError('unsupported URL scheme');
  const res = await fetch(target, {
    method: init.method ?? 'GET',
    headers: { 'User-Agent': 'Gatehouse', Accept: 'application/json', ...init.headers },
    ...(init.body !== undefined ? { body: init.body } : {}),
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: res.status, body: await readCapped(res, MAX_PROVIDER_RESPONSE_BYTES) };
}

/** GET a JSON document (discovery, JWKS); non-2xx or non-JSON is a ProviderHttpError. */
export async function fetchProviderJson(url: string, timeoutMs: number): Promise<unknown> {
  const res = await providerRequest(url, {}, timeoutMs);
  if (res.status < 200 || res.status > 299) throw new ProviderHttpError(`provider answered ${res.status}`, res.status);
  try {
    return JSON.parse(res.body) as unknown;
  } catch {
    throw new ProviderHttpError('provider answered with invalid JSON', res.status);
  }
}

/** Runs callbacks from asynchronous code so that a throw ends the run instead of the process. */
export interface CallbackGuard {
  run(fn: () => void): void;
}

type OAuth2Callback = (err: unknown, body?: string, res?: { statusCode: number }) => void;

/** The parts of node-oauth's OAuth2 client that its strategies go through for every HTTP call. */
interface OAuth2Internals {
  _customHeaders?: Record<string, string>;
  _accessTokenName?: string;
  _request: (method: string, url: string, headers: Record<string, string> | null, body: string | Buffer | null, accessToken: string | null, callback: OAuth2Callback) => void;
}

/**
 * Replaces node-oauth's transport (plain `http.request` without any timeout, as used by every
 * passport-oauth2 strategy for the token exchange and profile calls) with `providerRequest`:
 * bounded by `timeoutMs`, capped in size, no redirects. Callback semantics stay node-oauth's:
 * non-2xx → `{statusCode, data}`; a throw inside a strategy's callback is routed to `guard`.
 */
export function installBoundedTransport(oauth2: unknown, guard: CallbackGuard, timeoutMs: number): void {
  const client = oauth2 as OAuth2Internals;
  client._request = (method, url, headers, body, accessToken, callback) => {
    const send = async (): Promise<ProviderResponse> => {
      const all: Record<string, string> = { ...(client._customHeaders ?? {}), ...(headers ?? {}) };
      const target = new URL(url);
      if (accessToken && !('Authorization' in all)) target.searchParams.set(client._accessTokenName ?? 'access_token', accessToken);
      const payload = body === null || body === '' ? undefined : Buffer.isBuffer(body) ? body.toString('utf8') : body;
      return providerRequest(target.toString(), { method, headers: all, ...(payload !== undefined ? { body: payload } : {}) }, timeoutMs);
    };
    send().then(
      (res) =>
        guard.run(() => {
          if (res.status >= 200 && res.status <= 299) callback(null, res.body, { statusCode: res.status });
          else callback({ statusCode: res.status, data: res.body });
        }),
      (err: unknown) => guard.run(() => callback(err)),
    );
  };
}
