import { lineBatches, mergeReport, NO_COUNTS, type LineBatch } from './import-batches';

/** A stream of the given chunks (as a file's stream hands them over, split anywhere). */
function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function all(
  stream: ReadableStream<Uint8Array>,
  maxLines: number,
  maxChars?: number,
): Promise<LineBatch[]> {
  const out: LineBatch[] = [];
  for await (const b of lineBatches(stream, maxLines, maxChars)) out.push(b);
  return out;
}

describe('the import in batches of lines', () => {
  it('cuts the file into whole lines, numbered from 1, blank lines kept, whatever the chunks', async () => {
    const batches = await all(
      streamOf('{"email":"a@x.te', 'st"}\n\n{"email":"b@x.test"}\n{"em', 'ail":"é@x.test"}\n'),
      2,
    );
    expect(batches.map(({ first, lines, text }) => ({ first, lines, text }))).toEqual([
      { first: 1, lines: 2, text: '{"email":"a@x.test"}\n\n' },
      { first: 3, lines: 2, text: '{"email":"b@x.test"}\n{"email":"é@x.test"}\n' },
    ]);
    // The bytes of the file up to each batch's end (é is two bytes), not what the reader happened to hand over.
    expect(batches.map((b) => b.bytesThrough)).toEqual([
      22,
      22 + new TextEncoder().encode('{"email":"b@x.test"}\n{"email":"é@x.test"}\n').byteLength,
    ]);
  });

  it('keeps a last line without a newline, and a blank last line before the final newline', async () => {
    expect((await all(streamOf('a\nb'), 10)).map((b) => b.text)).toEqual(['a\nb\n']);
    expect((await all(streamOf('a\n\n'), 10)).map((b) => [b.lines, b.text])).toEqual([
      [2, 'a\n\n'],
    ]);
    expect(await all(streamOf(''), 10)).toEqual([]);
  });

  it('ends a batch early when its text passes the size limit', async () => {
    expect(
      (await all(streamOf('aaaa\nbbbb\ncccc\n'), 100, 8)).map((b) => [b.first, b.lines]),
    ).toEqual([
      [1, 2],
      [3, 1],
    ]);
  });

  it("merges a batch's report: counts summed, its line numbers moved to the file's", () => {
    const first = mergeReport(
      { counts: NO_COUNTS, errors: [] },
      { first: 1, lines: 2, text: '', bytesThrough: 0 },
      {
        counts: { created: 1, updated: 0, skipped: 0, conflicts: 0, rejected: 1 },
        errors: [{ line: 2, type: 'invalid-json', detail: 'x' }],
      },
    );
    const second = mergeReport(
      first,
      { first: 3, lines: 2, text: '', bytesThrough: 0 },
      {
        counts: { created: 0, updated: 0, skipped: 1, conflicts: 0, rejected: 1 },
        errors: [
          {
            line: 2,
            type: 'validation-error',
            detail: 'y',
            errors: { email: ['must be a valid email address'] },
          },
        ],
      },
    );
    expect(second).toEqual({
      counts: { created: 1, updated: 0, skipped: 1, conflicts: 0, rejected: 2 },
      errors: [
        { line: 2, type: 'invalid-json', detail: 'x' },
        {
          line: 4,
          type: 'validation-error',
          detail: 'y',
          errors: { email: ['must be a valid email address'] },
        },
      ],
    });
  });
});
