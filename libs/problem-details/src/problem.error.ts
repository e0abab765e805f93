import { PROBLEM_TYPES, type ProblemSlug } from './problem-types';

export type FieldErrors = Record<string, string[]>;

export interface ProblemOptions {
  detail?: string;
  errors?: FieldErrors;
  /** Response headers such as Retry-After or Allow. */
  headers?: Record<string, string>;
  /** Extension members added to the body (e.g. `locked_until`). */
  extensions?: Record<string, unknown>;
}

/** The one error type services throw; the ProblemDetailsFilter renders it. */
export class ProblemError extends Error {
  readonly status: number;
  readonly title: string;

  constructor(
    readonly slug: ProblemSlug,
    readonly options: ProblemOptions = {},
  ) {
    super(options.detail ?? PROBLEM_TYPES[slug].title);
    this.name = 'ProblemError';
    this.status = PROBLEM_TYPES[slug].status;
    this.title = PROBLEM_TYPES[slug].title;
  }

  static validation(errors: FieldErrors, detail = 'The request is invalid.'): ProblemError {
    return new ProblemError('validation-error', { detail, errors });
  }
}
