import http from 'node:http';
import https from 'node:https';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { outboundTarget, PrivateAddressError } from '@gatehouse/outbound';

export interface SendResult {
  /** The HTTP status, or null when no response came (timeout, refused address, network error). */
  status: number | null;
  /** Why the attempt failed, for operators (never sent to API clients). */
  error: string | null;
  durationMs: number;
  /** The address was refused (SSRF guard): nothing was sent. */
  refused?: boolean;
  /** The receiver's headers and the first RESPONSE_BODY_LIMIT bytes of its body (as text), when it answered. */
  responseHeaders?: Record<string, string>;
  responseBody?: string;
}

/** How much of a receiver's answer a delivery record keeps (docs/api-contract.md §13: the first 4 KiB). */
export const RESPONSE_BODY_LIMIT = 4096;

export const USER_AGENT = 'Gatehouse-Webhooks/1.0';

interface Target {
  secure: boolean;
  host: string;
  options: http.RequestOptions;
}

function describe(err: unknown): string {
  if (err instanceof PrivateAddressError)
    return 'refused address: the host is or resolves to a loopback, private, link-local or metadata address';
  const e = err as { code?: string; message?: string };
  return e.code ?? e.message ?? 'request failed';
}

/**
 * One POST to a webhook endpoint: keep-alive agents, redirects never followed (3xx is an answer
 * like any other), a hard timeout over the whole exchange (`WEBHOOK_TIMEOUT_MS`), and the SSRF
 * guard (`outboundTarget`, shared with the OAuth provider calls) on the address actually connected
 * to, in every `WEBHOOK_ALLOW_PRIVATE_URLS` mode.
 */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  // At most 50 connections at a time to one endpoint; further requests wait for a free one (inside the timeout).
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 50 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 50 });

  /** Request options per URL, parsed (and SSRF-checked when literal) once. */
  private readonly targets = new Map<string, Target | { refused: string }>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  private target(raw: string): Target | { refused: string } {
    let t = this.targets.get(raw);
    if (t) return t;
    try {
      const target = outboundTarget(raw, this.config.webhooks.allowPrivateUrls);
      t = {
        ...target,
        options: {
          ...target.options,
          method: 'POST',
          agent: target.secure ? this.httpsAgent : this.httpAgent,
        },
      };
    } catch (err) {
      t = { refused: describe(err) };
    }
    if (this.targets.size >= 1000) this.targets.clear();
    this.targets.set(raw, t);
    return t;
  }

  send(target: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const t = this.target(target);
    if ('refused' in t)
      return Promise.resolve({
        status: null,
        error: t.refused,
        durationMs: elapsed(),
        refused: true,
      });
    return new Promise<SendResult>((resolve) => {
      let status: number | null = null;
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      let refused = false;
      let responseHeaders: Record<string, string> | undefined;
      const bodyChunks: Buffer[] = [];
      let bodyBytes = 0;
      const settle = (error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({
          status,
          error: status === null ? (error ?? 'no response') : error,
          durationMs: elapsed(),
          ...(refused ? { refused } : {}),
          ...(responseHeaders
            ? {
                responseHeaders,
                responseBody: Buffer.concat(bodyChunks)
                  .subarray(0, RESPONSE_BODY_LIMIT)
                  .toString('utf8'),
              }
            : {}),
        });
      };
      const answered = () =>
        settle(status !== null && (status < 200 || status > 299) ? `HTTP ${status}` : null);
      try {
        // Headers as a flat array: Node writes them as given (a quarter less CPU per request than an object).
        const raw = [
          'host',
          t.host,
          'content-type',
          'application/json',
          'content-length',
          String(Buffer.byteLength(body)),
          'user-agent',
          USER_AGENT,
        ];
        for (const name in headers) raw.push(name, headers[name]);
        const req = (t.secure ? https : http).request({ ...t.options, headers: raw });
        timer = setTimeout(() => {
          req.destroy(new Error('timeout'));
          settle(`timeout after ${this.config.webhooks.timeoutMs} ms`);
        }, this.config.webhooks.timeoutMs);
        req.on('response', (res) => {
          status = res.statusCode ?? null;
          responseHeaders = {};
          for (const [name, value] of Object.entries(res.headers))
            if (value !== undefined)
              responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
          res.on('error', answered);
          res.on('end', answered);
          res.on('close', answered);
          // Keeps the first 4 KiB; the rest is read and dropped.
          res.on('data', (chunk: Buffer) => {
            if (bodyBytes >= RESPONSE_BODY_LIMIT) return;
            bodyChunks.push(chunk);
            bodyBytes += chunk.length;
          });
        });
        req.on('error', (err) => {
          if (err instanceof PrivateAddressError) refused = true;
          settle(describe(err));
        });
        req.end(body);
      } catch (err) {
        settle(describe(err));
      }
    });
  }

  /** After the consumers stopped (their attempts in progress finished), never before. */
  onApplicationShutdown(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
