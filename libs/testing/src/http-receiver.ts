import http from 'node:http';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP server on loopback standing in for an external party (SMS gateway, webhook
 * endpoint). `respond` decides each answer; every request is kept.
 */
export class HttpReceiver {
  readonly requests: ReceivedRequest[] = [];
  respond: (req: ReceivedRequest) => {
    status: number;
    body?: string;
    headers?: Record<string, string>;
    /** Answer this late (a slow party). */ delayMs?: number;
  } = () => ({ status: 200, body: '{}' });
  private server: http.Server | null = null;
  port = 0;

  /** Listens on `host` (default 127.0.0.1; `::` also takes IPv6 and `0.0.0.0` connections); `url` stays on 127.0.0.1. */
  async start(host = '127.0.0.1'): Promise<number> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const received = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        };
        this.requests.push(received);
        const answer = this.respond(received);
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
          res.end(answer.body ?? '');
        };
        if (answer.delayMs) setTimeout(send, answer.delayMs);
        else send();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, host, resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  clear(): void {
    this.requests.length = 0;
  }

  async waitFor(
    predicate: (r: ReceivedRequest) => boolean,
    timeoutMs = 15_000,
  ): Promise<ReceivedRequest> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const found = this.requests.find(predicate);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no matching request within ${timeoutMs} ms (got ${this.requests.length})`);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}
