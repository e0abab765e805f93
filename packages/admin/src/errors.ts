/**
 * An RFC 9457 problem answered by Gatehouse (docs/api-contract.md §4), or a failure to get an answer (status 0).
 * The same shape as @gatehouse/js's error, kept here so the admin client depends on openapi-fetch only;
 * `instanceof GatehouseError` holds for an error of either package (see `Symbol.hasInstance`).
 */
export class GatehouseError extends Error {
  /** The problem's slug: the last segment of its `type` (`validation-error`, `not-found`, …); `network-error` when no answer came. */
  readonly slug: string;
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  /** Field (dotted path) → messages, for `validation-error` and `conflict`. */
  readonly errors: Record<string, string[]> | undefined;
  /** The W3C trace id of the request, for support. */
  readonly traceId: string | undefined;
  /** Seconds to wait before trying again, from `Retry-After` (429 `rate-limited`, 503). */
  readonly retryAfter: number | undefined;
  /** The whole problem body as received. */
  readonly problem: Record<string, unknown>;

  constructor(status: number, problem: Record<string, unknown>, headers?: Headers) {
    const type = typeof problem.type === 'string' ? problem.type : '';
    const title =
      typeof problem.title === 'string'
        ? problem.title
        : status === 0
          ? 'Network error'
          : `HTTP ${status}`;
    const detail = typeof problem.detail === 'string' ? problem.detail : undefined;
    super(detail ?? title);
    this.name = 'GatehouseError';
    this.status = status;
    this.slug = type
      ? type.slice(type.lastIndexOf('/') + 1)
      : status === 0
        ? 'network-error'
        : `http-${status}`;
    this.title = title;
    this.detail = detail;
    this.errors = isErrors(problem.errors) ? problem.errors : undefined;
    this.traceId = typeof problem.traceId === 'string' ? problem.traceId : undefined;
    const retry = headers?.get('retry-after');
    this.retryAfter = retry && /^\d+$/.test(retry) ? Number(retry) : undefined;
    this.problem = problem;
  }

  /**
   * A script that also uses @gatehouse/js (or two copies of this package) catches one kind of
   * error: any Error named GatehouseError with a slug and a status is one. Subclasses keep the
   * ordinary prototype check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== GatehouseError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return (
      value instanceof Error &&
      value.name === 'GatehouseError' &&
      typeof (value as { slug?: unknown }).slug === 'string' &&
      typeof (value as { status?: unknown }).status === 'number'
    );
  }

  /** The error for a non-2xx answer, its body read as a problem when it is JSON (a proxy's HTML page is not). */
  static async fromResponse(response: Response): Promise<GatehouseError> {
    let body: unknown = null;
    try {
      body = await response.clone().json();
    } catch {
      /* not JSON: the status speaks */
    }
    return new GatehouseError(
      response.status,
      body && typeof body === 'object' && !Array.isArray(body)
        ? (body as Record<string, unknown>)
        : {},
      response.headers,
    );
  }

  /** No answer at all (connection refused, DNS, TLS, timeout). */
  static network(cause: unknown): GatehouseError {
    const err = new GatehouseError(0, {
      detail: cause instanceof Error ? cause.message : 'The request failed.',
    });
    (err as { cause?: unknown }).cause = cause;
    return err;
  }
}

function isErrors(value: unknown): value is Record<string, string[]> {
  return (
    !!value &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => Array.isArray(v))
  );
}
