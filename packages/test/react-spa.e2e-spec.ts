import { generateSync } from 'otplib';
import type { Locator, Page } from 'playwright-core';
import { createGatehouse, GatehouseError } from '@gatehouse/js';
import { eventually } from '@gatehouse/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the stack of the OIDC journeys: the runtime as a real process on a known URL, the control plane in process
import { OidcStack } from '../../apps/auth-runtime/test/support/oidc-stack';
import { SpaBrowser, type AxeViolation } from './support/spa-browser';
import { buildSdk, SpaSite } from './support/spa-site';

const EMAIL = 'ada@example.com';
const PASSWORD = 'correct horse battery staple 42';

/** The TOTP code of `secret` at the real clock (the runtime is a real process), ± whole 30 s steps; each step is accepted once per user. */
const totp = (secret: string, offsetSteps = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });

/**
 * examples/react-spa, built by Vite against the built @gatehouse/react and @gatehouse/js, served
 * from its own origin (`http://localhost:<port>`, an allowed origin of the project, whose passkey
 * RP ID is `localhost`), in Debian's Chromium against the compiled auth runtime as a real process
 * (COOKIE_SECURE=false, plain http, as the README's local setup): sign-up, an authenticator app set
 * up with the secret the page shows, sign-out, sign-in with the password and a TOTP code, a passkey
 * registered with a virtual authenticator, sign-out, sign-in with the passkey, a second device (the
 * same SDK in Node, signed in with a backup code the page showed) listed and revoked,
 * organizations (one created from the page, made active from the keyboard; one the admin made, where
 * Ada is a member: "View invoices" shows only once the admin gives the member role invoices:read
 * and a new token carries it), the session restored from the refresh cookie after a reload (with
 * the active organization), and sign-out. The server's state is checked
 * along the way; the main screens are scanned with axe-core; the page loads nothing from another
 * host, stores no token, and throws no error.
 */
describe('examples/react-spa in Chromium against the real auth runtime', () => {
  const stack = new OidcStack();
  const site = new SpaSite();
  let browser: SpaBrowser;
  let page: Page;
  let projectKey: string;
  let projectId: string;

  beforeAll(async () => {
    const origin = await site.listen();
    // The SDK builds (tsup) while the stack starts.
    await Promise.all([stack.start({ COOKIE_SECURE: 'false' }, { host: 'localhost' }), buildSdk()]);
    const res = await stack.admin().post('/v1/admin/projects', {
      name: 'React example',
      allowed_origins: [origin],
      settings: { rp_id: 'localhost', rp_name: 'React example' },
    });
    expect(res.status).toBe(201);
    ({ id: projectId, publishable_key: projectKey } = res.body as {
      id: string;
      publishable_key: string;
    });
    // Signed-in users may create organizations (contract §14; off by default).
    const allowed = await stack.admin().patch(`/v1/admin/projects/${projectId}`, {
      settings: { organizations: { allow_user_create: true } },
    });
    expect(allowed.status).toBe(200);
    await site.build({
      VITE_GATEHOUSE_AUTH_URL: stack.authUrl,
      VITE_GATEHOUSE_PROJECT_KEY: projectKey,
    });
    browser = await SpaBrowser.launch([new URL(origin).host, new URL(stack.authUrl).host]);
    page = browser.page;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await site.stop();
    await stack.stop();
  });

  const db = <T>(sql: string, params: unknown[]) => stack.cp.dataSource.query<T[]>(sql, params);
  const liveSessions = (userId: string) =>
    db<{ id: string; auth_method: string }>(
      `SELECT id, auth_method FROM sessions WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at`,
      [userId],
    );
  const region = (name: string): Locator => page.getByRole('region', { name, exact: true });
  const signedInAs = async () => {
    await page.getByText('Signed in as').waitFor();
    return page.locator('#account-title ~ p strong').textContent();
  };
  const signOut = async () => {
    await region('Your account').getByRole('button', { name: 'Sign out', exact: true }).click();
    await region('Sign in').waitFor();
  };

  it('sign-up → TOTP set up → sign-out → password + TOTP → passkey added → sign-out → passkey sign-in → sessions (another device revoked) → organizations (create, switch, a permission-gated action) → reload keeps the session and its organization → sign-out', async () => {
    const started = Date.now();
    const violations: AxeViolation[] = [];

    // Signed out: the two forms (after the restore on load found no refresh cookie).
    await page.goto(site.origin);
    await region('Create an account').waitFor();
    violations.push(...(await browser.checkScreen('signed-out')));

    // Sign-up signs the new account in.
    const signUp = region('Create an account');
    await signUp.getByLabel('Email').fill(EMAIL);
    await signUp.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await signUp.getByRole('button', { name: 'Create account' }).click();
    expect(await signedInAs()).toBe(EMAIL);
    const [{ id: userId }] = await db<{ id: string }>(
      `SELECT id FROM users WHERE project_id = $1 AND email = $2`,
      [projectId, EMAIL],
    );
    expect(await liveSessions(userId)).toHaveLength(1);

    // An authenticator app: the secret and the backup codes as the page shows them; the first code turns it on.
    const app = region('Authenticator app');
    await app.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = (await page.locator('#totp-secret').textContent())!;
    const backupCodes = await page.locator('#backup-codes code').allTextContents();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(backupCodes).toHaveLength(10);
    violations.push(...(await browser.checkScreen('totp-setup')));
    await app.getByLabel('Code from the app').fill(totp(secret, -1));
    await app.getByRole('button', { name: 'Turn on' }).click();
    await app.getByText('The authenticator app is on').waitFor();
    expect(await db(`SELECT 1 FROM mfa_factors WHERE user_id = $1`, [userId])).toHaveLength(1);

    // Sign-out ends the session at Gatehouse.
    await signOut();
    expect(await liveSessions(userId)).toHaveLength(0);

    // Password, then the second step: a wrong code is refused and the challenge stays; the right one signs in.
    const signIn = region('Sign in');
    await signIn.getByLabel('Email').fill(EMAIL);
    await signIn.getByLabel('Password').fill(PASSWORD);
    await signIn.getByRole('button', { name: 'Sign in', exact: true }).click();
    const mfa = region('Two-step verification');
    await mfa.waitFor();
    violations.push(...(await browser.checkScreen('mfa')));
    const code = totp(secret);
    await mfa.getByLabel('Authentication code').fill(code === '000000' ? '111111' : '000000');
    await mfa.getByRole('button', { name: 'Verify' }).click();
    await mfa.getByRole('alert').waitFor();
    await mfa.getByLabel('Authentication code').fill(code);
    await mfa.getByRole('button', { name: 'Verify' }).click();
    expect(await signedInAs()).toBe(EMAIL);

    // A passkey from the browser's (virtual) authenticator.
    const passkeys = region('Passkeys');
    await passkeys.getByText('No passkey yet.').waitFor();
    await passkeys.getByLabel('Name (optional)').fill('This laptop');
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
    await passkeys.getByText('Passkey added.').waitFor();
    await passkeys
      .getByRole('list', { name: 'Your passkeys' })
      .getByRole('button', { name: 'Delete This laptop' })
      .waitFor();
    expect(
      await db<{ name: string }>(`SELECT name FROM passkeys WHERE user_id = $1`, [userId]),
    ).toEqual([{ name: 'This laptop' }]);

    // Sign-out, then the passkey alone signs in (discoverable credential, no email typed; it satisfies MFA).
    await signOut();
    await region('Sign in').getByRole('button', { name: 'Sign in with a passkey' }).click();
    expect(await signedInAs()).toBe(EMAIL);
    const [browserSession] = await liveSessions(userId);
    expect(browserSession.auth_method).toBe('passkey');
    // The page does not know the factor is on (Gatehouse lists no factors to users): a set-up refused as `conflict` says so.
    await region('Authenticator app')
      .getByRole('button', { name: 'Set up an authenticator app' })
      .click();
    await region('Authenticator app').getByText('The authenticator app is on').waitFor();

    // Another device: the same SDK in Node (its refresh cookie kept in memory), signed in with a backup code the page showed.
    const other = createGatehouse({ authUrl: stack.authUrl, projectKey });
    const challenge = await other.signIn({ identifier: EMAIL, password: PASSWORD });
    expect(challenge).toMatchObject({
      status: 'mfa-required',
      factors: expect.arrayContaining(['totp', 'backup_code']),
    });
    if (challenge.status !== 'mfa-required') throw new Error('expected the MFA challenge');
    await other.verifyMfa({
      mfaToken: challenge.mfaToken,
      factor: 'backup_code',
      code: backupCodes[0],
    });
    expect(other.getState().status).toBe('signed-in');
    const otherSessionId = other.getState().sessionId!;

    // The sessions list shows both; revoking the other device ends its session (its refresh is refused).
    const sessions = region('Sessions');
    await sessions.getByRole('button', { name: 'Refresh the list' }).click();
    const items = sessions.getByRole('list', { name: 'Your sessions' }).getByRole('listitem');
    await eventually(async () => (await items.count()) === 2);
    expect(await items.filter({ hasText: 'This device' }).count()).toBe(1);
    violations.push(...(await browser.checkScreen('account')));
    await items
      .filter({ hasNotText: 'This device' })
      .getByRole('button', { name: /^Revoke/ })
      .click();
    await eventually(async () => (await items.count()) === 1);
    expect((await liveSessions(userId)).map((s) => s.id)).toEqual([browserSession.id]);
    expect(
      (
        await db<{ id: string }>(
          `SELECT id FROM sessions WHERE id = $1 AND revoked_at IS NOT NULL`,
          [otherSessionId],
        )
      ).length,
    ).toBe(1);
    const refused = await other.listSessions().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GatehouseError);
    expect(refused).toMatchObject({ status: 401 });
    expect(other.getState().status).toBe('signed-out');
    other.dispose();

    // Organizations: Ada creates one (she is its admin) and makes it active from the keyboard.
    const orgs = region('Organizations');
    const invoices = region('Invoices');
    const switcher = orgs.getByLabel('Active organization');
    const viewInvoices = invoices.getByRole('button', { name: 'View invoices' });
    const activeOrganization = async () =>
      (
        await db<{ active_organization_id: string | null }>(
          `SELECT active_organization_id FROM sessions WHERE id = $1`,
          [browserSession.id],
        )
      )[0].active_organization_id;
    await orgs.getByText('You belong to no organization yet.').waitFor();
    await invoices.getByText('Invoices belong to an organization: choose one above.').waitFor();
    await orgs.getByLabel('New organization name').fill('Acme');
    await orgs.getByRole('button', { name: 'Create organization' }).click();
    await orgs.getByText('Acme created: you are its admin.').waitFor();
    expect(await switcher.locator('option').allTextContents()).toEqual([
      'Personal account',
      'Acme',
    ]);
    const [{ id: acmeId }] = await db<{ id: string }>(
      `SELECT id FROM organizations WHERE project_id = $1 AND name = 'Acme'`,
      [projectId],
    );
    await switcher.focus();
    await page.keyboard.press('ArrowDown');
    // The project has no invoices:read yet, so even its admin's role does not grant it.
    await invoices.getByText(/Your role in Acme \(admin\) does not grant invoices:read/).waitFor();
    expect(await switcher.inputValue()).toBe(acmeId);
    expect(await activeOrganization()).toBe(acmeId);
    expect(await viewInvoices.count()).toBe(0);

    // An organization the project's admin made, with Ada as a plain member: listed after a reload of the list.
    const globex = await stack.admin().post('/v1/admin/organizations', {
      project_id: projectId,
      name: 'Globex',
    });
    expect(globex.status).toBe(201);
    const globexId = (globex.body as { id: string }).id;
    const joined = await stack
      .admin()
      .post(`/v1/admin/organizations/${globexId}/members`, { user_id: userId, role: 'member' });
    expect(joined.status).toBe(201);
    await orgs.getByRole('button', { name: 'Reload organizations' }).click();
    await switcher.locator('option', { hasText: 'Globex' }).waitFor({ state: 'attached' });
    await switcher.selectOption({ label: 'Globex' });
    await invoices
      .getByText(/Your role in Globex \(member\) does not grant invoices:read/)
      .waitFor();
    expect(await activeOrganization()).toBe(globexId);
    expect(await viewInvoices.count()).toBe(0);

    // The admin creates invoices:read and gives it to the member role; the next token (a switch) carries it.
    const permission = await stack
      .admin()
      .post(`/v1/admin/projects/${projectId}/permissions`, { key: 'invoices:read' });
    expect(permission.status).toBe(201);
    const granted = await stack
      .admin()
      .patch(`/v1/admin/projects/${projectId}/roles/member`, { permissions: ['invoices:read'] });
    expect(granted.status).toBe(200);
    // The token held still says what it said (at most its lifetime): no button until a new token.
    expect(await viewInvoices.count()).toBe(0);
    await switcher.selectOption({ label: 'Personal account' });
    await invoices.getByText('Invoices belong to an organization: choose one above.').waitFor();
    expect(await activeOrganization()).toBeNull();
    await switcher.selectOption({ label: 'Globex' });
    await viewInvoices.click();
    await invoices.getByText('Globex has no invoices yet.').waitFor();
    violations.push(...(await browser.checkScreen('organizations')));

    // A reload restores the session from the HttpOnly refresh cookie (the active organization with it:
    // the session keeps it across refreshes); no token is stored by the page.
    await page.reload();
    expect(await signedInAs()).toBe(EMAIL);
    await viewInvoices.waitFor();
    expect(await switcher.inputValue()).toBe(globexId);
    expect(
      await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie]),
    ).toEqual([0, 0, '']);

    // Sign-out: the signed-out screen, the session revoked, and a reload stays signed out (the cookie is gone).
    await signOut();
    expect(await liveSessions(userId)).toHaveLength(0);
    await page.reload();
    await region('Create an account').waitFor();
    expect(await page.getByText('Signed in as').count()).toBe(0);

    expect(violations).toEqual([]);
    expect(browser.problems).toEqual([]);
    expect(browser.foreignRequests).toEqual([]);
    process.stdout.write(`react-spa journey: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }, 120_000);
});
