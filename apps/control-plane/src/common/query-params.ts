import { ProblemError, type FieldErrors } from '@gatehouse/problem-details';
import { integerParam, parsePage, type Page } from '@gatehouse/http';

/**
 * Reads list query parameters strictly: a repeated parameter (an array) or an over-long value is a
 * validation error, never coerced. Unknown parameters are ignored. Call `done()` last.
 */
export class QueryReader {
  private readonly errors: FieldErrors = {};

  constructor(private readonly query: Record<string, unknown>) {}

  /** An optional string parameter; an empty string counts as absent. */
  string(name: string, maxLength = 256): string | undefined {
    const value = this.query[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') {
      this.errors[name] = ['must be given once, as a string'];
      return undefined;
    }
    if (value.length > maxLength) {
      this.errors[name] = [`must be at most ${maxLength} characters`];
      return undefined;
    }
    return value;
  }

  /** An optional integer parameter from `min` to `max`, `dflt` when absent (as `page` and `limit` are read). */
  integer(name: string, min: number, max: number, dflt: number): number {
    return integerParam(this.query[name], name, min, max, dflt, this.errors);
  }

  fail(name: string, message: string): void {
    this.errors[name] = [...(this.errors[name] ?? []), message];
  }

  /** `page` and `limit` (docs/api-contract.md §6), with their errors merged into this reader's. */
  page(): Page {
    try {
      return parsePage(this.query);
    } catch (err) {
      if (err instanceof ProblemError && err.options.errors)
        Object.assign(this.errors, err.options.errors);
      else throw err;
      return { page: 1, limit: 20, offset: 0 };
    }
  }

  done(): void {
    if (Object.keys(this.errors).length) throw ProblemError.validation(this.errors);
  }
}
