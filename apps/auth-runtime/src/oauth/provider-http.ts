import type { AppConfig } from '@gatehouse/config';
import { outboundRequest, type OutboundResponse } from '@gatehouse/outbound';

/** Largest response we read from an identity provider; anything bigger is a provider error. */
export const MAX_PROVIDER_RESPONSE_BYTES = 1024 * 1024;

export type ProviderResponse = OutboundResponse;

/** How provider calls are bounded and guarded: `OAUTH_TIMEOUT_MS`, `OAUTH_ALLOW_PRIVATE_URLS`. */
export type ProviderCallPolicy = AppConfig['oauth'];

export class ProviderHttpError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderHttpError';
  }
}

/**
 * One HTTP call to an identity provider through the SSRF guard shared with webhooks
 * (`outboundRequest`: the host checked before connecting and every resolved address while
 * connecting, under `OAUTH_ALLOW_PRIVATE_URLS`), bounded in time (connect, headers and body
 * together) and size. Redirects are not followed. Rejects with the refusal, network or timeout error.
 */
export function providerRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  policy: ProviderCallPolicy,
): Promise<ProviderResponse> {
  return outboundRequest(
    url,
    {
      method: init.method ?? 'GET',
      headers: { 'User-Agent': 'Gatehouse', Accept: 'application/json', ...init.headers },
      ...(init.body !== undefined ? { body: init.body } : {}),
    },
    {
      mode: policy.allowPrivateUrls,
      timeoutMs: policy.timeoutMs,
      maxBytes: MAX_PROVIDER_RESPONSE_BYTES,
    },
  );
}

/** GET a JSON document (discovery, JWKS); non-2xx or non-JSON is a ProviderHttpError. */
export async function fetchProviderJson(url: string, policy: ProviderCallPolicy): Promise<unknown> {
  const res = await providerRequest(url, {}, policy);
  if (res.status < 200 || res.status > 299)
    throw new ProviderHttpError(`provider answered ${res.status}`, res.status);
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
  _request: (
    method: string,
    url: string,
    headers: Record<string, string> | null,
    body: string | Buffer | null,
    accessToken: string | null,
    callback: OAuth2Callback,
  ) => void;
}

/**
 * Replaces node-oauth's transport (plain `http.request` without any timeout, as used by every
 * passport-oauth2 strategy for the token exchange and profile calls) with `providerRequest`:
 * SSRF-guarded, bounded by the policy's timeout, capped in size, no redirects. Callback semantics
 * stay node-oauth's: non-2xx → `{statusCode, data}`; a throw inside a strategy's callback is
 * routed to `guard`.
 */
export function installBoundedTransport(
  oauth2: unknown,
  guard: CallbackGuard,
  policy: ProviderCallPolicy,
): void {
  const client = oauth2 as OAuth2Internals;
  client._request = (method, url, headers, body, accessToken, callback) => {
    const send = async (): Promise<ProviderResponse> => {
      const all: Record<string, string> = { ...(client._customHeaders ?? {}), ...(headers ?? {}) };
      const target = new URL(url);
      if (accessToken && !('Authorization' in all))
        target.searchParams.set(client._accessTokenName ?? 'access_token', accessToken);
      const payload =
        body === null || body === ''
          ? undefined
          : Buffer.isBuffer(body)
            ? body.toString('utf8')
            : body;
      return providerRequest(
        target.toString(),
        { method, headers: all, ...(payload !== undefined ? { body: payload } : {}) },
        policy,
      );
    };
    send().then(
      (res) =>
        guard.run(() => {
          if (res.status >= 200 && res.status <= 299)
            callback(null, res.body, { statusCode: res.status });
          else callback({ statusCode: res.status, data: res.body });
        }),
      (err: unknown) => guard.run(() => callback(err)),
    );
  };
}
