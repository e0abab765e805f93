/** A problem document (RFC 9457) as both APIs answer it (docs/api-contract.md §4). */
export interface ProblemBody {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  traceId?: string;
  errors?: Record<string, string[]>;
  [extension: string]: unknown;
}

/** Every failed call, thrown to the screen that made it: the server's problem, or a network failure (status 0). */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly body: ProblemBody,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(body.detail ?? body.title ?? `HTTP ${status}`);
    this.name = 'ApiProblem';
  }

  /** The last segment of `type`, e.g. `validation-error`, `invalid-credentials`, `forbidden`. */
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

  get errors(): Record<string, string[]> {
    const errors = this.body.errors;
    if (!errors || typeof errors !== 'object') return {};
    const out: Record<string, string[]> = {};
    for (const [key, value] of Object.entries(errors))
      out[key] = Array.isArray(value)
        ? value.filter((m): m is string => typeof m === 'string')
        : [String(value)];
    return out;
  }

  /** The messages of one field of a validation error, joined. */
  fieldError(field: string): string | undefined {
    const messages = this.body.errors?.[field];
    return Array.isArray(messages) && messages.length > 0 ? messages.join('; ') : undefined;
  }
}

export const isProblem = (error: unknown, slug: string): boolean =>
  error instanceof ApiProblem && error.slug === slug;

/** The problem an answer carries; a body that is not a problem document still gives a readable error. */
export function problemOf(
  status: number,
  body: unknown,
  headers?: { get(name: string): string | null },
): ApiProblem {
  const retry = Number(headers?.get('Retry-After') ?? NaN);
  const retryAfter = Number.isFinite(retry) && retry >= 0 ? retry : null;
  if (body && typeof body === 'object' && !Array.isArray(body))
    return new ApiProblem(status, body as ProblemBody, retryAfter);
  return new ApiProblem(
    status,
    {
      status,
      title: `HTTP ${status}`,
      detail:
        typeof body === 'string' && body
          ? body.slice(0, 200)
          : 'The server answered with an error.',
    },
    retryAfter,
  );
}

export function networkProblem(err: unknown): ApiProblem {
  return new ApiProblem(0, {
    title: 'Network error',
    detail: `The server could not be reached (${err instanceof Error ? err.message : String(err)}).`,
  });
}

/**
 * Maps a problem's field errors (dotted paths such as `settings.access_token_ttl_seconds`) onto a
 * form's fields: a key belongs to the longest field name it equals or starts with (`name.` or
 * `name[`), a list's item numbered from 1; errors of no field are returned in `other`, to be shown above the form.
 */
export function fieldErrors(
  problem: unknown,
  fields: readonly string[],
): { fields: Record<string, string>; other: string[] } {
  const out: { fields: Record<string, string>; other: string[] } = { fields: {}, other: [] };
  if (!(problem instanceof ApiProblem)) return out;
  const byLength = [...fields].sort((a, b) => b.length - a.length);
  for (const [key, messages] of Object.entries(problem.errors)) {
    const field = byLength.find(
      (f) => key === f || key.startsWith(`${f}.`) || key.startsWith(`${f}[`),
    );
    const text = messages.join('; ');
    if (!field) out.other.push(`${key}: ${text}`);
    else {
      const rest = key.slice(field.length).replace(/^\./, '');
      // A list's items as people count them: the server's `allowed_origins.1` (or `[1]`) is the second line, "item 2".
      const item = /^\[?(\d+)\]?(?:\.(.+))?$/.exec(rest);
      const where = item ? `item ${Number(item[1]) + 1}${item[2] ? ` ${item[2]}` : ''}` : rest;
      const prefix = where ? `${where}: ` : '';
      out.fields[field] = out.fields[field]
        ? `${out.fields[field]}; ${prefix}${text}`
        : `${prefix}${text}`;
    }
  }
  return out;
}
