import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import {
  ImportedHashError,
  parseImportedHash,
  WEAK_SCHEMES,
  type FirebaseScryptParameters,
} from '@gatehouse/crypto';
import { ProblemError, ProblemValidationPipe } from '@gatehouse/problem-details';
import { ndjsonLines } from '../ndjson-lines';
import type { RefuseLine } from './import-report';
import { ImportLineDto } from './import-line.dto';

const MAX_LINE_BYTES = 64 * 1024;

/** A line that passed validation: its DTO, the email and username as stored, and its password hash read in its scheme. */
export interface ParsedLine {
  dto: ImportLineDto;
  email: string;
  username: string | null;
  hash: { scheme: string; hash: string } | null;
  weak: boolean;
}

export interface NumberedLine {
  /** From 1, as editors count. */
  number: number;
  line: ParsedLine;
}

/** How the hashes of an import's lines are read. */
export interface HashOptions {
  allowWeakHashes: boolean;
  firebase: FirebaseScryptParameters | null;
}

/**
 * The lines of an import body: NDJSON read as it streams in (64 KiB a line), each line validated as
 * a request body would be and its password hash read in its scheme. A line that fails is refused
 * (reported by number) and the rest go on.
 */
@Injectable()
export class ImportLineParser {
  private readonly pipe = new ProblemValidationPipe();

  /** The body's valid lines, in order; the others go to `refuse`. */
  async *lines(
    body: Readable,
    options: HashOptions,
    refuse: RefuseLine,
  ): AsyncGenerator<NumberedLine> {
    for await (const raw of ndjsonLines(body, MAX_LINE_BYTES)) {
      if (raw.tooLong) {
        refuse(raw.number, 'payload-too-large', `The line is longer than ${MAX_LINE_BYTES} bytes.`);
        continue;
      }
      const parsed = await this.parse(raw.text, options);
      if ('problem' in parsed) {
        refuse(
          raw.number,
          parsed.problem.slug,
          parsed.problem.message,
          parsed.problem.options.errors,
        );
        continue;
      }
      yield { number: raw.number, line: parsed };
    }
  }

  /** One line, validated as a request body would be; the password hash read in its scheme. */
  async parse(text: string, options: HashOptions): Promise<ParsedLine | { problem: ProblemError }> {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return {
        problem: new ProblemError('invalid-json', { detail: 'The line is not valid JSON.' }),
      };
    }
    let dto: ImportLineDto;
    try {
      dto = (await this.pipe.transform(value, {
        type: 'body',
        metatype: ImportLineDto,
      })) as ImportLineDto;
    } catch (err) {
      if (err instanceof ProblemError) return { problem: err };
      throw err;
    }
    if (dto.metadata && JSON.stringify(dto.metadata).length > 8192)
      return { problem: ProblemError.validation({ metadata: ['must be at most 8 KiB of JSON'] }) };
    let hash: { scheme: string; hash: string } | null = null;
    if (dto.password_hash !== undefined && dto.password_hash !== null) {
      try {
        hash = parseImportedHash(dto.password_hash, {
          allowWeak: options.allowWeakHashes,
          firebase: options.firebase,
        });
      } catch (err) {
        if (err instanceof ImportedHashError)
          return { problem: ProblemError.validation({ password_hash: [err.message] }) };
        throw err;
      }
    }
    return {
      dto,
      email: dto.email,
      username: dto.username ? dto.username.toLowerCase() : null,
      hash,
      weak: hash !== null && (WEAK_SCHEMES as readonly string[]).includes(hash.scheme),
    };
  }
}
