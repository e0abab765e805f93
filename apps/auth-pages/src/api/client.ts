import { ApiProblem, networkProblem, problemOf } from '@gatehouse/ui-shared';

/** What the auth runtime serves at `/v1/projects/{id}/pages/config.json`: public values only. */
export interface PagesConfig {
  project_id: string;
  project_name: string;
  /** The project's publishable key, sent as `X-Service-Project-Key`. */
  project_key: string;
  auth_url: string;
  /** Social sign-in providers enabled for the project (`google`, `github`, …). */
  oauth_providers: string[];
  magic_link: boolean;
  /** Whether people may create an account here (settings.oidc.allow_sign_up). */
  sign_up: boolean;
}

export async function loadConfig(): Promise<PagesConfig> {
  let res: Response;
  try {
    // Beside the page (the build's base is relative: `./`), in the build and under Vite's dev server alike.
    res = await fetch('./config.json', {
      headers: { Accept: 'application/json' },
      cache: 'no-store',
    });
  } catch (err) {
    throw networkProblem(err);
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw problemOf(res.status, body);
  return body as PagesConfig;
}

/** The OIDC interaction the page completes (docs/api-contract.md §11). */
export interface Interaction {
  uid: string;
  prompt: 'login' | 'consent';
  /** The application asked to create an account (`prompt=create`). */
  create?: boolean;
  client: { client_id: string; name: string | null; first_party: boolean };
  scopes: string[];
  /** The project's API resources the request names, with the requested scopes' descriptions. */
  resources?: InteractionResource[];
  expires_at: string;
}

export interface InteractionResource {
  identifier: string;
  name: string;
  scopes: { name: string; description: string }[];
}

export interface SignedIn {
  session: { access_token: string; id: string };
  user: { id: string; email: string };
}
export interface MfaChallenge {
  mfa_required: true;
  mfa_token: string;
  available_factors: string[];
}
export interface Redirect {
  redirect_to: string;
}

/**
 * The auth runtime's API as the page uses it: every call names the project by its publishable key;
 * the session's access token lives in this object only (memory, never storage) and goes out as a
 * bearer token. The refresh cookie (HttpOnly) restores it after a reload or a round trip.
 */
export class AuthApi {
  private accessToken: string | null = null;

  constructor(readonly config: PagesConfig) {}

  get signedIn(): boolean {
    return this.accessToken !== null;
  }

  useToken(token: string | null): void {
    this.accessToken = token;
  }

  async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'X-Service-Project-Key': this.config.project_key,
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (this.accessToken) headers.Authorization = `Bearer ${this.accessToken}`;
    let res: Response;
    try {
      res = await fetch(`${this.config.auth_url}${path}`, {
        method,
        headers,
        credentials: 'same-origin',
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw networkProblem(err);
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    // A body that is not JSON (a proxy's error page) is not shown to the person signing in.
    if (!res.ok)
      throw problemOf(res.status, typeof parsed === 'string' ? null : parsed, res.headers);
    return parsed as T;
  }

  /** The session the refresh cookie holds, if any: its access token is kept; null when there is none. */
  async restore(): Promise<{ email: string } | null> {
    try {
      const fresh = await this.call<{ access_token: string }>('POST', '/v1/auth/refresh');
      this.accessToken = fresh.access_token;
      const me = await this.call<{ user: { email: string } | null }>('GET', '/v1/auth/me');
      if (!me.user) {
        this.accessToken = null;
        return null;
      }
      return { email: me.user.email };
    } catch (err) {
      this.accessToken = null;
      // No cookie, a refused or expired one: simply no session. Anything else (network, 5xx) is shown.
      if (err instanceof ApiProblem && err.status >= 400 && err.status < 500) return null;
      throw err;
    }
  }

  interaction(uid: string): Promise<Interaction> {
    return this.call('GET', `/v1/auth/oidc/interactions/${encodeURIComponent(uid)}`);
  }

  complete(uid: string): Promise<Redirect> {
    return this.call('POST', `/v1/auth/oidc/interactions/${encodeURIComponent(uid)}/complete`);
  }

  consent(uid: string, scopes: string[]): Promise<Redirect> {
    return this.call('POST', `/v1/auth/oidc/interactions/${encodeURIComponent(uid)}/consent`, {
      scopes,
    });
  }

  abort(uid: string): Promise<Redirect> {
    return this.call('POST', `/v1/auth/oidc/interactions/${encodeURIComponent(uid)}/abort`);
  }
}
