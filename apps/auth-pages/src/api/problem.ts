/** A problem document (RFC 9457) as the auth runtime answers it. */
export interface ProblemBody {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  traceId?: string;
  errors?: Record<string, string[]>;
  [extension: string]: unknown;
}

/** Every failed call: the server's problem, or a network failure (status 0). */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly body: ProblemBody,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(body.detail ?? body.title ?? `HTTP ${status}`);
    this.name = 'ApiProblem';
  }

  /** The last segment of `type`, e.g. `invalid-credentials`, `reauthentication-required`. */
  get slug(): string {
    return typeof this.body.type === 'string'
      ? (this.body.type.split('/').pop() ?? 'unknown')
      : this.status === 0
        ? 'network-error'
        : 'unknown';
  }

  get title(): string {
    return this.body.title ?? (this.status === 0 ? 'Network error' : `HTTP ${this.status}`);
  }

  get detail(): string {
    return this.body.detail ?? this.message;
  }

  get traceId(): string | null {
    return typeof this.body.traceId === 'string' ? this.body.traceId : null;
  }

  /** The messages of one field of a validation error, joined. */
  fieldError(field: string): string | undefined {
    const messages = this.body.errors?.[field];
    return Array.isArray(messages) && messages.length > 0 ? messages.join('; ') : undefined;
  }
}

/** The problem an answer carries; a body that is not a problem document still gives a readable error. */
export function problemOf(
  status: number,
  body: unknown,
  retryAfter: string | null = null,
): ApiProblem {
  const retry = Number(retryAfter ?? NaN);
  const seconds = Number.isFinite(retry) && retry >= 0 ? retry : null;
  if (body && typeof body === 'object' && !Array.isArray(body))
    return new ApiProblem(status, body as ProblemBody, seconds);
  return new ApiProblem(
    status,
    { status, title: `HTTP ${status}`, detail: 'The server answered with an error.' },
    seconds,
  );
}

export function networkProblem(err: unknown): ApiProblem {
  return new ApiProblem(0, {
    title: 'Network error',
    detail: `The server could not be reached (${err instanceof Error ? err.message : String(err)}).`,
  });
}

export const isProblem = (error: unknown, slug: string): boolean =>
  error instanceof ApiProblem && error.slug === slug;
