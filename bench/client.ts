/** Plain fetch calls to the auth runtime, for set-up and the hot-path check (not the load itself). */

export const REFRESH_COOKIE = 'service_refresh_token';

export interface Api {
  baseUrl: string;
  projectKey: string;
  /** The client address each call comes from (`X-Forwarded-For`, for a server that trusts loopback). */
  forwardedFor?: () => string;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  refreshToken: string | null;
}

function refreshTokenOf(res: Response): string | null {
  for (const line of res.headers.getSetCookie()) {
    const m = /^service_refresh_token=([^;]*)/.exec(line);
    if (m?.[1]) return decodeURIComponent(m[1]);
  }
  return null;
}

async function call(
  api: Api,
  method: 'GET' | 'POST',
  path: string,
  opts: { json?: unknown; bearer?: string; refreshToken?: string },
): Promise<Answer> {
  const headers: Record<string, string> = { 'x-service-project-key': api.projectKey };
  if (opts.json !== undefined) headers['content-type'] = 'application/json';
  if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
  if (opts.refreshToken) headers.cookie = `${REFRESH_COOKIE}=${opts.refreshToken}`;
  if (api.forwardedFor) headers['x-forwarded-for'] = api.forwardedFor();
  const res = await fetch(`${api.baseUrl}${path}`, {
    method,
    headers,
    ...(opts.json !== undefined ? { body: JSON.stringify(opts.json) } : {}),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { raw: text.slice(0, 200) };
  }
  return { status: res.status, body, refreshToken: refreshTokenOf(res) };
}

export const signIn = (api: Api, identifier: string, password: string) =>
  call(api, 'POST', '/v1/auth/sign-in', { json: { identifier, password } });
export const signUp = (api: Api, email: string, password: string) =>
  call(api, 'POST', '/v1/auth/sign-up', { json: { email, password } });
export const me = (api: Api, accessToken: string) =>
  call(api, 'GET', '/v1/auth/me', { bearer: accessToken });
export const refresh = (api: Api, refreshToken: string) =>
  call(api, 'POST', '/v1/auth/refresh', { refreshToken });

/** A signed-in session: its access token and its current refresh token. */
export async function newSession(
  api: Api,
  email: string,
  password: string,
): Promise<{ accessToken: string; refreshToken: string }> {
  const r = await signIn(api, email, password);
  const session = r.body.session as { access_token?: string } | undefined;
  if (r.status !== 200 || !session?.access_token || !r.refreshToken) {
    throw new Error(
      `sign-in of ${email} answered ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`,
    );
  }
  return { accessToken: session.access_token, refreshToken: r.refreshToken };
}
