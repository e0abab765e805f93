import type { Page } from 'playwright-core';
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
    await page.getByLabel('Email').fill(stack.admin.email);
    await page.getByRole('textbox', { name: 'Password' }).fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
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
});
