import net from 'node:net';

/**
 * A loopback TCP proxy in front of Postgres or Redis that a test can cut (drop every connection and
 * refuse new ones) and restore, to see how an app behaves while a dependency is down.
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private cutOff = false;
  port = 0;

  constructor(private readonly targetPort: number, private readonly targetHost = '127.0.0.1') {}

  async start(): Promise<number> {
    this.server = net.createServer((client) => {
      if (this.cutOff) {
        client.destroy();
        return;
      }
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  cut(): void {
    this.cutOff = true;
    for (const s of this.sockets) s.destroy();
  }

  restore(): void {
    this.cutOff = false;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Rewrites the port (and keeps the rest) of a postgres:// or redis:// URL. */
export function withPort(url: string, port: number): string {
  const u = new URL(url);
  u.port = String(port);
  u.hostname = '127.0.0.1';
  return u.toString();
}
