/** The claims the console reads from its access token (docs/api-contract.md §2). Never trusted for access: the APIs decide. */
export interface Claims {
  sub: string;
  sid: string;
  tid: string;
  aud: string;
  adm?: boolean;
  iat: number;
  exp: number;
}

export interface Session {
  accessToken: string;
  claims: Claims;
  /** Local clock time (ms) at which the token expires: now + the token's lifetime, so a skewed clock does not matter. */
  expiresAt: number;
}

export interface Timers {
  set: (run: () => void, ms: number) => unknown;
  clear: (timer: unknown) => void;
}

/** A fresh access token, or null when there is no session to renew (no or refused refresh cookie). */
export type Refresher = () => Promise<{ access_token: string; expires_in?: number } | null>;

export function decodeClaims(token: string): Claims | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    const claims = JSON.parse(json) as Partial<Claims>;
    if (
      typeof claims.sub !== 'string' ||
      typeof claims.exp !== 'number' ||
      typeof claims.iat !== 'number'
    )
      return null;
    return claims as Claims;
  } catch {
    return null;
  }
}

/**
 * The admin's session, in memory only (never localStorage): the access token, renewed through the
 * refresh cookie shortly before it expires and whenever an API says 401. Renewals are single
 * flight: however many callers ask at once, one refresh request is made and all get its answer
 * (a second refresh with the same cookie would be taken for token reuse).
 */
export class SessionManager {
  private session: Session | null = null;
  private inFlight: Promise<Session | null> | null = null;
  private timer: unknown = null;
  private readonly listeners = new Set<(session: Session | null) => void>();

  constructor(
    private readonly refresher: Refresher,
    private readonly now: () => number = () => Date.now(),
    private readonly timers: Timers = {
      set: (run, ms) => setTimeout(run, ms),
      clear: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
    },
  ) {}

  current(): Session | null {
    return this.session;
  }

  token(): string | null {
    return this.session?.accessToken ?? null;
  }

  /** Keeps a token received from sign-in, MFA verify, passkey sign-in or refresh. */
  set(accessToken: string, expiresIn?: number): Session | null {
    const claims = decodeClaims(accessToken);
    if (!claims) {
      this.clear();
      return null;
    }
    const lifetime = expiresIn ?? claims.exp - claims.iat;
    this.session = { accessToken, claims, expiresAt: this.now() + lifetime * 1000 };
    this.schedule(lifetime);
    this.emit();
    return this.session;
  }

  clear(): void {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    const had = this.session !== null;
    this.session = null;
    if (had) this.emit();
  }

  /**
   * One refresh for every concurrent caller. A refused refresh ends the session; a network failure
   * keeps the current token (it may still be valid) and is thrown to the caller.
   */
  renew(): Promise<Session | null> {
    if (!this.inFlight) {
      this.inFlight = (async () => {
        try {
          const fresh = await this.refresher();
          if (!fresh) {
            this.clear();
            return null;
          }
          return this.set(fresh.access_token, fresh.expires_in);
        } finally {
          this.inFlight = null;
        }
      })();
    }
    return this.inFlight;
  }

  subscribe(listener: (session: Session | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Renews a minute before expiry, or at 80 % of a short lifetime. */
  private schedule(lifetimeSeconds: number): void {
    if (this.timer !== null) this.timers.clear(this.timer);
    const lead = Math.min(60, lifetimeSeconds * 0.2);
    this.timer = this.timers.set(
      () => {
        this.timer = null;
        this.renew().catch(() => undefined);
      },
      Math.max(1, lifetimeSeconds - lead) * 1000,
    );
  }

  private emit(): void {
    for (const listener of this.listeners) listener(this.session);
  }
}
