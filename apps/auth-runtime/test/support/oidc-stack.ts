import type { Project } from '@gatehouse/entities';
import {
  createUser,
  freePort,
  mintAccessToken,
  seedTenant,
  spawnApp,
  startTestApp,
  type AppProcess,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the journey needs the real control plane to register clients
import { buildControlPlane } from '../../../control-plane/src/app-factory';

export const RP_REDIRECT = 'http://127.0.0.1:5599/callback';
export const RP_POST_LOGOUT = 'http://127.0.0.1:5599/signed-out';
export const PASSWORD = 'a sturdy passphrase 42';

export { freePort };

export interface OidcProject {
  project: Project;
  projectKey: string;
  issuer: string;
}

export interface CreatedClient {
  client_id: string;
  client_secret?: string;
  [key: string]: unknown;
}

/**
 * The OpenID Connect journeys' stack: the compiled auth runtime as a real process (oidc-provider
 * is an ES module; Jest's CommonJS sandbox cannot host it) on a fixed loopback port, so its
 * PUBLIC_AUTH_URL and therefore every issuer are real URLs a relying party can reach; and the
 * control plane in process, to enable the provider and register clients through the admin API.
 */
export class OidcStack {
  authUrl = '';
  runtime: AppProcess;
  cp: TestApp;
  tenant: SeededTenant;
  adminToken: string;

  /** `host`: the name the runtime is reached by (`localhost` for passkeys, whose RP ID cannot be an IP address). */
  async start(env: Record<string, string> = {}, opts: { host?: string } = {}): Promise<void> {
    const port = await freePort();
    this.authUrl = `http://${opts.host ?? '127.0.0.1'}:${port}`;
    // Every request of a file comes from 127.0.0.1 and a file of this stack sends more than the
    // global limit's 1000 a minute (it crossed it once the reset between tests got faster): the
    // global limit is raised here, the route limits stay (global-rate-limit-setting tests the knob).
    const limit = { RATE_LIMIT_GLOBAL_PER_MINUTE: '1000000' };
    this.cp = await startTestApp(buildControlPlane, { PUBLIC_AUTH_URL: this.authUrl, ...limit });
    this.runtime = await spawnApp('auth-runtime', {
      AUTH_RUNTIME_PORT: String(port),
      PUBLIC_AUTH_URL: this.authUrl,
      ...limit,
      ...env,
    });
    this.tenant = await seedTenant(this.cp.app, `Oidc${Date.now() % 100000}`);
    this.adminToken = (await mintAccessToken(this.cp.app, this.tenant.adminUserId)).token;
  }

  async stop(): Promise<void> {
    await this.runtime?.stop();
    await this.cp?.close();
  }

  admin() {
    const token = this.adminToken;
    const http = this.cp.http();
    return {
      get: (path: string) => http.get(path).set('Authorization', `Bearer ${token}`),
      post: (path: string, body?: object) =>
        http
          .post(path)
          .set('Authorization', `Bearer ${token}`)
          .send(body ?? {}),
      patch: (path: string, body: object) =>
        http.patch(path).set('Authorization', `Bearer ${token}`).send(body),
      delete: (path: string) => http.delete(path).set('Authorization', `Bearer ${token}`),
    };
  }

  /** A new project of the tenant with the provider on (and the relying party's redirect URLs registered). */
  async oidcProject(
    oidc: Record<string, unknown> = {},
    redirectUrls: string[] = [RP_REDIRECT],
  ): Promise<OidcProject> {
    const res = await this.admin().post('/v1/admin/projects', {
      name: `OIDC ${Math.random().toString(36).slice(2, 8)}`,
      allowed_origins: ['http://127.0.0.1:5599'],
      redirect_urls: redirectUrls,
      settings: { oidc: { enabled: true, ...oidc } },
    });
    if (res.status !== 201) throw new Error(`project: ${res.status} ${JSON.stringify(res.body)}`);
    const body = res.body as { id: string; publishable_key: string };
    const project = (await this.cp.dataSource
      .getRepository('Project')
      .findOneByOrFail({ id: body.id })) as Project;
    return {
      project,
      projectKey: body.publishable_key,
      issuer: `${this.authUrl}/v1/projects/${body.id}`,
    };
  }

  async client(projectId: string, body: Record<string, unknown> = {}): Promise<CreatedClient> {
    const res = await this.admin().post(`/v1/admin/projects/${projectId}/oauth-clients`, {
      name: 'Relying party',
      redirect_uris: [RP_REDIRECT],
      post_logout_redirect_uris: [RP_POST_LOGOUT],
      ...body,
    });
    if (res.status !== 201) throw new Error(`client: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as CreatedClient;
  }

  user(project: Project, email: string) {
    return createUser(this.cp.app, project, email, PASSWORD);
  }

  /** Signs in through the auth runtime's API: the session's access token and refresh cookie. */
  async signIn(
    projectKey: string,
    email: string,
    password = PASSWORD,
  ): Promise<{ accessToken: string; sessionId: string; body: Record<string, unknown> }> {
    const res = await fetch(`${this.authUrl}/v1/auth/sign-in`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-project-key': projectKey,
        'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      },
      body: JSON.stringify({ identifier: email, password }),
    });
    const body = (await res.json()) as Record<string, unknown>;
    if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${JSON.stringify(body)}`);
    const session = body.session as { id: string; access_token: string };
    return { accessToken: session.access_token, sessionId: session.id, body };
  }

  /** Calls the interaction API. */
  async interaction(
    projectKey: string,
    method: 'GET' | 'POST',
    path: string,
    opts: { token?: string; body?: unknown } = {},
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${this.authUrl}/v1/auth/oidc/interactions/${path}`, {
      method,
      headers: {
        'x-service-project-key': projectKey,
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      },
      ...(method === 'POST' ? { body: JSON.stringify(opts.body ?? {}) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }
}

/**
 * A browser's cookie jar over fetch, following redirects by hand within the auth runtime's origin
 * and stopping at the first URL outside it (the relying party's callback, or a login page).
 */
export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly origin: string) {}

  get(
    url: string,
  ): Promise<{ status: number; location: string | null; body: string; headers: Headers }> {
    return this.request(url);
  }

  /** Submits a form (application/x-www-form-urlencoded), as the browser does. */
  post(
    url: string,
    fields: Record<string, string>,
  ): Promise<{ status: number; location: string | null; body: string }> {
    return this.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.origin },
      body: new URLSearchParams(fields).toString(),
    });
  }

  private async request(
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<{ status: number; location: string | null; body: string; headers: Headers }> {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...init.headers,
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const location = res.headers.get('location');
    return {
      status: res.status,
      location: location ? new URL(location, url).href : null,
      body: await res.text(),
      headers: res.headers,
    };
  }

  /** Follows redirects while they stay on the auth runtime; returns the first URL elsewhere (or the last response). */
  async follow(url: string, max = 10): Promise<{ url: string; status: number; body: string }> {
    let current = url;
    for (let i = 0; i < max; i++) {
      const res = await this.get(current);
      if (!res.location) return { url: current, status: res.status, body: res.body };
      current = res.location;
      if (!current.startsWith(this.origin) || new URL(current).pathname.includes('/pages/'))
        return { url: current, status: 0, body: '' };
    }
    throw new Error(`too many redirects from ${url}`);
  }
}
