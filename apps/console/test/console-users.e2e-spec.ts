import { execFileSync } from 'node:child_process';
import type { Locator, Page, Route } from 'playwright-core';
import { linkIn } from '@gatehouse/testing';
import { ConsoleBrowser, signInThroughPage } from './support/console-browser';
import { ConsoleStack } from './support/console-stack';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const PASSWORD = 'a long and private passphrase 9';

/**
 * The first support ticket, solved in the console (issue 36 §2, Users): a new admin creates a user
 * with an invitation, the user accepts it from the mail, the admin reads the user's Activity (sign-ins,
 * a failure with its reason, IP and device), removes their authenticator app (the stale proof is
 * asked for in place, then the removal is repeated), resets MFA, unlocks them while locked, signs
 * in as them in a new tab, and finds every step in the Activity tab. One stack, one long journey,
 * every screen scanned with axe-core in both themes (screenshots docs/console/user-*.png).
 */
describe('admin console: support operations on a user (Chromium, real stack)', () => {
  const stack = new ConsoleStack();
  let browser: ConsoleBrowser;
  let page: Page;
  let token = '';
  let projectKey = '';
  let projectId = '';
  let appUrl = '';

  const dialog = (name?: string) =>
    name ? page.getByRole('dialog', { name }) : page.getByRole('dialog');
  const textOf = async (locator: Locator) =>
    ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
  const until = async (check: () => Promise<boolean>, what: string) => {
    for (let i = 0; i < 100; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  /** A sign-in as a browser of `userAgent` would make it. */
  const signIn = async (identifier: string, password: string, userAgent: string) => {
    const res = await fetch(`${stack.authUrl}/v1/auth/sign-in`, {
      method: 'POST',
      headers: {
        'X-Service-Project-Key': projectKey,
        'Content-Type': 'application/json',
        'User-Agent': userAgent,
      },
      body: JSON.stringify({ identifier, password }),
    });
    return {
      status: res.status,
      body: (await res.json()) as { session?: { access_token: string } },
    };
  };
  const enrolTotp = async (accessToken: string) => {
    const setup = await stack.authApi<{ secret: string }>(projectKey, '/v1/auth/mfa/totp/setup', {
      token: accessToken,
      body: {},
    });
    expect(setup.status).toBe(200);
    const code = execFileSync('oathtool', ['--totp', '-b', setup.body.secret]).toString().trim();
    expect(
      (
        await stack.authApi(projectKey, '/v1/auth/mfa/totp/verify', {
          token: accessToken,
          body: { code },
        })
      ).status,
    ).toBe(200);
  };
  const factorsOf = async (id: string) =>
    (
      await stack.adminApi<{ factors: { type: string }[] }>(token, `/v1/admin/users/${id}/factors`)
    ).body.factors
      .map((f) => f.type)
      .sort();
  /** Holds the answers of matching requests until `release` (to see what a screen shows while it loads). */
  const hold = async (pattern: RegExp) => {
    const held: Route[] = [];
    let holding = true;
    const handler = (route: Route) => (holding ? void held.push(route) : route.continue());
    await page.route(pattern, handler);
    return {
      waitHeld: () => until(async () => held.length > 0, `a request matching ${pattern}`),
      release: async () => {
        holding = false;
        for (const r of held.splice(0)) await r.continue();
        await page.unroute(pattern, handler);
      },
    };
  };

  beforeAll(async () => {
    stack.receiver.respond = (req) =>
      req.path.startsWith('/app')
        ? {
            status: 200,
            body: '<!doctype html><title>Support app</title><h1>Support app</h1>',
            headers: { 'Content-Type': 'text/html' },
          }
        : { status: 200, body: '{}' };
    await stack.start();
    appUrl = `${stack.receiver.url}/app`;
    browser = await ConsoleBrowser.launch([
      new URL(stack.authUrl).host,
      new URL(stack.controlPlaneUrl).host,
      new URL(stack.receiver.url).host,
    ]);
    page = browser.page;
    page.setDefaultTimeout(15_000);
    token = await stack.adminToken();
    const project = await stack.adminApi<{ id: string; publishable_key: string }>(
      token,
      '/v1/admin/projects',
      {
        method: 'POST',
        body: {
          name: 'Support app',
          redirect_urls: [
            appUrl,
            `${stack.receiver.url}/reset`,
            `${stack.receiver.url}/app/billing`,
          ],
          settings: {
            default_redirect_url: `${stack.receiver.url}/reset`,
            password_reset_url: `${stack.receiver.url}/reset`,
          },
        },
      },
    );
    expect(project.status).toBe(201);
    projectKey = project.body.publishable_key;
    projectId = project.body.id;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack.stop();
  });

  afterEach(() => {
    // No screen may break the page's CSP, throw, or fetch anything from the network.
    expect(browser.problems).toEqual([]);
    expect(browser.foreignRequests).toEqual([]);
  });

  test('create with an invitation, accept it, Activity, remove a factor with a stale proof, reset MFA, unlock, sign in as the user, every step in Activity', async () => {
    await signInThroughPage(page, stack.consoleUrl, stack.admin.email, stack.admin.password);
    const signedInAt = Date.now();
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Users' })
      .click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();

    // --- Create user: the server's field error lands on its field; then an invitation.
    await page.getByRole('button', { name: 'Create user' }).click();
    const create = dialog('Create user');
    await create.getByRole('combobox', { name: 'Project' }).click();
    await page.getByRole('option', { name: 'Support app' }).click();
    await create.getByRole('textbox', { name: 'Email' }).fill('dana@support.test');
    await create.getByRole('textbox', { name: /^Username/ }).fill('dana');
    await create.getByRole('radio', { name: 'Set a password now' }).check();
    await create.locator('input[type="password"]').fill('password');
    await create.getByRole('button', { name: 'Create user' }).click();
    // The message the API gives (nothing was created by that refusal).
    const refused = await stack.adminApi<{ errors: Record<string, string[]> }>(
      token,
      '/v1/admin/users',
      {
        method: 'POST',
        body: { project_id: projectId, email: 'dana@support.test', password: 'password' },
      },
    );
    expect(refused.status).toBe(400);
    // On the password field itself, not above the form.
    await create
      .locator('.mantine-PasswordInput-root')
      .getByText(refused.body.errors.password[0])
      .waitFor();
    expect(await browser.checkScreen('user-create')).toEqual([]);
    await create.getByRole('radio', { name: /Send an invitation mail/ }).check();
    await create.getByRole('button', { name: 'Create and send invitation' }).click();
    await page.getByRole('heading', { name: 'dana@support.test', level: 1 }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: 'Invitation sent to dana@support.test.' })
      .waitFor();
    const userId = new URL(page.url()).pathname.split('/').pop()!;
    expect(
      (
        await stack.adminApi<{ email_verified: boolean; username: string }>(
          token,
          `/v1/admin/users/${userId}`,
        )
      ).body,
    ).toMatchObject({ username: 'dana', email_verified: false });

    // --- The invitation mail links to the project's set-password page; the user chooses a password there.
    const mail = await stack.smtp.waitFor('dana@support.test', 15_000, /Set your/);
    expect(mail.subject).toBe('Set your Support app password');
    const link = linkIn(mail);
    expect(`${link.origin}${link.pathname}`).toBe(`${stack.receiver.url}/reset`);
    expect(
      (
        await stack.authApi(projectKey, '/v1/auth/password/reset', {
          body: { token: link.searchParams.get('token'), password: PASSWORD },
        })
      ).status,
    ).toBe(200);
    expect((await signIn('dana@support.test', 'not the password', FIREFOX)).status).toBe(401);
    const dana = await signIn('dana@support.test', PASSWORD, IPHONE);
    expect(dana.status).toBe(200);
    await enrolTotp(dana.body.session!.access_token);

    // --- The mailed link proved the address; the admin can take that back and mark it again; send a reset.
    await page.reload();
    const profile = page.getByRole('region', { name: 'Profile' });
    await profile.getByRole('button', { name: 'Mark email not verified' }).click();
    await page.getByRole('status').filter({ hasText: 'marked not verified' }).waitFor();
    expect(
      (await stack.adminApi<{ email_verified: boolean }>(token, `/v1/admin/users/${userId}`)).body
        .email_verified,
    ).toBe(false);
    await profile.getByRole('button', { name: 'Mark email verified' }).click();
    await page.getByRole('status').filter({ hasText: 'marked verified' }).waitFor();
    await profile.getByRole('button', { name: 'Mark email not verified' }).waitFor();
    expect(
      (await stack.adminApi<{ email_verified: boolean }>(token, `/v1/admin/users/${userId}`)).body
        .email_verified,
    ).toBe(true);
    await profile.getByRole('button', { name: 'Send password reset' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'A password reset mail is on its way' })
      .waitFor();
    expect((await stack.smtp.waitFor('dana@support.test', 15_000, /Reset your/)).subject).toBe(
      'Reset your Support app password',
    );

    // The factors in the words every screen uses.
    const factors = page.getByRole('table', { name: 'Second factors and passkeys' });
    await factors.locator('tr[data-factor-type="totp"]').waitFor();
    expect(await textOf(factors)).toContain('Authenticator app');
    expect(await textOf(factors)).toContain('Backup codes');
    expect(await textOf(profile)).toContain('Authenticator app');
    expect(await page.getByRole('button', { name: 'Unlock', exact: true }).count()).toBe(0);
    expect(await browser.checkScreen('user-overview')).toEqual([]);

    // --- Activity: a skeleton while it loads, then the sign-ins, the failure with its reason, IP and device.
    const loading = await hold(/\/v1\/admin\/audit\?/);
    await page.getByRole('tab', { name: 'Activity' }).click();
    await loading.waitHeld();
    await page.getByTestId('list-skeleton').waitFor();
    await loading.release();
    const activity = page.getByRole('table', { name: 'Activity' });
    await activity.locator('tr[data-action="session.created"]').first().waitFor();
    expect(page.url()).toContain('tab=activity');
    const failed = activity.locator('tr[data-action="user.sign_in_failed"]');
    expect(await textOf(failed)).toContain('wrong password or unknown account');
    expect(await textOf(failed)).toContain('Firefox 133 on Windows 10');
    const signedIn = activity.locator('tr[data-action="session.created"]');
    expect(await textOf(signedIn)).toContain('Safari 17 on iOS 17.1 (phone)');
    expect(await textOf(signedIn)).toContain('with password');
    expect(await textOf(signedIn)).toMatch(/127\.0\.0\.1|::1/);
    const created = activity.locator('tr[data-action="user.created"]');
    expect(await textOf(created)).toContain('invitation mailed');
    expect(await textOf(created)).toContain(stack.admin.email);
    expect(await textOf(activity.locator('tr[data-action="user.updated"]').first())).toContain(
      'email verified: false → true',
    );
    expect(await textOf(activity.locator('tr[data-action="user.updated"]').nth(1))).toContain(
      'email verified: true → false',
    );
    // Newest first.
    const actions = await activity
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')));
    expect(actions.indexOf('user.password_reset_sent')).toBeLessThan(
      actions.indexOf('user.created'),
    );

    // --- Remove the authenticator app with a stale proof: "Confirm it's you" in place, then the removal is repeated.
    const consoleUser = await stack.adminApi<{ users: { project_id: string }[] }>(
      token,
      `/v1/admin/users?q=${encodeURIComponent(stack.admin.email)}`,
    );
    const consoleProject = consoleUser.body.users[0].project_id;
    expect(
      (
        await stack.adminApi(token, `/v1/admin/projects/${consoleProject}`, {
          method: 'PATCH',
          body: { settings: { reauthentication_max_age_seconds: 30 } },
        })
      ).status,
    ).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, signedInAt + 31_000 - Date.now())));
    await page.getByRole('tab', { name: 'Overview' }).click();
    await factors.getByRole('button', { name: 'Remove Authenticator app' }).click();
    await dialog('Remove authenticator app?')
      .getByRole('button', { name: 'Remove', exact: true })
      .click();
    const prove = dialog('Confirm it’s you');
    await prove.waitFor();
    expect(await textOf(prove)).toContain('Removing a second factor');
    expect(await factorsOf(userId)).toEqual(['backup_codes', 'totp']);
    expect(await browser.checkScreen('user-reauthenticate')).toEqual([]);
    await prove.locator('input[type="password"]').fill(stack.admin.password);
    await prove.getByRole('button', { name: 'Confirm' }).click();
    await factors.waitFor({ state: 'detached' });
    await page
      .getByRole('region', { name: 'Second factors and passkeys' })
      .getByText('No second factor or passkey')
      .waitFor();
    expect(await factorsOf(userId)).toEqual([]);
    // Back to the default age, so the next steps need no proof of their own.
    expect(
      (
        await stack.adminApi(token, `/v1/admin/projects/${consoleProject}`, {
          method: 'PATCH',
          body: { settings: { reauthentication_max_age_seconds: null } },
        })
      ).status,
    ).toBe(200);

    // --- Reset MFA: every factor at once.
    await enrolTotp(dana.body.session!.access_token);
    await page.reload();
    await factors.locator('tr[data-factor-type="totp"]').waitFor();
    await page.getByRole('button', { name: 'Reset MFA' }).click();
    await dialog('Reset every second factor?').getByRole('button', { name: 'Reset MFA' }).click();
    await page
      .getByRole('region', { name: 'Second factors and passkeys' })
      .getByText('No second factor or passkey')
      .waitFor();
    expect(await factorsOf(userId)).toEqual([]);

    // --- Locked by five wrong passwords (by username): Unlock shows, and clears it.
    for (let i = 0; i < 5; i++)
      expect((await signIn('dana', 'wrong password', FIREFOX)).status).toBe(401);
    expect((await signIn('dana', PASSWORD, FIREFOX)).status).toBe(429);
    await page.reload();
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'The lockout is cleared' }).waitFor();
    await until(
      async () => (await page.getByRole('button', { name: 'Unlock', exact: true }).count()) === 0,
      'Unlock to go',
    );
    expect(
      (await stack.adminApi<{ locked_until: string | null }>(token, `/v1/admin/users/${userId}`))
        .body.locked_until,
    ).toBeNull();
    // The lost phone's session ends too.
    await page.getByRole('button', { name: 'Revoke all sessions' }).click();
    await dialog('Revoke every session?').getByRole('button', { name: 'Revoke all' }).click();
    await page
      .getByRole('region', { name: 'Active sessions' })
      .getByText('No active session.')
      .waitFor();

    // --- Sign in as the user: a reason, a redirect URL from the project's list, the link opens in a new tab.
    await page.getByRole('button', { name: 'Sign in as user' }).click();
    const signInAs = dialog('Sign in as dana@support.test');
    await signInAs.getByRole('button', { name: 'Create sign-in link' }).waitFor();
    await signInAs
      .getByRole('textbox', { name: /^Reason/ })
      .fill('Ticket #4411: invoices are missing');
    await signInAs.getByRole('combobox', { name: 'Open at' }).click();
    expect(await page.getByRole('option').allTextContents()).toEqual([
      `Project default (${stack.receiver.url}/reset)`,
      appUrl,
      `${stack.receiver.url}/app/billing`,
    ]);
    await page.getByRole('option', { name: appUrl, exact: true }).click();
    await signInAs.getByRole('button', { name: 'Create sign-in link' }).click();
    const open = signInAs.getByRole('link', { name: 'Open as dana@support.test in a new tab' });
    await open.waitFor();
    expect(await textOf(signInAs)).toMatch(/The link works once, for \d+ more seconds/);
    expect(await browser.checkScreen('user-sign-in-as')).toEqual([]);
    const [tab] = await Promise.all([browser.context.waitForEvent('page'), open.click()]);
    await tab.waitForURL((u) => `${u.origin}${u.pathname}` === appUrl);
    await tab.getByRole('heading', { name: 'Support app' }).waitFor();
    // The tab's browser now holds the user's session, marked with the admin as impersonator.
    const me = await browser.context.request.get(`${stack.authUrl}/v1/auth/me`, {
      headers: { 'X-Service-Project-Key': projectKey },
    });
    expect(me.status()).toBe(200);
    const body = (await me.json()) as { user: { email: string }; impersonator: { email: string } };
    expect(body.user.email).toBe('dana@support.test');
    expect(body.impersonator.email).toBe(stack.admin.email);
    await tab.close();
    await signInAs.getByRole('button', { name: 'Done' }).click();
    await signInAs.waitFor({ state: 'detached' });
    await page.getByRole('table', { name: 'Active sessions' }).getByText('by an admin').waitFor();

    // --- Every step in the Activity tab.
    await page.getByRole('tab', { name: 'Activity' }).click();
    await activity.locator('tr[data-action="user.impersonated"]').waitFor();
    expect(await textOf(activity.locator('tr[data-action="user.impersonated"]'))).toContain(
      'Reason: Ticket #4411: invoices are missing',
    );
    expect(await textOf(activity.locator('tr[data-action="session.created"]').first())).toContain(
      'as the user, by an admin',
    );
    expect(await textOf(activity.locator('tr[data-action="user.mfa_reset"]'))).toContain(
      'Authenticator app',
    );
    expect(await textOf(activity.locator('tr[data-action="mfa.disabled"]').last())).toContain(
      'Authenticator app',
    );
    const lock = activity.locator('tr[data-action="user.locked"]');
    expect(await textOf(lock)).toContain('Password sign-in locked until');
    expect(
      await activity.locator('tr[data-action="user.sign_in_failed"]').count(),
    ).toBeGreaterThanOrEqual(5);
    const steps = await activity
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')));
    // Newest first: the impersonation, then the lock, then the reset.
    expect(steps.indexOf('user.impersonated')).toBeLessThan(steps.indexOf('user.locked'));
    expect(steps.indexOf('user.locked')).toBeLessThan(steps.indexOf('user.mfa_reset'));
    // Paged: 20 a page, the oldest (the creation) on page 2.
    const total = (
      await stack.adminApi<{ pagination: { total: number } }>(
        token,
        `/v1/admin/audit?user_id=${userId}`,
      )
    ).body.pagination.total;
    expect(total).toBeGreaterThan(20);
    expect(total).toBeLessThanOrEqual(40);
    expect(steps).toHaveLength(20);
    await page.getByRole('button', { name: 'Page 2' }).click();
    await until(async () => page.url().includes('page=2'), 'page 2 in the URL');
    await activity.locator('tr[data-action="user.created"]').waitFor();
    await page.getByRole('button', { name: 'Page 1' }).click();
    await activity.locator('tr[data-action="user.impersonated"]').waitFor();
    expect(await browser.checkScreen('user-activity')).toEqual([]);

    // On a phone the tables scroll inside their frames; nothing sticks out of the page.
    expect(await browser.overflowOnPhone()).toEqual([]);
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByRole('region', { name: 'Profile' }).waitFor();
    expect(await browser.overflowOnPhone()).toEqual([]);
  }, 300_000);
});
