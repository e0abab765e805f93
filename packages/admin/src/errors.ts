/** An RFC 9457 problem answered by Gatehouse (CONTRACT §4), or a network failure (status 0). */
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
  /** Seconds to wait, from `Retry-After` (429, 503). */
  readonly retryAfter: number | undefined;
  /** The whole problem body as received. */
  readonly problem: Record<string, unknown>;

  constructor(status: number, problem: Record<string, unknown>, headers?: Headers) {
    const type = typeof problem.type === 'string' ? problem.type : '';
    const title = typeof problem.title === 'string' ? problem.title : status === 0 ? 'Network error' : `HTTP ${status}`;
    const detail = typeof problem.detail === 'string' ? problem.detail : undefined;
    super(detail ?? title);
    this.name = 'GatehouseError';
    this.status = status;
    this.slug = type ? type.slice(type.lastIndexOf('/') + 1) : status === 0 ? 'network-error' : `http-${status}`;
    this.title = title;
    this.detail = detail;
    this.errors = isErrors(problem.errors) ? problem.errors : undefined;
    this.traceId = typeof problem.traceId === 'string' ? problem.traceId : undefined;
    const retry = headers?.get('retry-after');
    this.retryAfter = retry && /^\d+$/.test(retry) ? Number(retry) : undefined;
    this.problem = problem;
  }

  /** The error for a non-2xx answer (its body read as a problem when it is JSON). */
  static async fromResponse(response: Response): Promise<GatehouseError> {
    let body: unknown = null;
    try {
      body = await response.clone().json();
    } catch {
      /* not JSON (a proxy's HTML page): the status speaks */
    }
    return new GatehouseError(response.status, body && typeof body === 'object' ? (body as Record<string, unknown>) : {}, response.headers);
  }
}

function isErrors(value: unknown): value is Record<string, string[]> {
  return !!value && typeof value === 'object' && Object.values(value).every((v) => Array.isArray(v));
}
