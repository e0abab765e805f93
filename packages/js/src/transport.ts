import { GatehouseError } from './errors';

export interface TransportOptions {
  authUrl: string;
  projectKey: string;
  fetch?: typeof fetch;
  /**
   * Where the refresh cookie lives: `browser` (the browser's cookie store, HttpOnly; requests carry
   * it with `credentials: 'include'`) or `memory` (read from `Set-Cookie` and sent back by this
   * client, for Node, Bun, Deno and tests). Default: `browser` where there is a `document`.
   */
  cookies?: 'browser' | 'memory';
}

export interface CallOptions {
  body?: unknown;
  /** A bearer token to send. */
  token?: string | null;
  query?: Record<string, string | undefined>;
}

const REFRESH_COOKIE = 'service_refresh_token';

/** HTTP to the auth runtime: the project key on every call, problems as GatehouseError, and the refresh cookie where the runtime has no browser. */
export class Transport {
  readonly authUrl: string;
  readonly projectKey: string;
  private readonly doFetch: typeof fetch;
  private readonly memoryCookies: boolean;
  private refreshCookie: string | null = null;

  constructor(options: TransportOptions) {
    let url: URL;
    try {
      url = new URL(options.authUrl);
    } catch {
      throw new TypeError('Gatehouse: authUrl must be an absolute URL');
    }
    this.authUrl = url.href.replace(/\/+$/, '');
    if (!options.projectKey) throw new TypeError('Gatehouse: projectKey is required');
    this.projectKey = options.projectKey;
    this.doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.memoryCookies =
      (options.cookies ?? (typeof document === 'undefined' ? 'memory' : 'browser')) === 'memory';
  }

  /** A call to `/v1/auth/*`; resolves to the JSON body (undefined for 204), or throws GatehouseError. */
  async call<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: CallOptions = {},
  ): Promise<T> {
    const response = await this.send(method, path, options);
    if (!response.ok) throw await GatehouseError.fromResponse(response);
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** The raw answer (for callers that read statuses themselves). Network failures throw GatehouseError (status 0). */
  async send(method: string, path: string, options: CallOptions = {}): Promise<Response> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-service-project-key': this.projectKey,
    };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (this.memoryCookies && this.refreshCookie && path.startsWith('/v1/auth/'))
      headers.cookie = `${REFRESH_COOKIE}=${this.refreshCookie}`;
    const url = new URL(`${this.authUrl}${path}`);
    for (const [k, v] of Object.entries(options.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, v);
    let response: Response;
    try {
      response = await this.doFetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        credentials: 'include',
        redirect: 'manual',
      });
    } catch (err) {
      throw GatehouseError.network(err);
    }
    if (this.memoryCookies) this.keepCookies(response);
    return response;
  }

  /** A URL of the auth runtime for a browser navigation (`project_key` in the query: navigations send no headers). */
  navigationUrl(path: string, query: Record<string, string | undefined>): string {
    const url = new URL(`${this.authUrl}${path}`);
    url.searchParams.set('project_key', this.projectKey);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
    return url.href;
  }

  /** Memory mode: forgets the refresh cookie (sign-out, a refused refresh). */
  forgetCookies(): void {
    this.refreshCookie = null;
  }

  private keepCookies(response: Response): void {
    const lines =
      typeof response.headers.getSetCookie === 'function' ? response.headers.getSetCookie() : [];
    for (const line of lines) {
      const eq = line.indexOf('=');
      if (line.slice(0, eq).trim() !== REFRESH_COOKIE) continue;
      const value = line
        .slice(eq + 1)
        .split(';')[0]
        .trim();
      const expired = /expires=thu, 01 jan 1970/i.test(line) || /max-age=0(;|$)/i.test(line);
      this.refreshCookie = value && !expired ? value : null;
    }
  }
}
