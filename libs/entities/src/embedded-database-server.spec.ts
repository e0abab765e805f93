import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';

/**
 * PGlite loads its file system with a dynamic import, which Jest's module sandbox refuses, so the
 * server under test runs in a child Node process: this file's sibling, transpiled as it is.
 */
function startServerProcess(
  idleInTransactionTimeoutMs: number,
  warnings: string[],
  password?: string,
): Promise<{ child: ChildProcess; port: number }> {
  const file = join(__dirname, 'embedded-database-server.ts');
  const script = `
    const ts = require('typescript'); const fs = require('node:fs'); const Module = require('node:module'); const path = require('node:path');
    const file = ${JSON.stringify(file)};
    const js = ts.transpileModule(fs.readFileSync(file, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText;
    const m = new Module(file); m.filename = file; m.paths = Module._nodeModulePaths(path.dirname(file)); m._compile(js, file);
    const { EmbeddedDatabaseServer, openPglite } = m.exports;
    (async () => {
      const db = await openPglite('memory://');
      const server = new EmbeddedDatabaseServer(db, { idleInTransactionTimeoutMs: ${idleInTransactionTimeoutMs}, password: ${JSON.stringify(password)}, warn: (w) => process.stderr.write('WARN ' + w + '\\n') });
      process.stdout.write('PORT ' + (await server.start()) + '\\n');
    })();`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr.on('data', (d: Buffer) =>
    warnings.push(
      ...d
        .toString()
        .split('\n')
        .filter((l) => l.startsWith('WARN ')),
    ),
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const port = /PORT (\d+)/.exec(out)?.[1];
      if (port) resolve({ child, port: Number(port) });
    });
    child.once('exit', (code) => reject(new Error(`the server process exited (${code}): ${out}`)));
  });
}

/** Frontend messages of protocol 3, written by hand so a test decides exactly when each is sent. */
const msg = (type: string, body: Buffer) => {
  const head = Buffer.alloc(5);
  head.write(type, 0);
  head.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
};
const cstr = (s: string) => Buffer.from(`${s}\0`);
const int16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const startup = () => {
  const body = Buffer.concat([
    int32(196608),
    cstr('user'),
    cstr('postgres'),
    cstr('database'),
    cstr('postgres'),
    Buffer.from([0]),
  ]);
  return Buffer.concat([int32(4 + body.length), body]);
};
const parse = (sql: string) => msg('P', Buffer.concat([cstr(''), cstr(sql), int16(0)]));
const bind = (params: string[]) =>
  msg(
    'B',
    Buffer.concat([
      cstr(''),
      cstr(''),
      int16(0),
      int16(params.length),
      ...params.flatMap((p) => [int32(Buffer.byteLength(p)), Buffer.from(p)]),
      int16(0),
    ]),
  );
const execute = () => msg('E', Buffer.concat([cstr(''), int32(0)]));
const sync = () => msg('S', Buffer.alloc(0));

/** A raw connection that collects the backend's messages. */
class RawConnection {
  private readonly socket: net.Socket;
  private data = Buffer.alloc(0);
  constructor(port: number) {
    this.socket = net.connect({ host: '127.0.0.1', port });
    this.socket.on('data', (d: Buffer) => (this.data = Buffer.concat([this.data, d])));
  }
  send(...messages: Buffer[]): void {
    this.socket.write(Buffer.concat(messages));
  }
  /** The backend's messages so far: type letters, DataRow values, error messages. */
  messages(): { types: string; rows: string[][]; errors: string[] } {
    let types = '';
    const rows: string[][] = [];
    const errors: string[] = [];
    for (let at = 0; at + 5 <= this.data.length;) {
      const type = String.fromCharCode(this.data[at]);
      const len = this.data.readInt32BE(at + 1);
      const body = this.data.subarray(at + 5, at + 1 + len);
      types += type;
      if (type === 'D') {
        const values: string[] = [];
        let p = 2;
        for (let i = 0; i < body.readInt16BE(0); i++) {
          const n = body.readInt32BE(p);
          values.push(body.subarray(p + 4, p + 4 + n).toString());
          p += 4 + n;
        }
        rows.push(values);
      }
      if (type === 'E')
        errors.push(
          body
            .toString()
            .split('\0')
            .find((f) => f.startsWith('M'))!
            .slice(1),
        );
      at += 1 + len;
    }
    return { types, rows, errors };
  }
  async until(check: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!check()) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}: ${JSON.stringify(this.messages())}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  readyCount(): number {
    return [...this.messages().types].filter((t) => t === 'Z').length;
  }
  close(): void {
    this.socket.destroy();
  }
}

const settle = (ms = 150) => new Promise((r) => setTimeout(r, ms));

describe('EmbeddedDatabaseServer: one PGlite session, one connection at a time', () => {
  let server: { child: ChildProcess; port: number };
  const warnings: string[] = [];
  const url = () => `postgres://postgres@127.0.0.1:${server.port}/postgres`;
  const client = async () => {
    const c = new Client({ connectionString: url() });
    c.on('error', () => undefined);
    await c.connect();
    return c;
  };

  const sql = async (text: string) => {
    const c = await client();
    try {
      return (await c.query(text)).rows;
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    server = await startServerProcess(600, warnings);
    await sql('CREATE TABLE items (id int PRIMARY KEY, note text)');
  }, 60_000);
  afterAll(() => {
    server?.child.kill('SIGKILL');
  });
  beforeEach(async () => {
    await sql('TRUNCATE items');
    warnings.length = 0;
  });

  it("keeps two connections' interleaved extended-protocol exchanges apart: the second waits for the first one's Sync", async () => {
    const a = new RawConnection(server.port);
    const b = new RawConnection(server.port);
    try {
      a.send(startup());
      b.send(startup());
      await a.until(() => a.readyCount() === 1, 'a started');
      await b.until(() => b.readyCount() === 1, 'b started');
      const started = b.messages().types;
      // A parses and binds a 2-parameter statement, then pauses before Execute and Sync.
      a.send(parse('SELECT $1::int + $2::int AS sum'), bind(['2', '3']));
      await a.until(() => a.messages().types.endsWith('12'), 'a parsed and bound');
      // Meanwhile B sends a whole 4-parameter exchange: on the one backend it would replace A's
      // unnamed statement and portal. It must wait.
      b.send(
        parse('SELECT $1::text || $2::text || $3::text || $4::text AS joined'),
        bind(['w', 'x', 'y', 'z']),
        execute(),
        sync(),
      );
      await settle();
      expect(b.messages().types).toBe(started); // nothing but its start-up so far
      a.send(execute(), sync());
      await a.until(() => a.readyCount() === 2, 'a done');
      await b.until(() => b.readyCount() === 2, 'b done');
      expect(a.messages()).toMatchObject({ rows: [['5']], errors: [] });
      expect(b.messages()).toMatchObject({ rows: [['wxyz']], errors: [] });
    } finally {
      a.close();
      b.close();
    }
  });

  it('gives many pg clients running parameterised queries at once each its own answer', async () => {
    const clients = await Promise.all(Array.from({ length: 8 }, () => client()));
    try {
      // Statements of 2 and 4 parameters alternate, so a Bind that met another connection's Parse would fail.
      const answers = await Promise.all(
        clients.map(async (c, i) => {
          const values: number[] = [];
          for (let j = 0; j < 10; j++) {
            const r =
              j % 2
                ? await c.query('SELECT $1::int * 100 + $2::int AS v', [i, j])
                : await c.query('SELECT $1::int * 100 + $2::int + $3::int - $4::int AS v', [
                    i,
                    j,
                    7,
                    7,
                  ]);
            values.push((r.rows[0] as { v: number }).v);
          }
          return values;
        }),
      );
      expect(answers).toEqual(
        clients.map((_, i) => Array.from({ length: 10 }, (_, j) => i * 100 + j)),
      );
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });

  it("lets a transaction keep the session from BEGIN to COMMIT: another connection's statements run after it", async () => {
    const [a, b] = [await client(), await client()];
    try {
      await a.query('BEGIN');
      await a.query('INSERT INTO items VALUES (1, $1)', ['in a']);
      const order: string[] = [];
      // B's read and write wait for A's transaction (on one backend they would otherwise run inside it).
      const read = b.query('SELECT count(*)::int AS n FROM items').then((r) => {
        order.push('b read');
        return (r.rows[0] as { n: number }).n;
      });
      await settle();
      expect(order).toEqual([]);
      await a.query('INSERT INTO items VALUES (2, $1)', ['in a too']);
      order.push('a commits');
      await a.query('COMMIT');
      expect(await read).toBe(2);
      expect(order).toEqual(['a commits', 'b read']);
      // A failed transaction (status E) also keeps it until its ROLLBACK.
      await a.query('BEGIN');
      await expect(a.query('INSERT INTO items VALUES (1, $1)', ['duplicate'])).rejects.toThrow(
        /duplicate key/,
      );
      const write = b
        .query('INSERT INTO items VALUES (3, $1)', ['by b'])
        .then(() => order.push('b wrote'));
      await settle();
      expect(order).not.toContain('b wrote');
      await a.query('ROLLBACK');
      await write;
      expect((await b.query('SELECT id FROM items ORDER BY id')).rows).toEqual([
        { id: 1 },
        { id: 2 },
        { id: 3 },
      ]);
    } finally {
      await a.end();
      await b.end();
    }
  });

  it('rolls back the transaction of a connection that goes away inside it, and hands the session on', async () => {
    const [a, b] = [await client(), await client()];
    try {
      await a.query('BEGIN');
      await a.query('INSERT INTO items VALUES (10, $1)', ['never committed']);
      const read = b.query('SELECT count(*)::int AS n FROM items WHERE id = 10');
      await settle();
      (a as unknown as { connection: { stream: net.Socket } }).connection.stream.destroy();
      expect((await read).rows).toEqual([{ n: 0 }]);
      // Outside any transaction now: a BEGIN is a fresh one, not a warning about one in progress.
      const notices: string[] = [];
      b.on('notice', (n) => notices.push(String(n.message)));
      await b.query('BEGIN');
      await b.query('ROLLBACK');
      expect(notices).toEqual([]);
      // A raw connection that leaves between Bind and Sync leaves no half exchange behind either.
      const raw = new RawConnection(server.port);
      raw.send(startup());
      await raw.until(() => raw.readyCount() === 1, 'raw started');
      raw.send(parse('INSERT INTO items VALUES (11, $1)'), bind(['half']));
      await raw.until(() => raw.messages().types.endsWith('12'), 'raw bound');
      raw.close();
      expect((await b.query('SELECT count(*)::int AS n FROM items')).rows).toEqual([{ n: 0 }]);
    } finally {
      await b.end();
    }
  });

  it('ends a connection that sits in its transaction while others wait (as idle_in_transaction_session_timeout), so a wait between two connections of one process cannot last', async () => {
    const [a, b] = [await client(), await client()];
    try {
      await a.query('BEGIN');
      await a.query('INSERT INTO items VALUES (20, $1)', ['abandoned']);
      // A waits for B, B waits for the session A holds: the timeout breaks the cycle.
      expect((await b.query('SELECT count(*)::int AS n FROM items')).rows).toEqual([{ n: 0 }]);
      for (let i = 0; i < 100 && !warnings.length; i++) await settle(20);
      expect(warnings.join('\n')).toMatch(
        /sat 600 ms in a transaction \(status T\) while 1 other connection\(s\) waited; ended it and rolled its transaction back/,
      );
      await expect(a.query('SELECT 1')).rejects.toThrow();
      // Alone, a transaction may take its time: nobody waits.
      const c = await client();
      await c.query('BEGIN');
      await settle(900);
      await c.query('COMMIT');
      await c.end();
    } finally {
      await a.end().catch(() => undefined);
      await b.end();
    }
  });
});

describe('EmbeddedDatabaseServer with a password: no session without it (another local user of the machine)', () => {
  const password = 'a long random password of the process';
  let server: { child: ChildProcess; port: number };
  beforeAll(async () => {
    server = await startServerProcess(600, [], password);
  }, 60_000);
  afterAll(() => {
    server?.child.kill('SIGKILL');
  });
  const connect = async (given?: string) => {
    const c = new Client({
      host: '127.0.0.1',
      port: server.port,
      user: 'postgres',
      database: 'postgres',
      password: given,
    });
    c.on('error', () => undefined);
    await c.connect();
    return c;
  };

  it('serves a client that gives the password, and refuses one with a wrong or no password (28P01) before the database sees it', async () => {
    const c = await connect(password);
    expect((await c.query('SELECT 1 + 1 AS two')).rows).toEqual([{ two: 2 }]);
    await c.end();
    await expect(connect('wrong')).rejects.toMatchObject({ code: '28P01' });
    await expect(connect('')).rejects.toThrow();
    // A raw client that skips the PasswordMessage and sends a query is ended, the query unrun.
    const raw = new RawConnection(server.port);
    try {
      raw.send(startup());
      // AuthenticationCleartextPassword ('R', code 3), nothing from the database yet.
      await raw.until(() => raw.messages().types === 'R', 'asked for a password');
      raw.send(msg('Q', cstr('CREATE TABLE intruder (id int)')));
      await raw.until(() => raw.messages().errors.length === 1, 'refused');
      expect(raw.messages().types).toBe('RE');
      expect(raw.messages().errors).toEqual(['password authentication failed for user "postgres"']);
    } finally {
      raw.close();
    }
    const again = await connect(password);
    expect(
      (await again.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'intruder'`))
        .rows,
    ).toEqual([{ n: 0 }]);
    await again.end();
  });
});
