import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of Redis that parses the client side of RESP and counts commands (one
 * top-level array each), keeping their names. Only for the hot-path check, never under load.
 */
export class RedisCommandCounter {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private commands: string[] = [];
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<number> {
    this.server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.on('data', this.parser());
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  /** Starts a new count; returns the command names seen since the last reset. */
  reset(): string[] {
    const out = this.commands;
    this.commands = [];
    return out;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private parser(): (chunk: Buffer) => void {
    let buffered: Buffer = Buffer.alloc(0);
    /** Reads `<prefix><number>\r\n` at `at`; null when incomplete. */
    const header = (at: number, prefix: string): { value: number; next: number } | null => {
      const end = buffered.indexOf('\r\n', at);
      if (end < 0) return null;
      if (String.fromCharCode(buffered[at]) !== prefix) throw new Error('unexpected RESP');
      return { value: Number(buffered.subarray(at + 1, end).toString()), next: end + 2 };
    };
    return (chunk: Buffer) => {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      try {
        for (;;) {
          const array = header(0, '*');
          if (!array) return;
          let at = array.next;
          let name = '';
          for (let i = 0; i < array.value; i++) {
            const bulk = header(at, '$');
            if (!bulk || buffered.length < bulk.next + bulk.value + 2) return;
            if (i === 0) name = buffered.subarray(bulk.next, bulk.next + bulk.value).toString();
            at = bulk.next + bulk.value + 2;
          }
          this.commands.push(name.toUpperCase());
          buffered = buffered.subarray(at);
        }
      } catch {
        buffered = Buffer.alloc(0); // inline commands are not used by ioredis; stop counting this chunk
      }
    };
  }
}
