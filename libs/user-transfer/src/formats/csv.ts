import { pipeline, type Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { SourceRecord } from './lines';

/**
 * The records of a CSV file with a header line (csv-parse, streamed), each numbered by the file
 * line it ends on (its line, for a record on one line): the report's line numbers are the file's.
 * A record that cannot be read (a stray quote) becomes an unreadable record at its line, and
 * reading goes on after it; quoted cells may span lines.
 */
export async function* csvRecords(input: Readable): AsyncGenerator<SourceRecord> {
  const skipped: { line: number; error: string }[] = [];
  const parser = parse({
    columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
    info: true,
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    skip_records_with_error: true,
    on_skip: (err) => {
      skipped.push({
        line: Number(err?.lines ?? 0),
        error: `The CSV record could not be read: ${err?.message ?? 'unknown error'}.`,
      });
      return undefined;
    },
  });
  // A read error of the file ends the parser with it (pipeline), and so the loop below.
  const records = pipeline(input, parser, () => undefined) as unknown as AsyncIterable<{
    record: Record<string, string>;
    info: { lines: number };
  }>;
  // After a record it could not read, csv-parse may take the lines that follow as part of it: each
  // such line is reported too, so no record disappears without a line in the report.
  let last = 0;
  let afterSkip = false;
  function* upTo(line: number): Generator<SourceRecord> {
    if (afterSkip)
      for (let l = last + 1; l < line; l += 1)
        yield {
          line: l,
          error: `The line was read as part of the unreadable CSV record before it (line ${last}).`,
        };
  }
  // One line, one report: a second error on a line already reported (a quote left open there) adds nothing.
  function* skip(s: { line: number; error: string }): Generator<SourceRecord> {
    if (s.line <= last) return;
    yield* upTo(s.line);
    yield s;
    [last, afterSkip] = [s.line, true];
  }
  for await (const { record, info } of records) {
    // The parser reads ahead: the records it skipped before this one come first.
    while (skipped.length && skipped[0].line < info.lines) yield* skip(skipped.shift()!);
    yield* upTo(info.lines);
    yield { line: info.lines, value: record };
    [last, afterSkip] = [info.lines, false];
  }
  for (const s of skipped) yield* skip(s);
}
