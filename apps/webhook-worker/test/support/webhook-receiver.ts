import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '@gatehouse/config';
import { Webhook } from '@gatehouse/entities';
import { newWebhookSecret, sealWebhookSecret } from '@gatehouse/webhooks';

export interface ReceivedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Arrival time (ms, wall clock). */
  at: number;
}

/** What the receiver answers to the n-th request (1-based) on a path; `hang` never answers. */
export type Reply = { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang';

/**
 * A real local HTTP endpoint for webhook deliveries: records every request (path, headers, raw
 * body) and answers as each test scripts it.
 */
export class WebhookReceiver {
  private server: http.Server | null = null;
  private readonly sockets = new Set<Socket>();
  private replies = new Map<string, (n: number) => Reply>();
  received: ReceivedRequest[] = [];
  port = 0;

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
        this.received.push({
          path,
          headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        const n = this.received.filter((r) => r.path === path).length;
        const reply = this.replies.get(path)?.(n) ?? { status: 200 };
        if (reply === 'hang') return;
        const send = () => {
          res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
          res.end('ok');
        };
        if (reply.delayMs) setTimeout(send, reply.delayMs);
        else send();
      });
    });
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(path: string, host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  /** Scripts the answers of a path (default: 200 at once). */
  reply(path: string, fn: (n: number) => Reply): void {
    this.replies.set(path, fn);
  }

  on(path: string): ReceivedRequest[] {
    return this.received.filter((r) => r.path === path);
  }

  reset(): void {
    this.received = [];
    this.replies = new Map();
    for (const s of this.sockets) s.destroy();
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}

/** Verifies a received request with the `standardwebhooks` package; returns the parsed payload (throws if the signature is wrong). */
export function verified(secret: string, r: ReceivedRequest): Record<string, unknown> {
  return new StandardWebhook(secret).verify(r.body, {
    'webhook-id': r.headers['webhook-id'] ?? '',
    'webhook-timestamp': r.headers['webhook-timestamp'] ?? '',
    'webhook-signature': r.headers['webhook-signature'] ?? '',
  }) as Record<string, unknown>;
}

/** A webhook row with a known secret, written directly (the control-plane API is tested on its own). */
export async function insertWebhook(
  dataSource: DataSource,
  config: AppConfig,
  values: { tenantId: string; url: string; events: string[]; enabled?: boolean },
): Promise<{ id: string; secret: string }> {
  const id = randomUUID();
  const secret = newWebhookSecret();
  await dataSource.getRepository(Webhook).insert({
    id,
    tenantId: values.tenantId,
    url: values.url,
    events: values.events,
    description: null,
    enabled: values.enabled ?? true,
    disabledReason: null,
    secretEncrypted: sealWebhookSecret(config, id, secret),
  });
  return { id, secret };
}

/** Polls until `check` returns a truthy value, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
