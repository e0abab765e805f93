import { pipeline, type Readable } from 'node:stream';
import { parser } from 'stream-json';
import { pick } from 'stream-json/filters/Pick';
import { streamArray } from 'stream-json/streamers/StreamArray';
import {
  DEFAULT_CONVERT_OPTIONS,
  numbered,
  sniff,
  unreadable,
  type ConvertOptions,
  type ConvertedLine,
  type SourceRecord,
} from './lines';

/**
 * The elements of a JSON array, one at a time (stream-json: a file of 100,000 users is never one
 * object in memory): the document itself, or its member `path` (`users` in Firebase's export).
 * Element N (from 1) is record N. A document broken part way gives the elements before the break
 * and then one unreadable record saying where it broke; nothing after it can be read.
 */
export async function* jsonArrayRecords(
  input: Readable,
  path?: string,
): AsyncGenerator<SourceRecord> {
  const stages = path
    ? [parser(), pick({ filter: path }), streamArray()]
    : [parser(), streamArray()];
  const elements = pipeline([input, ...stages], () => undefined) as unknown as AsyncIterable<{
    key: number;
    value: unknown;
  }>;
  let count = 0;
  try {
    for await (const element of elements) {
      count += 1;
      yield { line: count, value: element.value };
    }
  } catch (err) {
    const where = count === 0 ? 'before its first user' : `after user ${count}`;
    yield {
      line: count + 1,
      error: `The file is not valid JSON ${where} (${(err as Error).message}); nothing after that point could be read.`,
    };
  }
}

/**
 * The records of a vendor's JSON document `{member: [...]}` (Firebase's `users`, Cognito's `Users`,
 * Keycloak's `users`) as our lines, converted one by one; a document of another shape is one
 * unreadable line saying what was expected.
 */
export async function* documentMemberLines(
  input: Readable,
  member: string,
  expected: string,
  convert: (value: Record<string, unknown>) => ConvertedLine,
): AsyncGenerator<ConvertedLine> {
  const { first, stream } = await sniff(input);
  if (first !== '{') {
    stream.destroy();
    yield unreadable(expected);
    return;
  }
  yield* numbered(jsonArrayRecords(stream, member), (value) =>
    convert(value as Record<string, unknown>),
  );
}

/**
 * The converter of a vendor whose export is one JSON document `{member: [...]}`
 * (`documentMemberLines`): each record through `convert`, with the import's options.
 */
export function documentFormat(
  member: string,
  expected: string,
  convert: (value: Record<string, unknown>, options: ConvertOptions) => ConvertedLine,
): (input: Readable, options?: ConvertOptions) => AsyncGenerator<ConvertedLine> {
  return (input, options = DEFAULT_CONVERT_OPTIONS) =>
    documentMemberLines(input, member, expected, (value) => convert(value, options));
}
