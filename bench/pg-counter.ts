import { SnoopingProxy } from './snooping-proxy';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/**
 * A TCP proxy in front of Postgres that reads the frontend side of the wire protocol and counts
 * round trips: one per simple `Query` and one per `Sync` closing an extended-protocol exchange
 * (Parse/Bind/Execute/Sync is how `pg` sends parameterised queries). It also keeps the SQL text
 * (of a named prepared statement, at every Bind: parsed once per connection, used many times),
 * so a request's statements can be listed, and with their parameters, so they can be explained. Only for the hot-path check, never under load.
 */
export class PgStatementCounter extends SnoopingProxy {
  private roundTrips = 0;
  private statements: string[] = [];
  private executed: ExecutedStatement[] = [];

  /** The statements executed since the last call, in full with their parameters (for EXPLAIN); starts a new list. */
  takeExecuted(): ExecutedStatement[] {
    const out = this.executed;
    this.executed = [];
    return out;
  }

  /** Starts a new count; returns what was counted since the last reset. */
  reset(): { roundTrips: number; statements: string[] } {
    const out = { roundTrips: this.roundTrips, statements: this.statements };
    this.roundTrips = 0;
    this.statements = [];
    return out;
  }

  protected parser(): (chunk: Buffer) => void {
    let buffered: Buffer = Buffer.alloc(0);
    let startup = true;
    /** Named statements of this connection (a PostgreSQL session), by name. */
    const prepared = new Map<string, string>();
    /** Full SQL of this connection's statements by name ('' for the unnamed one). */
    const fullText = new Map<string, string>();
    return (chunk: Buffer) => {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      for (;;) {
        if (startup) {
          if (buffered.length < 8) return;
          const length = buffered.readInt32BE(0);
          if (buffered.length < length) return;
          const code = buffered.readInt32BE(4);
          if (code !== SSL_REQUEST && code !== GSSENC_REQUEST) startup = false;
          buffered = buffered.subarray(length);
          continue;
        }
        if (buffered.length < 5) return;
        const type = String.fromCharCode(buffered[0]);
        const length = buffered.readInt32BE(1);
        if (buffered.length < 1 + length) return;
        const payload = buffered.subarray(5, 1 + length);
        if (type === 'Q') {
          this.roundTrips++;
          this.statements.push(sqlText(payload.subarray(0, payload.indexOf(0))));
          this.executed.push({
            sql: payload.subarray(0, payload.indexOf(0)).toString('utf8'),
            params: [],
          });
        } else if (type === 'P') {
          const nameEnd = payload.indexOf(0);
          const name = payload.subarray(0, nameEnd).toString('utf8');
          const text = sqlText(payload.subarray(nameEnd + 1, payload.indexOf(0, nameEnd + 1)));
          fullText.set(
            name,
            payload.subarray(nameEnd + 1, payload.indexOf(0, nameEnd + 1)).toString('utf8'),
          );
          // A named (prepared) statement is listed when it is bound, which every use does.
          if (name) prepared.set(name, text);
          else this.statements.push(text);
        } else if (type === 'B') {
          const portalEnd = payload.indexOf(0);
          const name = payload
            .subarray(portalEnd + 1, payload.indexOf(0, portalEnd + 1))
            .toString('utf8');
          if (name) this.statements.push(`[prepared ${name}] ${prepared.get(name) ?? ''}`);
          this.executed.push({
            sql: fullText.get(name) ?? '',
            params: bindParameters(payload.subarray(payload.indexOf(0, portalEnd + 1) + 1)),
          });
        } else if (type === 'S') {
          this.roundTrips++;
        }
        buffered = buffered.subarray(1 + length);
      }
    };
  }
}

/** A statement as the server ran it: its SQL and its parameters in text form (null for NULL). */
export interface ExecutedStatement {
  sql: string;
  params: (string | null)[];
}

/** The parameters of a Bind message, after its portal and statement names (text format, as `pg` sends them). */
function bindParameters(rest: Buffer): (string | null)[] {
  let at = 0;
  const formats = rest.readInt16BE(at);
  at += 2 + 2 * formats;
  const count = rest.readInt16BE(at);
  at += 2;
  const params: (string | null)[] = [];
  for (let i = 0; i < count; i++) {
    const length = rest.readInt32BE(at);
    at += 4;
    if (length < 0) params.push(null);
    else {
      params.push(rest.subarray(at, at + length).toString('utf8'));
      at += length;
    }
  }
  return params;
}

function sqlText(raw: Buffer): string {
  const text = raw.toString('utf8').replace(/\s+/g, ' ').trim();
  return text.length > 110 ? `${text.slice(0, 107)}...` : text;
}
