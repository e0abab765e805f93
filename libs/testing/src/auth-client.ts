import type { Response } from 'supertest';
import type { TestApp } from './test-app';

let ipCounter = 0;

/** A distinct client address per call (the app under test trusts loopback proxies). */
export function nextIp(): string {
  ipCounter += 1;
  return `198.51.100.${(ipCounter % 250) + 1}`;
}

/**
 * A POST to the auth runtime as a client application sends it: the project key, a client address
 * of its own (so per-address limits stay apart) and, when given, the bearer token.
 */
export function postAs(t: TestApp, projectKey: string, path: string, body: object, token?: string) {
  const req = t
    .http()
    .post(path)
    .set('X-Service-Project-Key', projectKey)
    .set('X-Forwarded-For', nextIp());
  return (token ? req.set('Authorization', `Bearer ${token}`) : req).send(body);
}

/** What a `SELECT count(*)::int AS n …` query answers. */
export async function countRows(t: TestApp, sql: string, params: unknown[]): Promise<number> {
  return (await t.dataSource.query<{ n: number }[]>(sql, params))[0].n;
}

/** Parses Set-Cookie headers into name -> { value, attributes }. */
export function cookiesOf(res: Response): Record<string, { value: string; attributes: string[] }> {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  const out: Record<string, { value: string; attributes: string[] }> = {};
  for (const line of raw ?? []) {
    const [pair, ...attrs] = line.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    out[pair.slice(0, eq)] = { value: decodeURIComponent(pair.slice(eq + 1)), attributes: attrs };
  }
  return out;
}

export interface SignedUpUser {
  id: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  sessionId: string;
}

/** Signs a user up through the real endpoint, each from its own address so sign-up limits do not interfere. */
export async function signUpUser(
  t: TestApp,
  projectKey: string,
  email: string,
  password = 'a sturdy passphrase 42',
): Promise<SignedUpUser> {
  const res = await t
    .http()
    .post('/v1/auth/sign-up')
    .set('X-Service-Project-Key', projectKey)
    .set('X-Forwarded-For', nextIp())
    .send({ email, password });
  if (res.status !== 201)
    throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  const cookies = cookiesOf(res);
  return {
    id: res.body.user.id,
    email,
    password,
    accessToken: res.body.session.access_token,
    refreshToken: cookies.service_refresh_token.value,
    sessionId: res.body.session.id,
  };
}
