import dns2 from 'dns2';

const { Packet } = dns2;

/**
 * A real DNS server on loopback (UDP, a random port) answering TXT queries with the records a test
 * sets: what `DNS_RESOLVERS=127.0.0.1:<port>` points the app at. A name without records is
 * NXDOMAIN; a name marked failing is SERVFAIL; an ignored name gets no answer at all.
 */
export class TxtDnsServer {
  private readonly records = new Map<string, string[][]>();
  private readonly failing = new Set<string>();
  private readonly silent = new Set<string>();
  private server: ReturnType<typeof dns2.createUDPServer> | null = null;
  /** Every TXT name asked, in order. */
  readonly queries: string[] = [];

  async start(): Promise<this> {
    const server = dns2.createUDPServer((request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = (question?.name ?? '').toLowerCase().replace(/\.$/, '');
      this.queries.push(name);
      if (this.silent.has(name)) return;
      const values = this.records.get(name);
      if (this.failing.has(name)) response.header.rcode = Packet.RCODE.SERVFAIL;
      else if (!values) response.header.rcode = Packet.RCODE.NXDOMAIN;
      else if (question.type === Packet.TYPE.TXT)
        for (const data of values)
          response.answers.push({
            name: question.name,
            type: Packet.TYPE.TXT,
            class: Packet.CLASS.IN,
            ttl: 1,
            data,
          } as never);
      void send(response);
    });
    await server.listen(0, '127.0.0.1');
    this.server = server;
    return this;
  }

  /** `127.0.0.1:<port>`, a value of DNS_RESOLVERS. */
  get address(): string {
    const a = this.server?.address();
    if (!a) throw new Error('the DNS server is not started');
    return `${a.address}:${a.port}`;
  }

  /** The TXT records of `name` (each one string, or several chunks of one record). */
  setTxt(name: string, ...values: (string | string[])[]): void {
    this.records.set(
      name.toLowerCase(),
      values.map((v) => (Array.isArray(v) ? v : [v])),
    );
  }

  /** Answers SERVFAIL for `name`. */
  fail(name: string): void {
    this.failing.add(name.toLowerCase());
  }

  /** Never answers queries for `name` (a server that times out). */
  ignore(name: string): void {
    this.silent.add(name.toLowerCase());
  }

  reset(): void {
    this.records.clear();
    this.failing.clear();
    this.silent.clear();
    this.queries.length = 0;
  }

  close(): Promise<void> {
    const server = this.server;
    this.server = null;
    return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}
