import createClient, { type Client } from 'openapi-fetch';
import type { SessionManager } from '../auth/session';
import type { ConsoleConfig } from '../config/console-config';
import type { paths as AuthPaths } from './auth-runtime';
import type { paths as AdminPaths } from './control-plane';
import { ApiProblem, networkProblem, problemOf } from '@gatehouse/ui-shared';

export type AuthClient = Client<AuthPaths>;
export type AdminClient = Client<AdminPaths>;

/**
 * A fetch that sends the session's bearer token and, when an API answers 401, renews the token
 * once (single flight) and retries. Network failures become an ApiProblem with status 0.
 */
export function authenticatedFetch(
  session: SessionManager,
  base: typeof fetch = fetch,
): typeof fetch {
  const send = (request: Request) => {
    const token = session.token();
    const headers = new Headers(request.headers);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return base(new Request(request, { headers }));
  };
  return async (input, init) => {
    const request = new Request(input, init);
    const retry = request.clone();
    try {
      const first = await send(request);
      if (first.status !== 401 || !session.token()) return first;
      const renewed = await session.renew().catch(() => null);
      return renewed ? await send(retry) : first;
    } catch (err) {
      throw err instanceof ApiProblem ? err : networkProblem(err);
    }
  };
}

export function createClients(
  config: ConsoleConfig,
  session: SessionManager,
): { auth: AuthClient; admin: AdminClient } {
  const fetchWithSession = authenticatedFetch(session);
  // Every auth-runtime operation names the console project by its key (`params: { header }`, see keyHeader).
  const auth = createClient<AuthPaths>({
    baseUrl: config.auth_url,
    credentials: 'include',
    fetch: fetchWithSession,
  });
  // The control plane serves the console: same origin, bearer token only (no cookie is needed or sent cross-site).
  const admin = createClient<AdminPaths>({
    baseUrl: '',
    credentials: 'same-origin',
    fetch: fetchWithSession,
  });
  return { auth, admin };
}

/** openapi-fetch's result, or the problem it carries thrown (what TanStack Query expects). */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok)
    throw problemOf(response.status, error, response.headers);
  return data as T;
}

/** The `X-Service-Project-Key` header parameter of the auth runtime's operations. */
export function keyHeader(projectKey: string | null): {
  header: { 'X-Service-Project-Key': string };
} {
  return { header: { 'X-Service-Project-Key': projectKey ?? '' } };
}
