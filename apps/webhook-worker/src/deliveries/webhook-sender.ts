import http from 'node:http';
import https from 'node:https';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { assertSendableHost, guardedLookup, PrivateAddressError } from '@gatehouse/identity';

export interface SendResult {
  /** The HTTP status, or null when no response came (timeout, refused address, network error). */
  status: number | null;
  /** Why the attempt failed, for operators (never sent to API clients). */
  error: string | null;
  durationMs: number;
}

const USER_AGENT = 'Gatehouse-Webhooks/1.0';

function describe(err: unknown): string {
  if (err instanceof PrivateAddressError) return 'refused address: the host is or resolves to a private, loopback or link-local address';
  const e = err as { code?: string; message?: string };
  return e.code ?? e.message ?? 'request failed';
}

/**
 * One POST to a webhook endpoint: keep-alive agents, redirects never followed (3xx is an answer
 * like any other), a hard timeout over the whole exchange (`WEBHOOK_TIMEOUT_MS`), and, unless
 * private URLs are allowed, the SSRF guard on the address actually connected to.
 */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64 });

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  send(target: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(target);
      if (!this.config.webhooks.allowPrivateUrls) assertSendableHost(url);
    } catch (err) {
      return Promise.resolve({ status: null, error: describe(err), durationMs: elapsed() });
    }
    return new Promise<SendResult>((resolve) => {
      let status: number | null = null;
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const settle = (error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status, error: status === null ? (error ?? 'no response') : error, durationMs: elapsed() });
      };
      const answered = () => settle(status !== null && (status < 200 || status > 299) ? `HTTP ${status}` : null);
      const secure = url.protocol === 'https:';
      try {
        const req = (secure ? https : http).request(url, {
          method: 'POST',
          agent: secure ? this.httpsAgent : this.httpAgent,
          headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': USER_AGENT },
          ...(this.config.webhooks.allowPrivateUrls ? {} : { lookup: guardedLookup }),
        });
        timer = setTimeout(() => {
          req.destroy(new Error('timeout'));
          settle(`timeout after ${this.config.webhooks.timeoutMs} ms`);
        }, this.config.webhooks.timeoutMs);
        req.on('response', (res) => {
          status = res.statusCode ?? null;
          res.on('error', answered);
          res.on('end', answered);
          res.on('close', answered);
          res.resume();
        });
        req.on('error', (err) => settle(describe(err)));
        req.end(body);
      } catch (err) {
        settle(describe(err));
      }
    });
  }

  onModuleDestroy(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
