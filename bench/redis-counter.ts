import { SnoopingProxy } from './snooping-proxy';

/**
 * A TCP proxy in front of Redis that parses the client side of RESP and counts commands (one
 * top-level array each), keeping their names. Only for the hot-path check, never under load.
 */
export class RedisCommandCounter extends SnoopingProxy {
  private commands: string[] = [];

  /** Starts a new count; returns the command names seen since the last reset. */
  reset(): string[] {
    const out = this.commands;
    this.commands = [];
    return out;
  }

  protected parser(): (chunk: Buffer) => void {
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
