import { ProjectsCache, sealOAuthSecret } from '@gatehouse/identity';
import {
  cookiesOf,
  expectProblem,
  nextIp,
  seedTenant,
  signUpUser,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';
import { HostedPagesController } from '../src/hosted-pages/hosted-pages.controller';
import { HostedPagesFiles } from '../src/hosted-pages/hosted-pages-files';
import { buildAuthPages } from './support/auth-pages-build';

/** PUBLIC_AUTH_URL of the test environment (libs/testing TEST_ENV): the hosted pages' origin. */
const AUTH_ORIGIN = 'http://auth.test';
const FOREIGN_ORIGIN = 'https://evil.example.com';

/**
 * The hosted pages of the OpenID Connect provider (docs/oidc.md, "Hosted pages"): served per
 * OIDC-enabled project with a strict CSP; and the auth runtime's own origin counting as an allowed
 * origin of such a project (CSRF rule, refresh, CORS, redirect URLs), and only of such a project.
 */
describe('hosted pages', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  const pages = (rest: string) => `/v1/projects/${tenant.project.id}/pages/${rest}`;

  async function setSettings(patch: Record<string, unknown>): Promise<void> {
    await t.dataSource.query(`UPDATE projects SET settings = settings || $2::jsonb WHERE id = $1`, [
      tenant.project.id,
      JSON.stringify(patch),
    ]);
    await t.app
      .get(ProjectsCache)
      .invalidateProject({ id: tenant.project.id, publishableKey: tenant.projectKey });
  }

  beforeAll(async () => {
    buildAuthPages();
    t = await startTestApp(buildAuthRuntime);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    await setSettings({ oidc: { enabled: true } });
  });

  describe('serving', () => {
    it('serves each page with a fresh CSP nonce, no inline script, never framed, never cached', async () => {
      const nonces = new Set<string>();
      for (const page of ['sign-in', 'consent', 'signed-out', 'error', 'sign-in']) {
        const res = await t.http().get(`${pages(page)}?interaction=abc`);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        const csp = res.headers['content-security-policy'];
        const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
        expect(nonce).toBeDefined();
        nonces.add(nonce!);
        expect(csp).toBe(
          `default-src 'none'; script-src 'self'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data:; font-src 'self'; connect-src 'self' ${AUTH_ORIGIN}; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'`,
        );
        expect(res.text).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
        expect(res.text).not.toContain('GATEHOUSE_CSP_NONCE');
        // Assets are named relative to the page, so one build serves every project's path.
        expect(res.text).toMatch(/src="\.\/assets\/index-[A-Za-z0-9_-]+\.js"/);
        expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['referrer-policy']).toBe('no-referrer');
      }
      expect(nonces.size).toBe(5);
    });

    it('serves hashed assets for a year, and nothing else under assets/', async () => {
      const html = (await t.http().get(pages('sign-in'))).text;
      const names = [...html.matchAll(/\.\/assets\/([A-Za-z0-9_.-]+)/g)].map((m) => m[1]);
      expect(names.some((n) => n.endsWith('.js'))).toBe(true);
      expect(names.some((n) => n.endsWith('.css'))).toBe(true);
      for (const name of names) {
        const res = await t.http().get(pages(`assets/${name}`));
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['content-type']).toMatch(
          name.endsWith('.js') ? /javascript/ : /^text\/css/,
        );
      }
      expectProblem(await t.http().get(pages('assets/index-missing.js')), 404, 'not-found');
      expectProblem(await t.http().get(pages('assets/..%2F..%2Fpackage.json')), 404, 'not-found');
      expectProblem(await t.http().get(pages('assets/index.html')), 404, 'not-found');
    });

    it('answers config.json with public values only: the project, its publishable key, the runtime, its enabled social providers', async () => {
      const res = await t.http().get(pages('config.json'));
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        project_id: tenant.project.id,
        project_name: tenant.project.name,
        project_key: tenant.projectKey,
        auth_url: AUTH_ORIGIN,
        oauth_providers: [],
        magic_link: true,
        sign_up: true,
      });

      const seal = (provider: string) =>
        sealOAuthSecret(t.config, tenant.project.id, provider, 'client_secret', 'provider secret');
      await setSettings({
        oidc: { enabled: true },
        oauth_providers: {
          github: {
            enabled: true,
            client_id: 'gh-client',
            client_secret_encrypted: seal('github'),
          },
          google: {
            enabled: false,
            client_id: 'g-client',
            client_secret_encrypted: seal('google'),
          },
          // Enabled but incomplete (no secret): not offered.
          microsoft: { enabled: true, client_id: 'ms-client' },
        },
      });
      const again = await t.http().get(pages('config.json'));
      expect(again.body.oauth_providers).toEqual(['github']);
      expect(JSON.stringify(again.body)).not.toMatch(/secret|gh-client/);
    });

    it('has no pages for a project without OIDC, an unknown project or a malformed id: 404, never a 500', async () => {
      for (const page of ['sign-in', 'config.json', 'assets/index-x.js', 'nope']) {
        expectProblem(
          await t.http().get(`/v1/projects/00000000-0000-4000-8000-000000000000/pages/${page}`),
          404,
          'not-found',
        );
        expectProblem(
          await t.http().get(`/v1/projects/not-a-uuid/pages/${page}`),
          404,
          'not-found',
        );
        expectProblem(
          await t.http().get(`/v1/projects/------------------------------------/pages/${page}`),
          404,
          'not-found',
        );
      }
      for (const oidc of [{ enabled: false }, { enabled: 'true' }, null]) {
        await setSettings({ oidc });
        for (const page of ['sign-in', 'config.json'])
          expectProblem(await t.http().get(pages(page)), 404, 'not-found');
      }
      await setSettings({ oidc: { enabled: true } });
      expect((await t.http().get(pages('sign-in'))).status).toBe(200);
    });

    it('answers 404 for any other page', async () => {
      for (const page of ['admin', 'index.html', 'sign-in.html', '..%2Fconfig.json']) {
        expectProblem(await t.http().get(pages(page)), 404, 'not-found');
      }
      expectProblem(await t.http().get(pages('sign-in/extra')), 404, 'not-found');
    });

    it('says to build the pages when they are not built (503)', async () => {
      const controller = t.app.get<HostedPagesController, { files: HostedPagesFiles }>(
        HostedPagesController,
      );
      const built = controller.files;
      controller.files = new HostedPagesFiles('/nonexistent/auth-pages');
      try {
        const body = expectProblem(
          await t.http().get(pages('sign-in')),
          503,
          'service-unavailable',
        );
        expect(body.detail).toMatch(/npm run build:pages/);
        expectProblem(await t.http().get(pages('assets/index-x.js')), 503, 'service-unavailable');
      } finally {
        controller.files = built;
      }
    });
  });

  describe("the runtime's own origin for an OIDC project", () => {
    const signOutWithCookie = (token: string, origin: string) =>
      t
        .http()
        .post('/v1/auth/sign-out')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('X-Forwarded-For', nextIp())
        .set('Cookie', `service_session=${token}`)
        .set('Origin', origin)
        .send();
    const refreshWithCookie = (refreshToken: string, origin: string) =>
      t
        .http()
        .post('/v1/auth/refresh')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('X-Forwarded-For', nextIp())
        .set('Cookie', `service_refresh_token=${refreshToken}`)
        .set('Origin', origin)
        .send();

    it('may use the session cookie (CSRF rule) while a foreign origin is still refused', async () => {
      const user = await signUpUser(t, tenant.projectKey, 'pages-csrf@example.com');
      expectProblem(await signOutWithCookie(user.accessToken, FOREIGN_ORIGIN), 403, 'forbidden');
      expectProblem(
        await signOutWithCookie(user.accessToken, 'http://auth.test:8080'),
        403,
        'forbidden',
      );
      expect((await signOutWithCookie(user.accessToken, AUTH_ORIGIN)).status).toBe(204);
    });

    it('is refused once the project turns OIDC off (and never counted for other projects)', async () => {
      await setSettings({ oidc: { enabled: false } });
      const user = await signUpUser(t, tenant.projectKey, 'pages-off@example.com');
      expectProblem(await signOutWithCookie(user.accessToken, AUTH_ORIGIN), 403, 'forbidden');
      expectProblem(await refreshWithCookie(user.refreshToken, AUTH_ORIGIN), 403, 'forbidden');
    });

    it('may refresh with the cookie; a foreign origin may not', async () => {
      const user = await signUpUser(t, tenant.projectKey, 'pages-refresh@example.com');
      expectProblem(await refreshWithCookie(user.refreshToken, FOREIGN_ORIGIN), 403, 'forbidden');
      const res = await refreshWithCookie(user.refreshToken, AUTH_ORIGIN);
      expect(res.status).toBe(200);
      expect(res.body.access_token).toEqual(expect.any(String));
      // The failed attempts rotated nothing: the successor of the presented token works from the pages too.
      const next = cookiesOf(res).service_refresh_token.value;
      expect((await refreshWithCookie(next, AUTH_ORIGIN)).status).toBe(200);
    });

    it('gets CORS headers like any allowed origin; a foreign origin does not', async () => {
      const me = (origin: string) =>
        t
          .http()
          .get('/v1/auth/me')
          .set('X-Service-Project-Key', tenant.projectKey)
          .set('Origin', origin);
      expect((await me(AUTH_ORIGIN)).headers['access-control-allow-origin']).toBe(AUTH_ORIGIN);
      expect((await me(FOREIGN_ORIGIN)).headers['access-control-allow-origin']).toBeUndefined();
      await setSettings({ oidc: { enabled: false } });
      expect((await me(AUTH_ORIGIN)).headers['access-control-allow-origin']).toBeUndefined();
    });

    it("accepts the project's hosted sign-in page as the return address of magic links and social sign-in, and only for an OIDC project", async () => {
      const page = `${AUTH_ORIGIN}/v1/projects/${tenant.project.id}/pages/sign-in`;
      const send = (redirect_url: string) =>
        t
          .http()
          .post('/v1/auth/magic-link/send')
          .set('X-Service-Project-Key', tenant.projectKey)
          .set('X-Forwarded-For', nextIp())
          .send({ email: 'someone@example.com', redirect_url });
      expect((await send(page)).status).toBe(202);
      expectProblem(await send(`${page}?interaction=x`), 400, 'validation-error');
      expectProblem(await send(page.replace('sign-in', 'consent')), 400, 'validation-error');

      await setSettings({
        oidc: { enabled: true },
        oauth_providers: {
          github: {
            enabled: true,
            client_id: 'gh-client',
            client_secret_encrypted: sealOAuthSecret(
              t.config,
              tenant.project.id,
              'github',
              'client_secret',
              'provider secret',
            ),
          },
        },
      });
      const authorize = (redirect_url: string) =>
        t
          .http()
          .get(
            `/v1/auth/oauth/github/authorize?${new URLSearchParams({ project_key: tenant.projectKey, redirect_url }).toString()}`,
          );
      const started = await authorize(page);
      expect(started.status).toBe(302);
      expect(started.headers.location).toMatch(/^https:\/\/github\.com\/login\/oauth\/authorize\?/);

      await setSettings({ oidc: { enabled: false } });
      expectProblem(await send(page), 400, 'validation-error');
      expectProblem(await authorize(page), 400, 'validation-error');
    });
  });
});
