import { GatehouseError } from './errors';

export interface AdminSessionOptions {
  /** Gatehouse's auth runtime (`PUBLIC_AUTH_URL`, e.g. `http://localhost:4000`). */
  authUrl: string;
  /** The publishable key of the tenant's console project (admins sign in there). */
  projectKey: string;
  email: string;
  password: string;
  fetch?: typeof fetch;
  /** Renew this many seconds before the access token expires; default 60. */
  renewBeforeSeconds?: number;
}

export interface AdminSession {
  /** A current admin access token: signs in on first use, then renews through the refresh cookie before expiry. A plain function (no `this`), to pass as `token`. */
  token: () => Promise<string>;
  /** Ends the session at Gatehouse (the next `token()` signs in again). */
  signOut: () => Promise<void>;
}

/**
 * For scripts: signs an administrator in to the console project with a password and keeps the
 * access token fresh (`POST /v1/auth/refresh` with the `service_refresh_token` cookie, kept in
 * memory; one refresh in flight at a time). Pass it as `createAdminClient({ token: session.token })`.
 * An administrator with MFA cannot sign in here: use a dedicated administrator without it, or
 * pass a token you obtained yourself.
 */
export function adminSession(options: AdminSessionOptions): AdminSession {
  const base = options.authUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const margin = (options.renewBeforeSeconds ?? 60) * 1000;
  let access: { token: string; expiresAt: number } | null = null;
  let refreshCookie: string | null = null;
  let pending: Promise<string> | null = null;

  const call = async (path: string, body: unknown, withCookie: boolean): Promise<Response> => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-service-project-key': options.projectKey,
    };
    if (withCookie && refreshCookie) headers.cookie = `service_refresh_token=${refreshCookie}`;
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        redirect: 'error',
      });
    } catch (err) {
      throw GatehouseError.network(err);
    }
    for (const line of response.headers.getSetCookie()) {
      const m = /^service_refresh_token=([^;]*)/.exec(line);
      if (m) refreshCookie = m[1] || null;
    }
    if (!response.ok) throw await GatehouseError.fromResponse(response);
    return response;
  };

  const obtain = async (): Promise<string> => {
    if (refreshCookie) {
      try {
        const r = (await (await call('/v1/auth/refresh', {}, true)).json()) as {
          access_token: string;
          expires_in: number;
        };
        access = { token: r.access_token, expiresAt: Date.now() + r.expires_in * 1000 };
        return r.access_token;
      } catch (err) {
        // A refresh chain that ended (revoked, expired): sign in again; anything else is the caller's.
        if (!(err instanceof GatehouseError) || err.status !== 401) throw err;
        refreshCookie = null;
      }
    }
    const body = (await (
      await call(
        '/v1/auth/sign-in',
        { identifier: options.email, password: options.password },
        false,
      )
    ).json()) as { session?: { access_token: string }; mfa_required?: boolean };
    // Not a server problem but the challenge (docs/api-contract.md §10): named like one so scripts can tell it apart.
    if (!body.session)
      throw new GatehouseError(401, {
        type: 'mfa-required',
        title: 'MFA required',
        detail:
          'This administrator has MFA enabled; adminSession signs in with a password only: use an administrator without MFA for scripts, or pass a token.',
      });
    access = { token: body.session.access_token, expiresAt: expiryOf(body.session.access_token) };
    return access.token;
  };

  const token = async (): Promise<string> => {
    if (access && access.expiresAt - margin > Date.now()) return access.token;
    pending ??= obtain().finally(() => (pending = null));
    return pending;
  };

  return {
    token,
    signOut: async () => {
      if (pending) await pending.catch(() => undefined);
      if (!access) return;
      // An expired access token cannot sign out: renew it first.
      const current = access.expiresAt > Date.now() ? access.token : await token();
      access = null;
      refreshCookie = null;
      let response: Response;
      try {
        response = await doFetch(`${base}/v1/auth/sign-out`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${current}`,
            'x-service-project-key': options.projectKey,
          },
          redirect: 'error',
        });
      } catch (err) {
        throw GatehouseError.network(err);
      }
      // 401: the session had already ended, which is what was asked.
      if (!response.ok && response.status !== 401)
        throw await GatehouseError.fromResponse(response);
    },
  };
}

/** `exp` of a JWT (not verified: only to schedule renewal), or one minute from now. */
function expiryOf(token: string): number {
  try {
    const payload = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))) as {
      exp?: unknown;
    };
    if (typeof payload.exp === 'number') return payload.exp * 1000;
  } catch {
    /* fall through */
  }
  return Date.now() + 60_000;
}
