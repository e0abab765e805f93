import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { TEST_ENV } from '@gatehouse/testing';
import { ConsoleBrowser } from './support/console-browser';
import { ConsoleStack } from './support/console-stack';

/**
 * The admin console as a newcomer meets it (issue 22): the stack started as `npm start` starts it,
 * the printed credentials, and every screen driven in Chromium, checked through the API, scanned
 * with axe-core in both themes. One browser and one stack for the whole file: the journeys run in
 * order and build on each other (a project, then its users, organizations, webhooks, the audit).
 */
describe('admin console (Chromium, real stack)', () => {
  const stack = new ConsoleStack();
  let browser: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    await stack.start();
    browser = await ConsoleBrowser.launch([
      new URL(stack.authUrl).host,
      new URL(stack.controlPlaneUrl).host,
    ]);
    page = browser.page;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack.stop();
  });

  afterEach(() => {
    // No screen may break the page's CSP, throw, or fetch anything from the network.
    expect(browser.problems).toEqual([]);
    expect(browser.foreignRequests).toEqual([]);
  });

  test('the control plane serves the page with a strict CSP, long-cached hashed assets and a fallback for client routes', async () => {
    const res = await fetch(`${stack.consoleUrl}/users/some-id`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain(`connect-src 'self' ${stack.authUrl}`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain(`nonce="${nonce}"`);
    expect(html).not.toContain('GATEHOUSE_CSP_NONCE');
    // A fresh nonce for every response.
    const again = await fetch(stack.consoleUrl);
    expect(
      /'nonce-([^']+)'/.exec(again.headers.get('content-security-policy') ?? '')?.[1],
    ).not.toBe(nonce);

    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const asset = await fetch(`${stack.controlPlaneUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);

    const missing = await fetch(`${stack.consoleUrl}/assets/..%2f..%2fpackage.json`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);

    const config = (await (await fetch(`${stack.consoleUrl}/config.json`)).json()) as Record<
      string,
      unknown
    >;
    expect(config).toEqual({
      auth_url: stack.authUrl,
      project_key: stack.admin.projectKey,
      console_url: stack.consoleUrl,
    });
  });

  test("the console's API types are generated from the documents both apps serve (npm run console:api --check)", () => {
    const root = join(__dirname, '..', '..', '..');
    const run = spawnSync(
      process.execPath,
      [
        '-r',
        join(root, 'tools/register.js'),
        join(root, 'dist/tools/scripts/console-api.js'),
        '--check',
      ],
      {
        cwd: root,
        // eslint-disable-next-line no-restricted-properties -- child processes inherit PATH
        env: { PATH: process.env.PATH ?? '', ...TEST_ENV },
        encoding: 'utf8',
      },
    );
    expect(`${run.stdout}${run.stderr}`).toContain('console API types up to date');
    expect(run.status).toBe(0);
  });

  test("the control plane's CSRF rule still holds for cookie-authenticated calls: a foreign Origin is refused, the console's own is not", async () => {
    await stack.adminToken();
    expect(stack.apiSessionCookie).toMatch(/^service_session=ey/);
    const create = (origin: string) =>
      fetch(`${stack.controlPlaneUrl}/v1/admin/projects`, {
        method: 'POST',
        headers: {
          Cookie: stack.apiSessionCookie,
          Origin: origin,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ name: `From ${origin}` }),
      });
    const foreign = await create('https://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const own = await create(new URL(stack.consoleUrl).origin);
    expect(own.status).toBe(201);
    const token = await stack.adminToken();
    const names = (
      await stack.adminApi<{ projects: { name: string }[] }>(token, '/v1/admin/projects')
    ).body.projects.map((p) => p.name);
    expect(names).not.toContain('From https://evil.example');
  });

  test('npm start prints the console URL and the admin credentials, and no framework chatter', () => {
    expect(stack.log).toContain(`console`);
    expect(stack.log).toContain(stack.consoleUrl);
    expect(stack.log).toContain(stack.admin.email);
    expect(stack.log).not.toMatch(/InstanceLoader|RoutesResolver|RouterExplorer|NestFactory/);
  });

  test('sign-in: a wrong password shows the server problem with its trace id; the printed credentials open the overview', async () => {
    await page.goto(stack.consoleUrl);
    await page.waitForURL(/\/console\/sign-in$/);
    expect(await browser.checkScreen('sign-in')).toEqual([]);
    // Keyboard only: Tab reaches the email field (after the theme toggle), the next Tab the password, Enter submits.
    const focusedType = () =>
      page.evaluate(
        () => document.activeElement?.getAttribute('type') ?? document.activeElement?.tagName,
      );
    for (let i = 0; i < 3 && (await focusedType()) !== 'email'; i++)
      await page.keyboard.press('Tab');
    expect(await focusedType()).toBe('email');
    await page.keyboard.type(stack.admin.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('not the password at all');
    await page.keyboard.press('Enter');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Trace ID: [0-9a-f]{32}/);

    await page.getByRole('textbox', { name: 'Password' }).fill(stack.admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.getByTestId('signed-in-as').textContent()).toBe(stack.admin.email);
    // The access token lives in memory only.
    const stored = await page.evaluate(() =>
      JSON.stringify({ ...localStorage, ...sessionStorage }),
    );
    expect(stored).not.toMatch(/eyJ/);
  });

  test('a reload keeps the admin signed in through the refresh cookie', async () => {
    await page.reload();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.getByTestId('signed-in-as').textContent()).toBe(stack.admin.email);
  });

  test('projects: create, edit settings with a refused value shown on its field, OAuth secret write-only, API key shown once then revoked, signing key rotated and revoked', async () => {
    const token = await stack.adminToken();
    await page.getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await page.getByText('Console').first().waitFor();
    expect(await browser.checkScreen('projects')).toEqual([]);

    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Name').fill('Storefront');
    await dialog.getByLabel('Allowed origins').fill('https://shop.example.com');
    await dialog.getByLabel('Redirect URLs').fill('https://shop.example.com/callback');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Storefront' }).waitFor();
    const listed = await stack.adminApi<{
      projects: {
        id: string;
        name: string;
        allowed_origins: string[];
        settings: Record<string, unknown>;
      }[];
    }>(token, '/v1/admin/projects?q=Storefront');
    const project = listed.body.projects[0];
    expect(project).toMatchObject({
      name: 'Storefront',
      allowed_origins: ['https://shop.example.com'],
      settings: { default_redirect_url: 'https://shop.example.com/callback' },
    });
    expect(await browser.checkScreen('project-settings')).toEqual([]);

    await page.getByLabel('Allowed origins').fill('https://shop.example.com\nnot an origin');
    await page.getByLabel('Access token lifetime (seconds)').fill('1200');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const originsError = page.locator('[id$="-error"]').first();
    await originsError.waitFor();
    expect(await originsError.textContent()).toMatch(/origin/i);
    // Field errors are readable (contrast) in both themes too.
    expect(await browser.checkScreen('project-settings-error')).toEqual([]);
    expect(
      (
        await stack.adminApi<{ settings: { access_token_ttl_seconds: number } }>(
          token,
          `/v1/admin/projects/${project.id}`,
        )
      ).body.settings.access_token_ttl_seconds,
    ).toBe(900);
    await page.getByLabel('Allowed origins').fill('https://shop.example.com');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(
      (
        await stack.adminApi<{ settings: { access_token_ttl_seconds: number } }>(
          token,
          `/v1/admin/projects/${project.id}`,
        )
      ).body.settings.access_token_ttl_seconds,
    ).toBe(1200);

    await page.getByRole('tab', { name: 'Social sign-in' }).click();
    await page.getByLabel('Google client ID').fill('google-client-id');
    await page.getByLabel('Google client secret').fill('google-client-secret');
    await page.getByRole('button', { name: 'Save providers' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const google = (
      await stack.adminApi<{ settings: { oauth_providers: { google: Record<string, unknown> } } }>(
        token,
        `/v1/admin/projects/${project.id}`,
      )
    ).body.settings.oauth_providers.google;
    expect(google).toMatchObject({ client_id: 'google-client-id', client_secret_set: true });
    expect(JSON.stringify(google)).not.toContain('google-client-secret');
    expect(await page.getByLabel('Google client secret').inputValue()).toBe('');
    expect(await browser.checkScreen('project-providers')).toEqual([]);

    await page.getByRole('tab', { name: 'API keys' }).click();
    await page.getByTestId('empty-state').waitFor();
    await page.getByLabel('New API key name').fill('backend');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const secret = (await page.getByTestId('secret-once').textContent()) ?? '';
    expect(secret).toMatch(/^sk_/);
    expect(await browser.checkScreen('project-api-keys')).toEqual([]);
    const keys = await stack.adminApi<{ api_keys: { id: string; name: string }[] }>(
      token,
      `/v1/admin/projects/${project.id}/api-keys`,
    );
    expect(keys.body.api_keys.map((k) => k.name)).toEqual(['backend']);
    expect(JSON.stringify(keys.body)).not.toContain(secret);
    await page.getByRole('button', { name: 'Done' }).click();
    // The dialog leaves with a transition: the secret is gone once it has (not necessarily at the click).
    await page.getByTestId('secret-once').waitFor({ state: 'detached' });
    expect(await page.getByTestId('secret-once').count()).toBe(0);
    await page.getByRole('button', { name: 'Revoke API key backend' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByTestId('empty-state').waitFor();
    expect(
      (
        await stack.adminApi<{ api_keys: unknown[] }>(
          token,
          `/v1/admin/projects/${project.id}/api-keys`,
        )
      ).body.api_keys,
    ).toEqual([]);

    await page.getByRole('tab', { name: 'Signing keys' }).click();
    await page.getByTestId('signing-key-active').waitFor();
    await page.getByRole('button', { name: 'Rotate signing key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
    await page.getByTestId('signing-key-retiring').waitFor();
    expect(await browser.checkScreen('project-signing-keys')).toEqual([]);
    await page
      .getByTestId('signing-key-retiring')
      .getByRole('button', { name: /Revoke signing key/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByTestId('signing-key-revoked').waitFor();
    const signing = await stack.adminApi<{ signing_keys: { status: string }[] }>(
      token,
      `/v1/admin/projects/${project.id}/signing-keys`,
    );
    expect(signing.body.signing_keys.map((k) => k.status).sort()).toEqual(['active', 'revoked']);
  });

  test("projects: OpenID Connect turned on with the app's login page, a confidential client created (secret once, refused redirect URI on its field), edited, its secret rotated, deleted", async () => {
    const token = await stack.adminToken();
    const project = (
      await stack.adminApi<{ projects: { id: string }[] }>(token, '/v1/admin/projects?q=Storefront')
    ).body.projects[0];
    const issuer = `${stack.authUrl}/v1/projects/${project.id}`;
    const oidcOf = async () =>
      (
        await stack.adminApi<{ settings: { oidc: Record<string, unknown> } }>(
          token,
          `/v1/admin/projects/${project.id}`,
        )
      ).body.settings.oidc;
    const clientsOf = async () =>
      (
        await stack.adminApi<{ oauth_clients: Record<string, unknown>[] }>(
          token,
          `/v1/admin/projects/${project.id}/oauth-clients`,
        )
      ).body.oauth_clients;

    // The provider: off by default, the issuer shown and copied, then on with the app's own login page.
    await page.getByRole('tab', { name: 'OpenID Connect' }).click();
    await page.getByTestId('oidc-status').filter({ hasText: 'Provider off' }).waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('oidc');
    expect(await page.getByTestId('oidc-issuer').textContent()).toBe(issuer);
    await page.getByRole('region', { name: 'OAuth clients' }).getByTestId('empty-state').waitFor();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(stack.controlPlaneUrl).origin,
    });
    await page.getByRole('button', { name: 'Copy issuer URL' }).click();
    await page.getByRole('button', { name: 'Copied issuer URL' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(issuer);
    expect((await fetch(`${issuer}/.well-known/openid-configuration`)).status).toBe(404);
    await page.getByRole('switch', { name: 'OpenID Connect provider on' }).click();
    await page
      .getByRole('combobox', { name: 'Login page' })
      .selectOption('https://shop.example.com/callback');
    await page.getByRole('button', { name: 'Save OpenID Connect settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByTestId('oidc-status').filter({ hasText: 'Provider on' }).waitFor();
    expect(await oidcOf()).toEqual({
      enabled: true,
      login_url: 'https://shop.example.com/callback',
      dynamic_registration: false,
      require_pushed_authorization_requests: false,
      allow_sign_up: true,
    });
    const discovery = await fetch(`${issuer}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(((await discovery.json()) as { issuer: string }).issuer).toBe(issuer);

    // A confidential client: an http redirect URI off localhost is refused on its field, then created; the secret is shown once.
    await page.getByRole('button', { name: 'New client' }).click();
    const dialog = page.getByRole('dialog', { name: 'New OAuth client' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Storefront backend');
    await dialog
      .getByRole('textbox', { name: 'Redirect URIs', exact: true })
      .fill('http://shop.example.com/callback');
    await dialog
      .getByRole('textbox', { name: 'Post-logout redirect URIs', exact: true })
      .fill('https://shop.example.com/');
    await dialog.getByRole('checkbox', { name: /^First-party app/ }).click();
    await dialog
      .getByRole('combobox', { name: 'ID token signing algorithm' })
      .selectOption('ES256');
    await dialog.getByRole('checkbox', { name: /^Require pushed authorization requests/ }).click();
    await dialog.getByRole('button', { name: 'Create client' }).click();
    const redirectError = dialog.locator('[id$="-error"]').first();
    await redirectError.waitFor();
    expect(await redirectError.textContent()).toMatch(/^item 0 /);
    expect(
      await dialog
        .getByRole('textbox', { name: 'Redirect URIs', exact: true })
        .getAttribute('aria-invalid'),
    ).toBe('true');
    expect(await clientsOf()).toEqual([]);
    await dialog
      .getByRole('textbox', { name: 'Redirect URIs', exact: true })
      .fill('https://shop.example.com/callback');
    await dialog.getByRole('button', { name: 'Create client' }).click();
    const secret = (await dialog.getByTestId('secret-once').textContent()) ?? '';
    expect(secret).toMatch(/^ocs_/);
    const clientId = (await dialog.getByTestId('created-client-id').textContent()) ?? '';
    expect(clientId).toMatch(/^oc_/);
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await browser.checkScreen('project-oidc-client-created')).toEqual([]);
    const [stored] = await clientsOf();
    expect(stored).toMatchObject({
      client_id: clientId,
      name: 'Storefront backend',
      redirect_uris: ['https://shop.example.com/callback'],
      post_logout_redirect_uris: ['https://shop.example.com/'],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'client_secret_basic',
      scopes: ['openid', 'profile', 'email', 'offline_access'],
      first_party: true,
      id_token_signed_response_alg: 'ES256',
      require_pkce: true,
      require_pushed_authorization_requests: true,
      public: false,
    });
    expect(JSON.stringify(await clientsOf())).not.toContain(secret);
    expect((await oidcOf()).enabled).toBe(true);
    // The secret shown is the one the provider takes (introspection authenticates the client as the token endpoint does).
    const introspect = (s: string) =>
      fetch(`${issuer}/introspect`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(`${clientId}:${s}`).toString('base64')}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: 'token=not-a-token',
      });
    expect((await introspect(secret)).status).toBe(200);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByTestId('secret-once').count()).toBe(0);
    const row = page.locator(`tr[data-client-id="${clientId}"]`);
    await row.waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await browser.checkScreen('project-oidc')).toEqual([]);

    // Edit: the name and the grant types; public or confidential cannot change.
    await row.getByRole('button', { name: 'Edit Storefront backend' }).click();
    const edit = page.getByRole('dialog', { name: /^Edit/ });
    expect(await edit.getByRole('radio', { name: /^Public/ }).isDisabled()).toBe(true);
    await edit.getByRole('textbox', { name: 'Name', exact: true }).fill('Storefront web');
    await edit.getByRole('checkbox', { name: /^Refresh token/ }).click();
    await edit.getByRole('button', { name: 'Save client' }).click();
    await edit.waitFor({ state: 'hidden' });
    await row.getByText('Storefront web').waitFor();
    expect((await clientsOf())[0]).toMatchObject({
      client_id: clientId,
      name: 'Storefront web',
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'client_secret_basic',
    });

    // Rotate: asks first, shows the new secret once; the old one stops working.
    await row.getByRole('button', { name: 'Rotate secret of Storefront web' }).click();
    await page
      .getByRole('dialog', { name: "Rotate this client's secret?" })
      .getByRole('button', { name: 'Rotate secret' })
      .click();
    const rotated = (await page.getByTestId('secret-once').textContent()) ?? '';
    expect(rotated).toMatch(/^ocs_/);
    expect(rotated).not.toBe(secret);
    expect((await introspect(rotated)).status).toBe(200);
    expect((await introspect(secret)).status).toBe(401);
    await page.getByRole('button', { name: 'Done' }).click();
    // The dialog leaves with a transition: the secret is gone once it has (not necessarily at the click).
    await page.getByTestId('secret-once').waitFor({ state: 'detached' });
    expect(await page.getByTestId('secret-once').count()).toBe(0);

    // Delete: asks first; the list is empty again.
    await row.getByRole('button', { name: 'Delete Storefront web' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this client?' })
      .getByRole('button', { name: 'Delete client' })
      .click();
    await page.getByRole('region', { name: 'OAuth clients' }).getByTestId('empty-state').waitFor();
    expect(await clientsOf()).toEqual([]);
    expect((await introspect(rotated)).status).toBe(401);
  });

  test('at 390 px the navigation is a drawer behind a labelled button, and the theme toggle switches to dark', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1),
    ).toBe(true);
    expect(await browser.checkScreen('projects-mobile')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(
      await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme')),
    ).toBe('dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    // Back to following the system's theme, which the screen checks switch.
    await page.evaluate(() => localStorage.removeItem('mantine-color-scheme-value'));
    await page.reload();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
  });

  test('sign-out ends the session: the old access token is refused and a reload lands on the sign-in page', async () => {
    await page.goto(stack.consoleUrl);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const before = await stack.adminToken();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in$/);
    await page.reload();
    await page.waitForURL(/\/console\/sign-in$/);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    // The API token of another session still works: sign-out ended only the console's session.
    expect((await stack.adminApi(before, '/v1/admin/projects')).status).toBe(200);
  });

  test('an admin with TOTP signs in with a code computed by oathtool', async () => {
    const token = await stack.adminToken();
    const setup = await stack.authApi<{ secret: string }>(
      stack.admin.projectKey,
      '/v1/auth/mfa/totp/setup',
      { token, body: {} },
    );
    const now = Math.floor(Date.now() / 1000);
    const code = (offset: number) =>
      execFileSync('oathtool', ['--totp', '-b', setup.body.secret, '-N', `@${now + offset * 30}`])
        .toString()
        .trim();
    expect(
      (
        await stack.authApi(stack.admin.projectKey, '/v1/auth/mfa/totp/verify', {
          token,
          body: { code: code(0) },
        })
      ).status,
    ).toBe(200);

    await page.goto(`${stack.consoleUrl}/sign-in`);
    await page.getByLabel('Email').fill(stack.admin.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(stack.admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    expect(await browser.checkScreen('sign-in-mfa')).toEqual([]);
    await page.getByLabel('6-digit code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').waitFor();
    // The next step's code (accepted within ±1 step), not the one already used to turn TOTP on.
    await page.getByLabel('6-digit code').fill(code(1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
  });

  test('an admin signs in with a passkey from a virtual authenticator (and skips the TOTP step)', async () => {
    await browser.addAuthenticator();
    // Register a passkey for the signed-in admin from the console's origin, with @simplewebauthn/browser.
    await page.evaluate(
      readFileSync(
        join(
          __dirname,
          '../../../node_modules/@simplewebauthn/browser/dist/bundle/index.umd.min.js',
        ),
        'utf8',
      ),
    );
    const token = await page.evaluate(
      async ({ authUrl, key }) => {
        const res = await fetch(`${authUrl}/v1/auth/refresh`, {
          method: 'POST',
          credentials: 'include',
          headers: { 'X-Service-Project-Key': key },
        });
        return ((await res.json()) as { access_token: string }).access_token;
      },
      { authUrl: stack.authUrl, key: stack.admin.projectKey },
    );
    const begin = await stack.authApi(stack.admin.projectKey, '/v1/auth/passkey/register/begin', {
      token,
      body: {},
    });
    expect(begin.status).toBe(200);
    const attestation = await page.evaluate(
      (options) =>
        (
          globalThis as unknown as {
            SimpleWebAuthnBrowser: { startRegistration(o: object): Promise<object> };
          }
        ).SimpleWebAuthnBrowser.startRegistration({ optionsJSON: options }),
      begin.body,
    );
    const complete = await stack.authApi(
      stack.admin.projectKey,
      '/v1/auth/passkey/register/complete',
      { token, body: { credential: attestation, name: 'Virtual key' } },
    );
    expect(complete.status).toBe(201);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in$/);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.getByTestId('signed-in-as').textContent()).toBe(stack.admin.email);
  });

  test('a user who is not an administrator sees a clear "not an administrator" page', async () => {
    const signUp = await stack.authApi(stack.admin.projectKey, '/v1/auth/sign-up', {
      body: { email: 'member@example.com', password: 'a sturdy passphrase 42' },
    });
    expect(signUp.status).toBe(201);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in$/);
    await page.getByLabel('Email').fill('member@example.com');
    await page.getByRole('textbox', { name: 'Password' }).fill('a sturdy passphrase 42');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Not an administrator' }).waitFor();
    expect(await browser.checkScreen('not-admin')).toEqual([]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in$/);
  });
});
