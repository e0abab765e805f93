/**
 * An NDJSON file sent to `POST /v1/admin/projects/{id}/users/import` in batches of lines, so the
 * console can show what the import did so far: the control plane answers one report per request
 * (docs/api-contract.md §12), not a stream of progress. Each batch is whole lines; its report's line numbers
 * are moved by the lines before it, so the merged report names the file's own line numbers
 * (from 1, blank lines counted, as the API counts them).
 */

export interface ImportCounts {
  created: number;
  updated: number;
  skipped: number;
  conflicts: number;
  rejected: number;
}

export interface ImportLineError {
  line: number;
  type: string;
  detail: string;
  errors?: Record<string, string[]>;
}

export interface ImportReport {
  counts: ImportCounts;
  errors: ImportLineError[];
}

/** Whole lines of the file, `text` ending with a newline; `first` is the number of its first line. */
export interface LineBatch {
  first: number;
  lines: number;
  text: string;
  /** Bytes of the file up to the end of this batch (for a progress bar over the file's size; a last line without its newline counts one more). */
  bytesThrough: number;
}

/** At most this many lines a request (the import writes in transactions of 200). */
export const BATCH_LINES = 1000;
/** And at most about this many characters a request. */
export const BATCH_CHARS = 4 * 1024 * 1024;
/** The merged report lists this many errors, as the API does for one request; all are counted. */
export const MAX_REPORTED_ERRORS = 1000;

export const NO_COUNTS: ImportCounts = {
  created: 0,
  updated: 0,
  skipped: 0,
  conflicts: 0,
  rejected: 0,
};

/** The file's lines in batches, read as a stream (a large file never sits in memory whole). */
export async function* lineBatches(
  stream: ReadableStream<Uint8Array>,
  maxLines = BATCH_LINES,
  maxChars = BATCH_CHARS,
): AsyncGenerator<LineBatch> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let bytesThrough = 0;
  let pending = '';
  let batch: string[] = [];
  let chars = 0;
  let first = 1;
  const take = (): LineBatch => {
    const text = batch.join('\n') + '\n';
    bytesThrough += encoder.encode(text).byteLength;
    const out = { first, lines: batch.length, text, bytesThrough };
    first += batch.length;
    batch = [];
    chars = 0;
    return out;
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (value) pending += decoder.decode(value, { stream: true });
    if (done) pending += decoder.decode();
    const pieces = pending.split('\n');
    pending = done ? '' : (pieces.pop() ?? '');
    // The newline that ends the file ends its last line; it starts none.
    if (done && pieces.length > 0 && pieces[pieces.length - 1] === '') pieces.pop();
    for (const line of pieces) {
      batch.push(line);
      chars += line.length + 1;
      if (batch.length >= maxLines || chars >= maxChars) yield take();
    }
    if (done) break;
  }
  if (batch.length > 0) yield take();
}

/** The report so far with one batch's report added: counts summed, line numbers the file's. */
export function mergeReport(
  so: ImportReport,
  batch: LineBatch,
  answer: ImportReport,
): ImportReport {
  const counts = { ...so.counts };
  for (const key of Object.keys(counts) as (keyof ImportCounts)[])
    counts[key] += answer.counts[key] ?? 0;
  const moved = answer.errors.map((e) => ({ ...e, line: e.line + batch.first - 1 }));
  return { counts, errors: [...so.errors, ...moved].slice(0, MAX_REPORTED_ERRORS) };
}
