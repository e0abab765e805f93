import net from 'node:net';

/**
 * A loopback TCP proxy in front of Postgres or Redis that a test can cut (drop every connection and
 * refuse new ones) and restore, to see how an app behaves while a dependency is down.
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private cutOff = false;
  private holeMode = false;
  /** Extra latency added to every chunk sent back to the client. */
  delayMs = 0;
  port = 0;

  constructor(
    private readonly targetPort: number,
    private readonly targetHost = '127.0.0.1',
  ) {}

  async start(): Promise<number> {
    this.server = net.createServer((client) => {
      if (this.cutOff) {
        client.destroy();
        return;
      }
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => client.destroy());
      if (this.holeMode) return; // accepted, never answered
      const upstream = net.connect(this.targetPort, this.targetHost);
      this.sockets.add(upstream);
      upstream.on('close', () => this.sockets.delete(upstream));
      upstream.on('error', () => upstream.destroy());
      client.on('data', (chunk: Buffer) => {
        if (!this.holeMode) upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => {
        if (this.holeMode) return;
        if (this.delayMs > 0) setTimeout(() => client.write(chunk), this.delayMs);
        else client.write(chunk);
      });
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
    // Connections that lived through a black hole lost bytes: drop them so clients reconnect.
    if (this.holeMode) for (const s of this.sockets) s.destroy();
    this.cutOff = false;
    this.holeMode = false;
  }

  /** Keeps connections open but swallows all traffic: a dependency that hangs. */
  blackhole(): void {
    this.holeMode = true;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}

/** Rewrites the port (and keeps the rest) of a postgres:// or redis:// URL. */
export function withPort(url: string, port: number): string {
  const u = new URL(url);
  u.port = String(port);
  u.hostname = '127.0.0.1';
  return u.toString();
}
