import { GatehouseError } from './errors';
import type { Tabs } from './tabs';
import type { Transport } from './transport';

/** The access token held in memory, with what its claims say about it. */
export interface HeldToken {
  accessToken: string;
  /** ms since the epoch. */
  expiresAt: number;
  userId: string;
  sessionId: string;
  /** The session's active organization (the `org` claim), or null. */
  organization: TokenOrganization | null;
}

/** The `org` claim of an access token: the session's active organization and what the member's role grants. */
export interface TokenOrganization {
  id: string;
  slug: string;
  role: string;
  permissions: string[];
}

export interface TokenKeeperOptions {
  /** Renew this long before expiry (ms); the renewal also happens at 80 % of the lifetime when that is earlier. */
  renewBeforeMs: number;
  tabs: Tabs;
  now: () => number;
}

/**
 * Keeps the access token: in memory only (never in storage), renewed through `POST /v1/auth/refresh`
 * before it expires, with one refresh in flight at a time in this client and, through Web Locks, in
 * all the origin's tabs (a refresh token rotates, and reusing a rotated one beyond the 10 s grace
 * revokes the session, docs/api-contract.md §2). A tab that waited for the lock takes the token another tab just
 * broadcast instead of refreshing again.
 */
export class TokenKeeper {
  private held: HeldToken | null = null;
  private renewing: Promise<HeldToken | null> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Counts the tokens adopted, so that a refresh answered after a newer token (an organization just made active) does not replace it. */
  private adoptions = 0;
  private readonly listeners = new Set<(token: HeldToken | null) => void>();

  constructor(
    private readonly transport: Transport,
    private readonly options: TokenKeeperOptions,
  ) {
    options.tabs.channel?.subscribe((message) => {
      if (message.type === 'token') this.adopt(message.accessToken, false);
      else this.clear(false);
    });
  }

  get current(): HeldToken | null {
    return this.held;
  }

  onChange(listener: (token: HeldToken | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A token just obtained (sign-in, MFA, passkey, re-authentication, refresh): held, scheduled for renewal, told to the other tabs. */
  adopt(accessToken: string, broadcast = true): HeldToken | null {
    const claims = decodeClaims(accessToken);
    if (!claims) return null;
    this.held = {
      accessToken,
      expiresAt: claims.exp * 1000,
      userId: claims.sub,
      sessionId: claims.sid,
      organization: claims.org ?? null,
    };
    this.adoptions += 1;
    this.schedule();
    if (broadcast) this.options.tabs.channel?.post({ type: 'token', accessToken });
    this.emit();
    return this.held;
  }

  /** Signed out (here or in another tab): the token is dropped. */
  clear(broadcast = true): void {
    const had = this.held !== null;
    this.held = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.transport.forgetCookies();
    if (broadcast) this.options.tabs.channel?.post({ type: 'signed-out' });
    if (had) this.emit();
  }

  /** A token good for more than the renewal margin, renewing first when needed; null when signed out. */
  async valid(): Promise<string | null> {
    if (this.held && !this.expiringSoon(this.held)) return this.held.accessToken;
    return (await this.renew())?.accessToken ?? null;
  }

  /** One renewal at a time in this client; across tabs, one holder of the lock at a time. */
  renew(): Promise<HeldToken | null> {
    this.renewing ??= this.renewAcrossTabs().finally(() => (this.renewing = null));
    return this.renewing;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.options.tabs.channel?.close();
    this.listeners.clear();
  }

  private async renewAcrossTabs(): Promise<HeldToken | null> {
    const before = this.held?.accessToken ?? null;
    const locks = this.options.tabs.locks;
    if (!locks) return this.refresh();
    return locks.request(`gatehouse-refresh:${this.transport.projectKey}`, async () => {
      // While this tab waited, the lock's holder may have refreshed and broadcast its token.
      if (this.held && this.held.accessToken !== before && !this.expiringSoon(this.held))
        return this.held;
      return this.refresh();
    });
  }

  private async refresh(): Promise<HeldToken | null> {
    const adoptionsBefore = this.adoptions;
    const response = await this.transport.send('POST', '/v1/auth/refresh', { body: {} });
    if (response.status === 401) {
      // No refresh cookie, or a chain that ended (signed out, revoked, expired).
      this.clear(false);
      return null;
    }
    if (!response.ok) throw await GatehouseError.fromResponse(response);
    const body = (await response.json()) as { access_token: string };
    // A token adopted while this refresh was in flight (POST /organizations/active answered, or
    // another tab's) is at least as new as the session this refresh read: keep it. The session
    // keeps the active organization, so the next refresh carries it too.
    if (this.adoptions !== adoptionsBefore && this.held) return this.held;
    return this.adopt(body.access_token);
  }

  private expiringSoon(token: HeldToken): boolean {
    return this.options.now() >= this.renewAt(token);
  }

  private renewAt(token: HeldToken): number {
    const claims = decodeClaims(token.accessToken);
    const lifetime = claims ? (claims.exp - claims.iat) * 1000 : 0;
    return Math.min(token.expiresAt - this.options.renewBeforeMs, token.expiresAt - lifetime * 0.2);
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    const held = this.held;
    if (!held) return;
    const delay = Math.max(0, this.renewAt(held) - this.options.now());
    this.timer = setTimeout(() => {
      this.renew().catch(() => {
        /* offline: the next call retries; the token stays until it expires */
      });
    }, delay);
    // In Node a pending renewal must not keep the process alive.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private emit(): void {
    for (const listener of this.listeners) listener(this.held);
  }
}

interface ReadClaims {
  sub: string;
  sid: string;
  exp: number;
  iat: number;
  auth_time?: number;
  org?: TokenOrganization;
}

/** The `org` claim when it has the shape the runtime signs (`{id, slug, role, permissions}`), else undefined. */
function readOrganization(org: unknown): TokenOrganization | undefined {
  if (!org || typeof org !== 'object') return undefined;
  const o = org as Record<string, unknown>;
  if (
    typeof o.id !== 'string' ||
    typeof o.slug !== 'string' ||
    typeof o.role !== 'string' ||
    !Array.isArray(o.permissions) ||
    !o.permissions.every((p) => typeof p === 'string')
  )
    return undefined;
  return { id: o.id, slug: o.slug, role: o.role, permissions: [...o.permissions] };
}

/** The claims this client reads (not verified: the server verifies; these only schedule renewal, name the session and its active organization). */
export function decodeClaims(token: string): ReadClaims | null {
  try {
    const part = token.split('.')[1];
    const binary = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    const claims = JSON.parse(
      new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))),
    ) as Record<string, unknown>;
    if (
      typeof claims.sub !== 'string' ||
      typeof claims.sid !== 'string' ||
      typeof claims.exp !== 'number' ||
      typeof claims.iat !== 'number'
    )
      return null;
    const org = readOrganization(claims.org);
    return { ...(claims as unknown as ReadClaims), org };
  } catch {
    return null;
  }
}
