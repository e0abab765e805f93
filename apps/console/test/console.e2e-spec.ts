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
    browser = await ConsoleBrowser.launch([new URL(stack.authUrl).host, new URL(stack.controlPlaneUrl).host]);
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
    expect(/'nonce-([^']+)'/.exec(again.headers.get('content-security-policy') ?? '')?.[1]).not.toBe(nonce);

    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const asset = await fetch(`${stack.controlPlaneUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);

    const missing = await fetch(`${stack.consoleUrl}/assets/..%2f..%2fpackage.json`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);

    const config = (await (await fetch(`${stack.consoleUrl}/config.json`)).json()) as Record<string, unknown>;
    expect(config).toEqual({ auth_url: stack.authUrl, project_key: stack.admin.projectKey, console_url: stack.consoleUrl });
  });

  test("the console's API types are generated from the documents both apps serve (npm run console:api --check)", () => {
    const root = join(__dirname, '..', '..', '..');
    const run = spawnSync(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, 'dist/tools/scripts/console-api.js'), '--check'], {
      cwd: root,
      // eslint-disable-next-line no-restricted-properties -- child processes inherit PATH
      env: { PATH: process.env.PATH ?? '', ...TEST_ENV },
      encoding: 'utf8',
    });
    expect(`${run.stdout}${run.stderr}`).toContain('console API types up to date');
    expect(run.status).toBe(0);
  });

  test("the control plane's CSRF rule still holds for cookie-authenticated calls: a foreign Origin is refused, the console's own is not", async () => {
    await stack.adminToken();
    expect(stack.apiSessionCookie).toMatch(/^service_session=ey/);
    const create = (origin: string) =>
      fetch(`${stack.controlPlaneUrl}/v1/admin/projects`, {
        method: 'POST',
        headers: { Cookie: stack.apiSessionCookie, Origin: origin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `From ${origin}` }),
      });
    const foreign = await create('https://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const own = await create(new URL(stack.consoleUrl).origin);
    expect(own.status).toBe(201);
    const token = await stack.adminToken();
    const names = (await stack.adminApi<{ projects: { name: string }[] }>(token, '/v1/admin/projects')).body.projects.map((p) => p.name);
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
    const focusedType = () => page.evaluate(() => document.activeElement?.getAttribute('type') ?? document.activeElement?.tagName);
    for (let i = 0; i < 3 && (await focusedType()) !== 'email'; i++) await page.keyboard.press('Tab');
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
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
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
    const listed = await stack.adminApi<{ projects: { id: string; name: string; allowed_origins: string[]; settings: Record<string, unknown> }[] }>(token, '/v1/admin/projects?q=Storefront');
    const project = listed.body.projects[0];
    expect(project).toMatchObject({ name: 'Storefront', allowed_origins: ['https://shop.example.com'], settings: { default_redirect_url: 'https://shop.example.com/callback' } });
    expect(await browser.checkScreen('project-settings')).toEqual([]);

    await page.getByLabel('Allowed origins').fill('https://shop.example.com\nnot an origin');
    await page.getByLabel('Access token lifetime (seconds)').fill('1200');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const originsError = page.locator('[id$="-error"]').first();
    await originsError.waitFor();
    expect(await originsError.textContent()).toMatch(/origin/i);
    // Field errors are readable (contrast) in both themes too.
    expect(await browser.checkScreen('project-settings-error')).toEqual([]);
    expect((await stack.adminApi<{ settings: { access_token_ttl_seconds: number } }>(token, `/v1/admin/projects/${project.id}`)).body.settings.access_token_ttl_seconds).toBe(900);
    await page.getByLabel('Allowed origins').fill('https://shop.example.com');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await stack.adminApi<{ settings: { access_token_ttl_seconds: number } }>(token, `/v1/admin/projects/${project.id}`)).body.settings.access_token_ttl_seconds).toBe(1200);

    await page.getByRole('tab', { name: 'Social sign-in' }).click();
    await page.getByLabel('Google client ID').fill('google-client-id');
    await page.getByLabel('Google client secret').fill('google-client-secret');
    await page.getByRole('button', { name: 'Save providers' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const google = (await stack.adminApi<{ settings: { oauth_providers: { google: Record<string, unknown> } } }>(token, `/v1/admin/projects/${project.id}`)).body.settings.oauth_providers.google;
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
    const keys = await stack.adminApi<{ api_keys: { id: string; name: string }[] }>(token, `/v1/admin/projects/${project.id}/api-keys`);
    expect(keys.body.api_keys.map((k) => k.name)).toEqual(['backend']);
    expect(JSON.stringify(keys.body)).not.toContain(secret);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByTestId('secret-once').count()).toBe(0);
    await page.getByRole('button', { name: 'Revoke API key backend' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByTestId('empty-state').waitFor();
    expect((await stack.adminApi<{ api_keys: unknown[] }>(token, `/v1/admin/projects/${project.id}/api-keys`)).body.api_keys).toEqual([]);

    await page.getByRole('tab', { name: 'Signing keys' }).click();
    await page.getByTestId('signing-key-active').waitFor();
    await page.getByRole('button', { name: 'Rotate signing key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
    await page.getByTestId('signing-key-retiring').waitFor();
    expect(await browser.checkScreen('project-signing-keys')).toEqual([]);
    await page.getByTestId('signing-key-retiring').getByRole('button', { name: /Revoke signing key/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByTestId('signing-key-revoked').waitFor();
    const signing = await stack.adminApi<{ signing_keys: { status: string }[] }>(token, `/v1/admin/projects/${project.id}/signing-keys`);
    expect(signing.body.signing_keys.map((k) => k.status).sort()).toEqual(['active', 'revoked']);
  });

  test('at 390 px the navigation is a drawer behind a labelled button, and the theme toggle switches to dark', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    expect(await browser.checkScreen('projects-mobile')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
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
    const setup = await stack.authApi<{ secret: string }>(stack.admin.projectKey, '/v1/auth/mfa/totp/setup', { token, body: {} });
    const now = Math.floor(Date.now() / 1000);
    const code = (offset: number) => execFileSync('oathtool', ['--totp', '-b', setup.body.secret, '-N', `@${now + offset * 30}`]).toString().trim();
    expect((await stack.authApi(stack.admin.projectKey, '/v1/auth/mfa/totp/verify', { token, body: { code: code(0) } })).status).toBe(200);

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
    await page.evaluate(readFileSync(join(__dirname, '../../../node_modules/@simplewebauthn/browser/dist/bundle/index.umd.min.js'), 'utf8'));
    const token = await page.evaluate(async ({ authUrl, key }) => {
      const res = await fetch(`${authUrl}/v1/auth/refresh`, { method: 'POST', credentials: 'include', headers: { 'X-Service-Project-Key': key } });
      return ((await res.json()) as { access_token: string }).access_token;
    }, { authUrl: stack.authUrl, key: stack.admin.projectKey });
    const begin = await stack.authApi(stack.admin.projectKey, '/v1/auth/passkey/register/begin', { token, body: {} });
    expect(begin.status).toBe(200);
    const attestation = await page.evaluate(
      (options) => (globalThis as unknown as { SimpleWebAuthnBrowser: { startRegistration(o: object): Promise<object> } }).SimpleWebAuthnBrowser.startRegistration({ optionsJSON: options }),
      begin.body,
    );
    const complete = await stack.authApi(stack.admin.projectKey, '/v1/auth/passkey/register/complete', { token, body: { credential: attestation, name: 'Virtual key' } });
    expect(complete.status).toBe(201);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in$/);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.getByTestId('signed-in-as').textContent()).toBe(stack.admin.email);
  });

  test('a user who is not an administrator sees a clear "not an administrator" page', async () => {
    const signUp = await stack.authApi(stack.admin.projectKey, '/v1/auth/sign-up', { body: { email: 'member@example.com', password: 'a sturdy passphrase 42' } });
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
