import { GatehouseAuthError } from './errors';

export interface SessionStatusOptions {
  /** `{authUrl}/v1/auth/me`. */
  url: string;
  projectKey: string;
  fetch: typeof fetch;
  /** How long an answer is trusted: the bound on how late a revocation is noticed. */
  ttlMs: number;
  maxEntries: number;
  timeoutMs: number;
  now: () => number;
}

interface Answer {
  live: boolean;
  until: number;
}

/**
 * Revocation-aware mode: whether a session is still live, asked of Gatehouse with the token itself
 * (`GET /v1/auth/me` answers `{"user": null}` for a signed-out or revoked session and a disabled or
 * deleted user) and remembered per session for `ttlMs`. Concurrent questions about one session share
 * one call. When Gatehouse cannot answer, the request is refused (503), never waved through.
 */
export class SessionStatus {
  private answers = new Map<string, Answer>();
  private inflight = new Map<string, Promise<boolean>>();

  constructor(private readonly options: SessionStatusOptions) {}

  async isLive(sid: string, sub: string, token: string): Promise<boolean> {
    const key = `${sid}\u0000${sub}`;
    const cached = this.answers.get(key);
    if (cached && cached.until > this.options.now()) return cached.live;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.ask(sub, token).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    const live = await pending;
    this.remember(key, live);
    return live;
  }

  private async ask(sub: string, token: string): Promise<boolean> {
    let body: unknown;
    try {
      const response = await this.options.fetch(this.options.url, {
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${token}`,
          'x-service-project-key': this.options.projectKey,
        },
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (!response.ok) throw new Error(`/v1/auth/me answered ${response.status}`);
      body = await response.json();
    } catch (err) {
      throw new GatehouseAuthError(
        'gatehouse_unavailable',
        'Gatehouse could not confirm the session.',
        { cause: err },
      );
    }
    const user = (body as { user?: { id?: unknown } | null } | null)?.user;
    return !!user && user.id === sub;
  }

  private remember(key: string, live: boolean): void {
    // Oldest first out: a Map iterates in insertion order, and a refreshed answer is re-inserted.
    this.answers.delete(key);
    if (this.answers.size >= this.options.maxEntries) {
      const oldest = this.answers.keys().next();
      if (!oldest.done) this.answers.delete(oldest.value);
    }
    this.answers.set(key, { live, until: this.options.now() + this.options.ttlMs });
  }
}
