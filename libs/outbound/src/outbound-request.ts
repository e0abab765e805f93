import http from 'node:http';
import https from 'node:https';
import type { PrivateUrlMode } from '@gatehouse/config';
import { outboundTarget } from './guarded-connection';

export interface OutboundRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface OutboundLimits {
  /** Which non-public addresses may be reached (the guard runs in every mode). */
  mode: PrivateUrlMode;
  /** Bound on the whole exchange: connect, headers and body. */
  timeoutMs: number;
  /** Largest response body read; a bigger one fails the call. */
  maxBytes: number;
}

export interface OutboundResponse {
  status: number;
  body: string;
}

/** Why an outbound call produced no usable answer besides a refused address or a network error. */
export class OutboundHttpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundHttpError';
  }
}

/**
 * Keep-alive agents per mode: a pooled connection was opened through that mode's guard, so it is
 * never reused by a caller running under another mode (several apps can share one process in tests).
 */
const agents = new Map<string, http.Agent>();
function agentFor(secure: boolean, mode: PrivateUrlMode): http.Agent {
  const key = `${secure ? 'https' : 'http'}:${mode}`;
  let agent = agents.get(key);
  if (!agent) {
    // Idle connections close after 5 s (a sign-in makes its calls within one), before most servers drop them.
    const options = { keepAlive: true, maxSockets: 50, timeout: 5_000 };
    agent = secure ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/**
 * One HTTP request to a URL an admin or a provider document supplied, through the guarded target
 * (`outboundTarget`): bounded in time and size, redirects never followed (a 3xx is an answer like
 * any other). Rejects with PrivateAddressError for a refused address, OutboundHttpError for a
 * timeout or an oversized answer, or the network error.
 */
export function outboundRequest(
  url: string | URL,
  init: OutboundRequestInit,
  limits: OutboundLimits,
): Promise<OutboundResponse> {
  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (err: Error | null, res?: OutboundResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(res!);
    };
    try {
      const target = outboundTarget(url, limits.mode);
      const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8');
      // Host and length are ours to set: a caller's (any case) would be sent twice or lie.
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(init.headers ?? {}))
        if (!/^(host|content-length)$/i.test(name)) headers[name] = value;
      headers.host = target.host;
      if (body) headers['content-length'] = String(body.length);
      const req = (target.secure ? https : http).request({
        ...target.options,
        method: init.method ?? 'GET',
        headers,
        agent: agentFor(target.secure, limits.mode),
      });
      timer = setTimeout(() => {
        const err = new OutboundHttpError(`no complete answer within ${limits.timeoutMs} ms`);
        req.destroy(err);
        finish(err);
      }, limits.timeoutMs);
      req.on('error', (err) => finish(err));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let total = 0;
        res.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > limits.maxBytes) {
            const err = new OutboundHttpError(`answer larger than ${limits.maxBytes} bytes`);
            req.destroy(err);
            finish(err);
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', (err) => finish(err));
        res.on('end', () =>
          finish(null, {
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('close', () => {
          if (!res.complete) finish(new OutboundHttpError('answer cut short'));
        });
      });
      req.end(body);
    } catch (err) {
      finish(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
