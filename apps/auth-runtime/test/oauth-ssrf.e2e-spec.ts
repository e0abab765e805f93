import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import ipaddr from 'ipaddr.js';
import type { Response } from 'supertest';
import { ProjectsCache, sealOAuthSecret, type OAuthProvider } from '@gatehouse/identity';
import {
  APP_REDIRECT,
  cookiesOf,
  expectProblem,
  HttpReceiver,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';
import { LocalProviders, loginAtProvider } from './support/oauth/test-providers';

const UNREACHABLE = 'The identity provider cannot be reached; try again shortly.';

/**
 * SSRF (issue 20): every call the runtime makes to a provider URL (discovery, keys, token,
 * userinfo, emails) goes through the guarded resolver of `@gatehouse/outbound`.
 * `trap` is a real listener on every loopback address (`::`, dual stack: it also takes 127.0.0.1,
 * ::1, 0.0.0.0 and this machine's name): "never connects" is proven by the trap receiving nothing.
 * Two runtimes share the database: `strict` (OAUTH_ALLOW_PRIVATE_URLS=false) and `loose`
 * (`loopback`, the test default), so a URL stored under one mode can be used under the other.
 */
describe('OAuth provider calls refuse loopback, private, link-local and metadata addresses', () => {
  let strict: TestApp;
  let loose: TestApp;
  let tenant: SeededTenant;
  const trap = new HttpReceiver();
  /** Discovery documents and redirects, on 127.0.0.1. */
  const docs = new HttpReceiver();
  const local = new LocalProviders();

  beforeAll(async () => {
    await trap.start('::');
    await docs.start();
    await local.start();
    loose = await startTestApp(buildAuthRuntime, { OAUTH_TIMEOUT_MS: '2000' });
    strict = await startTestApp(buildAuthRuntime, {
      OAUTH_ALLOW_PRIVATE_URLS: 'false',
      OAUTH_TIMEOUT_MS: '2000',
    });
  });

  beforeEach(async () => {
    await loose.reset();
    tenant = await seedTenant(loose.app);
    trap.clear();
    trap.respond = () => ({ status: 200, body: '{}' });
    docs.clear();
    docs.respond = () => ({ status: 404, body: '{}' });
    local.github.tokenStatus = 200;
    local.githubAccount = {
      id: 4242,
      login: 'octo',
      emails: [{ email: 'octo@example.com', primary: true, verified: true }],
    };
  });

  afterAll(async () => {
    await strict?.close();
    await loose?.close();
    await trap.stop();
    await docs.stop();
    await local.stop();
  });

  // ------------------------------------------------------------------ helpers

  const seal = (provider: OAuthProvider) =>
    sealOAuthSecret(
      loose.config,
      tenant.project.id,
      provider,
      'client_secret',
      `${provider}-secret`,
    );

  const github = (over: Record<string, unknown> = {}) => ({
    enabled: true,
    client_id: local.github.clientId,
    client_secret_encrypted: sealOAuthSecret(
      loose.config,
      tenant.project.id,
      'github',
      'client_secret',
      local.github.clientSecret,
    ),
    authorization_url: `${local.url}/github/login/oauth/authorize`,
    token_url: `${local.url}/github/login/oauth/access_token`,
    userinfo_url: `${local.url}/github/user`,
    ...over,
  });

  /** Microsoft with an overridden issuer and nothing else: every endpoint comes from discovery. */
  const discovered = (issuer: string) => ({
    enabled: true,
    client_id: 'ms-client',
    client_secret_encrypted: seal('microsoft'),
    issuer,
  });

  /** Stores `settings.oauth_providers` straight into the project, as a PATCH under another mode (or an older version) left it. */
  async function store(
    providers: Partial<Record<OAuthProvider, Record<string, unknown>>>,
  ): Promise<void> {
    await loose.dataSource.query(
      `UPDATE projects SET settings = settings || jsonb_build_object('oauth_providers', $1::jsonb) WHERE id = $2`,
      [JSON.stringify(providers), tenant.project.id],
    );
    await loose.app
      .get(ProjectsCache)
      .invalidateProject({ id: tenant.project.id, publishableKey: tenant.projectKey });
  }

  const authorizePath = (provider: OAuthProvider) =>
    `/v1/auth/oauth/${provider}/authorize?${new URLSearchParams({ project_key: tenant.projectKey, redirect_url: APP_REDIRECT }).toString()}`;

  async function expectUnavailable(
    app: TestApp,
    provider: OAuthProvider,
    what: string,
  ): Promise<void> {
    const res = await app.http().get(authorizePath(provider));
    expect({ what, status: res.status }).toEqual({ what, status: 503 });
    const body = expectProblem(
      res,
      503,
      'service-unavailable',
      `/v1/auth/oauth/${provider}/authorize`,
    );
    expect(body.detail).toBe(UNREACHABLE);
    expect(res.headers.location).toBeUndefined();
    expect(cookiesOf(res).service_oauth_binding).toBeUndefined();
  }

  /** authorize on `first`, the user at the local GitHub, the callback on `second`. */
  async function githubSignIn(first: TestApp, second: TestApp): Promise<Response> {
    const res = await first.http().get(authorizePath('github'));
    expect(res.status).toBe(302);
    const binding = cookiesOf(res).service_oauth_binding.value;
    const ret = await loginAtProvider(res.headers.location, { account: 'unused' });
    if (ret.method !== 'GET') throw new Error('expected a GET callback');
    return second
      .http()
      .get(`/v1/auth/oauth/callback${ret.search}`)
      .set('Cookie', `service_oauth_binding=${binding}`);
  }

  async function expectProviderError(res: Response): Promise<void> {
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`${APP_REDIRECT}?error=provider_error`);
    expect(cookiesOf(res).service_session).toBeUndefined();
    expect(cookiesOf(res).service_refresh_token).toBeUndefined();
    const count = async (sql: string) => (await loose.dataSource.query<{ n: number }[]>(sql))[0].n;
    expect(
      await count(`SELECT count(*)::int AS n FROM users WHERE project_id = '${tenant.project.id}'`),
    ).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM sessions')).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM oauth_identities')).toBe(0);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM audit_events WHERE action = 'user.sign_in_failed' AND metadata->>'reason' = 'invalid_credentials' AND metadata->>'error' = 'provider_error'`,
      ),
    ).toBe(1);
  }

  const transactions = async () =>
    (
      await loose.dataSource.query<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM oauth_transactions',
      )
    )[0].n;

  // ------------------------------------------------------------------ OAUTH_ALLOW_PRIVATE_URLS=false

  describe('with OAUTH_ALLOW_PRIVATE_URLS=false', () => {
    it('answers authorize with 503 for an issuer at a loopback, private, link-local or metadata address, without connecting', async () => {
      const hosts = [
        `127.0.0.1:${trap.port}`,
        `[::1]:${trap.port}`,
        `localhost:${trap.port}`,
        `localhost.:${trap.port}`,
        `[::ffff:127.0.0.1]:${trap.port}`,
        `0.0.0.0:${trap.port}`,
        `2130706433:${trap.port}`,
        '10.0.0.1',
        '169.254.169.254',
        'metadata.google.internal',
        '[fd00:ec2::254]',
      ];
      for (const host of hosts) {
        await store({ microsoft: discovered(`http://${host}/tenant/v2.0`) });
        await expectUnavailable(strict, 'microsoft', host);
        expect({ host, received: trap.requests.map((r) => r.path) }).toEqual({
          host,
          received: [],
        });
      }
      expect(await transactions()).toBe(0);
    });

    it('refuses a host name that resolves to loopback on the resolved address, at connection time (discovery and token exchange)', async () => {
      const own = hostname();
      const resolved = await lookup(own, { all: true });
      // Precondition: this machine's name resolves to loopback only (/etc/hosts).
      expect(resolved.length).toBeGreaterThan(0);
      expect(resolved.map((a) => ipaddr.process(a.address).range())).toEqual(
        resolved.map(() => 'loopback'),
      );

      await store({ microsoft: discovered(`http://${own}:${trap.port}/tenant/v2.0`) });
      await expectUnavailable(strict, 'microsoft', own);
      expect(trap.requests).toEqual([]);

      // The name passes the check made before connecting, so authorize sends the browser on;
      // the token exchange of the callback is refused on the address the name resolves to.
      await store({
        github: github({
          token_url: `http://${own}:${trap.port}/login/oauth/access_token`,
          userinfo_url: `http://${own}:${trap.port}/user`,
        }),
      });
      await expectProviderError(await githubSignIn(strict, strict));
      expect(trap.requests).toEqual([]);
    });

    it('never calls a stored token URL the running mode refuses (stored under another mode): the callback ends with ?error=provider_error', async () => {
      await store({ github: github({ token_url: `${trap.url}/login/oauth/access_token` }) });
      await expectProviderError(await githubSignIn(loose, strict));
      expect(trap.requests).toEqual([]);

      // The same flow under loopback does reach the trap: the listener would have seen a call.
      await githubSignIn(loose, loose);
      expect(trap.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        'POST /login/oauth/access_token',
      ]);
      const [call] = trap.requests;
      expect(call.headers).toMatchObject({
        host: `127.0.0.1:${trap.port}`,
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(Buffer.byteLength(call.body)),
        'user-agent': 'Gatehouse',
        accept: 'application/json',
      });
      expect(new URLSearchParams(call.body).get('client_secret')).toBe(local.github.clientSecret);
    });
  });

  // ------------------------------------------------------------------ OAUTH_ALLOW_PRIVATE_URLS=loopback

  describe('with OAUTH_ALLOW_PRIVATE_URLS=loopback', () => {
    it('refuses an issuer at a link-local, metadata, private or unspecified address (503), without connecting', async () => {
      for (const host of [
        `0.0.0.0:${trap.port}`,
        `[::]:${trap.port}`,
        '169.254.169.254',
        '[fe80::1]',
        'metadata.google.internal',
        'metadata',
        '10.0.0.1',
        '[fd00:ec2::254]',
      ]) {
        await store({ microsoft: discovered(`http://${host}/tenant/v2.0`) });
        await expectUnavailable(loose, 'microsoft', host);
        expect({ host, received: trap.requests.map((r) => r.path) }).toEqual({
          host,
          received: [],
        });
      }
      expect(await transactions()).toBe(0);
    });

    it('refuses a provider whose discovery document points token_endpoint, jwks_uri or userinfo_endpoint at a refused address', async () => {
      let n = 0;
      const serve = (doc: (issuer: string) => Record<string, string>): string => {
        const issuer = `${docs.url}/i${++n}`;
        const body = JSON.stringify(doc(issuer));
        const previous = docs.respond;
        docs.respond = (req) =>
          req.path === `/i${n}/.well-known/openid-configuration`
            ? { status: 200, body }
            : previous(req);
        return issuer;
      };
      const good = (issuer: string) => ({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/keys`,
      });

      // The local provider itself is fine under loopback: authorize goes to its discovered endpoint.
      const fine = serve(good);
      await store({ microsoft: discovered(fine) });
      const ok = await loose.http().get(authorizePath('microsoft'));
      expect(ok.status).toBe(302);
      const location = new URL(ok.headers.location);
      expect(`${location.origin}${location.pathname}`).toBe(`${fine}/authorize`);

      const refused = [
        `http://0.0.0.0:${trap.port}/x`,
        `http://[::]:${trap.port}/x`,
        'http://169.254.169.254/latest/meta-data/',
        'http://10.0.0.1/x',
        'http://metadata.google.internal/x',
        'http://[fe80::1]/x',
      ];
      for (const field of ['token_endpoint', 'jwks_uri', 'userinfo_endpoint']) {
        for (const target of refused) {
          await store({
            microsoft: discovered(serve((issuer) => ({ ...good(issuer), [field]: target }))),
          });
          await expectUnavailable(loose, 'microsoft', `${field} ${target}`);
          expect({ field, target, received: trap.requests.map((r) => r.path) }).toEqual({
            field,
            target,
            received: [],
          });
        }
      }
      expect(await transactions()).toBe(1);
    });

    it('does not follow redirects from a provider (discovery, token endpoint)', async () => {
      docs.respond = (req) => {
        if (req.path === '/moved/.well-known/openid-configuration')
          return {
            status: 302,
            body: '',
            headers: { Location: `${trap.url}/.well-known/openid-configuration` },
          };
        if (req.path === '/token-moved')
          return { status: 307, body: '', headers: { Location: `${trap.url}/token` } };
        return { status: 404, body: '{}' };
      };
      await store({ microsoft: discovered(`${docs.url}/moved`) });
      await expectUnavailable(loose, 'microsoft', 'redirected discovery');
      expect(docs.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        'GET /moved/.well-known/openid-configuration',
      ]);

      await store({ github: github({ token_url: `${docs.url}/token-moved` }) });
      await expectProviderError(await githubSignIn(loose, loose));
      expect(docs.requests.map((r) => `${r.method} ${r.path}`).at(-1)).toBe('POST /token-moved');
      expect(trap.requests).toEqual([]);
    });

    it('stops reading a provider answer over 1 MiB (503)', async () => {
      const huge = JSON.stringify({ issuer: `${docs.url}/huge`, padding: 'x'.repeat(1024 * 1024) });
      docs.respond = (req) =>
        req.path === '/huge/.well-known/openid-configuration'
          ? { status: 200, body: huge }
          : { status: 404, body: '{}' };
      await store({ microsoft: discovered(`${docs.url}/huge`) });
      await expectUnavailable(loose, 'microsoft', 'huge discovery');
    });
  });
});
