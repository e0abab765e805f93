import { createHash, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import type { Extension, PGlite } from '@electric-sql/pglite';

/** Codes of the frontend's first message that are not a StartupMessage (PostgreSQL protocol 3). */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);
const READY_FOR_QUERY = 0x5a; // 'Z'
const TERMINATE = 0x58; // 'X'
const PASSWORD_MESSAGE = 0x70; // 'p'
/** AuthenticationCleartextPassword: the client answers with a PasswordMessage (loopback only). */
const ASK_PASSWORD = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]);
const digest = (b: Buffer | string) => createHash('sha256').update(b).digest();

type TxStatus = 'I' | 'T' | 'E';

/** An ErrorResponse, as PostgreSQL sends it before it closes a connection. */
function fatal(code: string, message: string): Buffer {
  const fields = Buffer.concat([
    Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0`),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(5);
  head[0] = 0x45; // 'E'
  head.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([head, fields]);
}

function simpleQuery(sql: string): Buffer {
  const text = Buffer.from(`${sql}\0`);
  const head = Buffer.alloc(5);
  head[0] = 0x51; // 'Q'
  head.writeInt32BE(4 + text.length, 1);
  return Buffer.concat([head, text]);
}

/** One client connection: its unread input, the messages it sent that have not run yet, where its exchange stands. */
class Session {
  input: Buffer = Buffer.alloc(0);
  started = false;
  /** The StartupMessage, held until the client's password is checked (a server with a password). */
  startup: Buffer | null = null;
  /** Complete frontend messages waiting for the database (a StartupMessage is flagged: PGlite takes it alone). */
  pending: { data: Buffer; startup: boolean }[] = [];
  /** Backend output not yet framed into whole messages. */
  output: Buffer = Buffer.alloc(0);
  /** The transaction status of the last ReadyForQuery, and whether nothing has come since (the session is between exchanges). */
  status: TxStatus = 'I';
  betweenExchanges = true;
  closed = false;
  constructor(
    readonly id: number,
    readonly socket: net.Socket,
  ) {}

  /** Between exchanges and outside a transaction: nothing of this session is in progress in the database. */
  get idle(): boolean {
    return this.betweenExchanges && this.status === 'I';
  }
}

export interface EmbeddedDatabaseServerOptions {
  host?: string;
  /** 0 (the default): a port the OS chooses; read it from `port` once started. */
  port?: number;
  maxConnections?: number;
  /**
   * How long a session may sit inside a transaction (or mid-exchange) sending nothing while other
   * connections wait for the database, before it is ended with PostgreSQL's FATAL 25P03 and its
   * transaction rolled back: what breaks a wait cycle between two connections of one process.
   */
  idleInTransactionTimeoutMs?: number;
  /** Where refusals and ended sessions are reported (console.warn by default). */
  warn?: (message: string) => void;
  /**
   * The password every connection must give before its StartupMessage reaches the database
   * (cleartext password authentication, as PostgreSQL's `password` method: loopback only). Without
   * it, any local user of the machine could read and change the database while it is served.
   */
  password?: string;
}

/**
 * Serves one PGlite database to many `pg` clients over loopback TCP, one session at a time.
 *
 * PGlite is a single PostgreSQL backend: one session, one unnamed statement, one unnamed portal,
 * one transaction. pglite-socket's server queues each protocol *message* of every connection on
 * its own, so the Parse, Bind, Execute and Sync of two connections' extended-protocol queries
 * interleave ("portal "" does not exist", "bind message supplies 2 parameters, but prepared
 * statement "" requires 4"), and the affinity it keeps inside a transaction only starts once the
 * BEGIN has run. Here the unit is the *exchange*: a connection that sends a message takes the
 * session and keeps it until the database answers it ReadyForQuery with status 'I' (idle, outside
 * a transaction); meanwhile every other connection's messages wait, in arrival order. So a query
 * reaches the database whole, and a transaction (status 'T', or 'E' once failed) keeps the
 * session from BEGIN to COMMIT or ROLLBACK. A connection that goes away while it holds the session
 * has its exchange ended (Sync) and its transaction rolled back before the next one gets it.
 */
export class EmbeddedDatabaseServer {
  private server: net.Server | null = null;
  private readonly sessions = new Set<Session>();
  private owner: Session | null = null;
  private readonly waiting: Session[] = [];
  private running = false;
  private stopped = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private readonly warn: (message: string) => void;
  private readonly idleInTransactionTimeoutMs: number;
  private readonly maxConnections: number;
  port = 0;

  constructor(
    private readonly db: PGlite,
    private readonly opts: EmbeddedDatabaseServerOptions = {},
  ) {
    this.warn = opts.warn ?? ((m) => console.warn(`gatehouse: embedded database: ${m}`));
    this.idleInTransactionTimeoutMs = opts.idleInTransactionTimeoutMs ?? 10_000;
    this.maxConnections = opts.maxConnections ?? 64;
  }

  async start(): Promise<number> {
    await this.db.waitReady;
    const server = net.createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.port ?? 0, this.opts.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.port = (server.address() as net.AddressInfo).port;
    return this.port;
  }

  /** Stops listening and ends every connection; the exchange running, if any, finishes first. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.idleTimer);
    for (const s of this.sessions) s.socket.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    while (this.running) await new Promise((r) => setTimeout(r, 5));
  }

  /** Connections open, and how many wait for the session (for tests and diagnostics). */
  stats(): { connections: number; waiting: number; owner: number | null } {
    return {
      connections: this.sessions.size,
      waiting: this.waiting.length,
      owner: this.owner?.id ?? null,
    };
  }

  private accept(socket: net.Socket): void {
    if (this.stopped || this.sessions.size >= this.maxConnections) {
      socket.end(fatal('53300', 'sorry, too many clients already'));
      return;
    }
    socket.setNoDelay(true);
    const s = new Session(this.nextId++, socket);
    this.sessions.add(s);
    socket.on('data', (chunk: Buffer) => this.receive(s, chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.gone(s));
  }

  /** Frames the client's bytes into whole messages and asks for the session. */
  private receive(s: Session, chunk: Buffer): void {
    if (s.closed) return;
    s.input = s.input.length ? Buffer.concat([s.input, chunk]) : chunk;
    for (;;) {
      if (!s.started) {
        if (s.input.length < 8) break;
        const length = s.input.readInt32BE(0);
        const code = s.input.readInt32BE(4);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          s.input = s.input.subarray(8);
          s.socket.write('N');
          continue;
        }
        if (code === CANCEL_REQUEST || length < 8 || length > 10_000) {
          // Cancelling is not supported (one backend runs one statement at a time anyway).
          s.socket.destroy();
          return;
        }
        if (s.input.length < length) break;
        const startup = Buffer.from(s.input.subarray(0, length));
        s.input = s.input.subarray(length);
        s.started = true;
        if (this.opts.password === undefined) s.pending.push({ data: startup, startup: true });
        else {
          s.startup = startup;
          s.socket.write(ASK_PASSWORD);
        }
        continue;
      }
      if (s.input.length < 5) break;
      const length = s.input.readInt32BE(1);
      if (length < 4) {
        s.socket.destroy();
        return;
      }
      if (s.input.length < 1 + length) break;
      const message = Buffer.from(s.input.subarray(0, 1 + length));
      s.input = s.input.subarray(1 + length);
      if (s.startup) {
        // Only the PasswordMessage may come before the session starts.
        const given =
          message[0] === PASSWORD_MESSAGE ? message.subarray(5, message.length - 1) : null;
        if (!given || !timingSafeEqual(digest(given), digest(this.opts.password ?? ''))) {
          s.socket.end(fatal('28P01', 'password authentication failed for user "postgres"'));
          this.gone(s);
          return;
        }
        s.pending.push({ data: s.startup, startup: true });
        s.startup = null;
        continue;
      }
      if (message[0] === TERMINATE) {
        // Never handed to PGlite: for its one backend, Terminate would end the whole database.
        s.socket.end();
        return;
      }
      s.pending.push({ data: message, startup: false });
    }
    if (s.pending.length) this.want(s);
  }

  private want(s: Session): void {
    if (this.owner === s) clearTimeout(this.idleTimer);
    else if (!this.owner) this.owner = s;
    else if (!this.waiting.includes(s)) this.waiting.push(s);
    void this.pump();
  }

  private gone(s: Session): void {
    if (s.closed) return;
    s.closed = true;
    s.pending = [];
    this.sessions.delete(s);
    const i = this.waiting.indexOf(s);
    if (i >= 0) this.waiting.splice(i, 1);
    if (this.owner === s) void this.pump();
  }

  /** Runs the owner's messages until it is idle, then hands the session to the next connection that waits. */
  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (!this.stopped) {
        const s = this.owner;
        if (!s) break;
        if (s.closed) {
          if (!s.idle) await this.abandon(s);
          this.handOver();
          continue;
        }
        if (!s.pending.length) break; // inside its transaction, waiting for its next statement
        await this.run(s, s.pending.splice(0));
        if (s.idle) this.handOver();
      }
    } finally {
      this.running = false;
      this.armIdleTimer();
    }
  }

  private handOver(): void {
    const previous = this.owner;
    this.owner = null;
    if (previous && !previous.closed && previous.pending.length) this.waiting.push(previous);
    while (!this.owner && this.waiting.length) {
      const next = this.waiting.shift()!;
      if (!next.closed) this.owner = next;
    }
  }

  /** Hands the messages to PGlite (a StartupMessage alone, the rest in one call) and relays the answers. */
  private async run(s: Session, messages: { data: Buffer; startup: boolean }[]): Promise<void> {
    const batches: Buffer[] = [];
    let regular: Buffer[] = [];
    for (const m of messages) {
      if (!m.startup) {
        regular.push(m.data);
        continue;
      }
      if (regular.length) batches.push(Buffer.concat(regular));
      regular = [];
      batches.push(m.data);
    }
    if (regular.length) batches.push(Buffer.concat(regular));
    for (const batch of batches) {
      if (s.closed) return;
      const out = await this.exec(batch);
      if (out === null) {
        s.socket.destroy();
        s.closed = true;
        return;
      }
      this.track(s, out);
      if (out.length && !s.closed && s.socket.writable) s.socket.write(out);
    }
  }

  private async exec(batch: Buffer): Promise<Buffer | null> {
    const chunks: Buffer[] = [];
    try {
      await this.db.runExclusive(() =>
        this.db.execProtocolRawStream(
          new Uint8Array(batch.buffer, batch.byteOffset, batch.length),
          { onRawData: (data) => chunks.push(Buffer.from(data)) },
        ),
      );
    } catch (err) {
      this.warn(`a protocol exchange failed: ${(err as Error).message}`);
      return null;
    }
    return Buffer.concat(chunks);
  }

  /** Follows the backend's messages: the last ReadyForQuery's status, and whether anything came after it. */
  private track(s: Session, out: Buffer): void {
    let buf = s.output.length ? Buffer.concat([s.output, out]) : out;
    while (buf.length >= 5) {
      const length = buf.readInt32BE(1);
      if (buf.length < 1 + length) break;
      if (buf[0] === READY_FOR_QUERY) {
        s.status = String.fromCharCode(buf[5]) as TxStatus;
        s.betweenExchanges = true;
      } else s.betweenExchanges = false;
      buf = buf.subarray(1 + length);
    }
    s.output = Buffer.from(buf);
    if (s.output.length) s.betweenExchanges = false;
  }

  /** A connection that left mid-exchange or mid-transaction: end its exchange and roll its transaction back. */
  private async abandon(s: Session): Promise<void> {
    s.output = Buffer.alloc(0);
    const synced = await this.exec(SYNC);
    if (synced) this.track(s, synced);
    if (s.status !== 'I') {
      const rolledBack = await this.exec(simpleQuery('ROLLBACK'));
      if (rolledBack) this.track(s, rolledBack);
    }
    if (!s.idle)
      this.warn(
        `connection ${s.id} left its transaction open and it could not be rolled back (status ${s.status})`,
      );
  }

  /**
   * A session holding the database inside a transaction while others wait gets
   * `idleInTransactionTimeoutMs` to send its next statement; then it is ended (and `pump` rolls
   * its transaction back), as PostgreSQL's idle_in_transaction_session_timeout would.
   */
  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    const s = this.owner;
    if (!s || this.stopped || this.running || s.pending.length || !this.waiting.length) return;
    this.idleTimer = setTimeout(() => {
      if (this.owner !== s || this.running || s.pending.length || s.closed) return;
      this.warn(
        `connection ${s.id} sat ${this.idleInTransactionTimeoutMs} ms in a transaction (status ${s.status}) while ${this.waiting.length} other connection(s) waited; ended it and rolled its transaction back`,
      );
      s.socket.end(fatal('25P03', 'terminating connection due to idle-in-transaction timeout'));
      setTimeout(() => s.socket.destroy(), 1000).unref();
      this.gone(s);
    }, this.idleInTransactionTimeoutMs);
    this.idleTimer.unref();
  }
}

/** Opens (creating on first use) a PGlite database in `dataDir` with the extensions the migrations need. */
export async function openPglite(dataDir: string): Promise<PGlite> {
  // Loaded only here: normal mode never pays for the embedded database. The `exports` subpath is
  // invisible to TypeScript's `node` module resolution; Node resolves it fine.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { PGlite: Database } =
    require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
  const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return Database.create(dataDir, { extensions: { pg_trgm } });
}
