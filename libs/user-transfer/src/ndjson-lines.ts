import type { Readable } from 'node:stream';

export interface NdjsonLine {
  /** From 1, as editors count. */
  number: number;
  text: string;
  /** The line was longer than the limit: its text is cut, and it is refused. */
  tooLong: boolean;
}

/**
 * The lines of a stream as they arrive, without holding more than one line (cut at `maxBytes`):
 * an import of a million users streams through in constant memory. Blank lines are skipped (but
 * counted); `\r\n` endings are accepted.
 */
export async function* ndjsonLines(stream: Readable, maxBytes: number): AsyncGenerator<NdjsonLine> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  let number = 0;
  const take = (): NdjsonLine | null => {
    number += 1;
    const text = Buffer.concat(pending).toString('utf8').replace(/\r$/, '');
    const line = { number, text, tooLong };
    pending = [];
    pendingBytes = 0;
    tooLong = false;
    return text.trim() === '' && !line.tooLong ? null : line;
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
      append(chunk.subarray(start, i));
      const line = take();
      if (line) yield line;
      start = i + 1;
    }
    append(chunk.subarray(start));
  }
  if (pendingBytes > 0 || tooLong) {
    const line = take();
    if (line) yield line;
  }

  function append(part: Buffer): void {
    if (part.length === 0 || tooLong) return;
    if (pendingBytes + part.length > maxBytes) {
      tooLong = true;
      pending.push(part.subarray(0, Math.max(0, maxBytes - pendingBytes)));
      pendingBytes = maxBytes;
      return;
    }
    pending.push(part);
    pendingBytes += part.length;
  }
}
