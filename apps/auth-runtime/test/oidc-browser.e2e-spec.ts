import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { linkIn, SmtpSink, spawnApp, type AppProcess } from '@gatehouse/testing';
import { buildAuthPages } from './support/auth-pages-build';
import { LocalProviders } from './support/oauth/test-providers';
import {
  OidcStack,
  PASSWORD,
  RP_REDIRECT,
  type CreatedClient,
  type OidcProject,
} from './support/oidc-stack';
import { PagesBrowser, type AxeViolation } from './support/pages-browser';
import { RelyingPartySpa, type RelyingPartyResult } from './support/relying-party-spa';

const RP_ORIGIN = new URL(RP_REDIRECT).origin;
const EMAIL = 'grace@example.com';

/** A TOTP code computed by oathtool (RFC 6238), independently of our code, at the real clock (the runtime is a real process) ± whole steps. */
function totp(secret: string, offsetSteps = 0): string {
  const seconds = Math.floor(Date.now() / 1000) + offsetSteps * 30;
  return execFileSync('oathtool', ['--totp', '-b', secret, '-N', `@${seconds}`])
    .toString()
    .trim();
}

function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/**
 * The hosted pages in a real browser (docs/oidc.md, "Hosted pages"): a single-page relying party
 * built on oidc-client-ts (a public client, code + PKCE) on its own origin sends Debian's Chromium
 * to the provider, which sends it to Gatehouse's hosted sign-in page; the person signs in there
 * (password and TOTP, then a passkey from a virtual authenticator, then a fresh sign-in with the
 * password), consents for a third-party application (Deny, then Allow); another person signs in
 * with GitHub (a local fake), a third with a magic link opened in a new tab; each time the relying party receives an ID token for the user. Every hosted screen is scanned with axe-core in both themes;
 * no CSP violation, no page error and no request to another host is allowed. The auth runtime is
 * the compiled app as a real process (OidcStack), on `localhost` so that passkeys have an RP ID.
 */
describe('OIDC hosted pages in Chromium with an oidc-client-ts relying party', () => {
  const stack = new OidcStack();
  const rp = new RelyingPartySpa(RP_ORIGIN, RP_REDIRECT);
  const providers = new LocalProviders();
  const smtp = new SmtpSink();
  let worker: AppProcess;
  let browser: PagesBrowser;
  let page: Page;
  let op: OidcProject;
  let notes: CreatedClient;
  let printer: CreatedClient;
  let userId: string;
  let totpSecret: string;
  let backupCodes: string[];

  const api = async (path: string, init: { token?: string; body?: unknown } = {}) => {
    const res = await fetch(`${stack.authUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-project-key': op.projectKey,
        'x-forwarded-for': `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      body: JSON.stringify(init.body ?? {}),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };

  beforeAll(async () => {
    buildAuthPages();
    // The runtime answers as http://localhost:<port> (passkeys need a domain for their RP ID, not an
    // IP address); the relying party stays on 127.0.0.1, another site.
    await stack.start({}, { host: 'localhost' });
    op = await stack.oidcProject();
    // GitHub sign-in against a local GitHub (test-providers), for a person who has no account yet.
    await providers.start();
    providers.githubAccount = {
      id: 4242,
      login: 'octo',
      emails: [{ email: 'octo@example.com', primary: true, verified: true }],
    };
    const github = {
      enabled: true,
      client_id: providers.github.clientId,
      client_secret: providers.github.clientSecret,
      authorization_url: `${providers.url}/github/login/oauth/authorize`,
      token_url: `${providers.url}/github/login/oauth/access_token`,
      userinfo_url: `${providers.url}/github/user`,
    };
    const patched = await stack.admin().patch(`/v1/admin/projects/${op.project.id}`, {
      name: 'Acme',
      settings: { rp_id: 'localhost', rp_name: 'Acme', oauth_providers: { github } },
    });
    expect(patched.status).toBe(200);
    notes = await stack.client(op.project.id, {
      name: 'Acme Notes',
      token_endpoint_auth_method: 'none',
      first_party: true,
    });
    printer = await stack.client(op.project.id, {
      name: 'Photo Printer',
      token_endpoint_auth_method: 'none',
      first_party: false,
    });

    // The user has a password and an authenticator app (enrolled through the API, as an app would).
    userId = (await stack.user(op.project, EMAIL)).id;
    const session = await stack.signIn(op.projectKey, EMAIL);
    const setup = await api('/v1/auth/mfa/totp/setup', { token: session.accessToken });
    expect(setup.status).toBe(200);
    totpSecret = String(setup.body.secret);
    backupCodes = setup.body.backup_codes as string[];
    expect(
      (
        await api('/v1/auth/mfa/totp/verify', {
          token: session.accessToken,
          body: { code: totp(totpSecret, -1) },
        })
      ).status,
    ).toBe(200);

    // Mail (the magic link) goes out through the worker to a local SMTP server.
    await smtp.start();
    worker = await spawnApp('webhook-worker', { SMTP_URL: smtp.url });
    await rp.start();
    browser = await PagesBrowser.launch([
      new URL(stack.authUrl).host,
      new URL(RP_ORIGIN).host,
      new URL(providers.url).host,
    ]);
    page = browser.page;
    await browser.addAuthenticator();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await rp.stop();
    await providers.stop();
    await worker?.stop();
    await smtp.stop();
    await stack.stop();
  });

  /** Starts a sign-in at the relying party and waits for the hosted page (or the callback, when no interaction is needed). */
  async function startAtRelyingParty(
    client: CreatedClient,
    args: Record<string, string> = {},
  ): Promise<void> {
    rp.settings = { ...rp.settings, issuer: op.issuer, clientId: client.client_id };
    await page.goto(`${RP_ORIGIN}/`);
    // signinRedirect navigates away, which ends the evaluation's context.
    await page
      .evaluate(
        (a) => (window as unknown as { rp: { signIn(a: object): Promise<void> } }).rp.signIn(a),
        args,
      )
      .catch(() => undefined);
    await page.waitForURL(
      (u) => u.pathname.endsWith('/pages/sign-in') || u.href.startsWith(RP_REDIRECT),
    );
  }

  async function resultAtRelyingParty(): Promise<RelyingPartyResult> {
    await page.waitForURL((u) => u.href.startsWith(RP_REDIRECT));
    await page.waitForFunction(
      () => (window as unknown as { rpResult?: unknown }).rpResult !== undefined,
    );
    return page.evaluate(() => (window as unknown as { rpResult: RelyingPartyResult }).rpResult);
  }

  /** How the user's newest Gatehouse session was signed in (the session the hosted page completed the interaction with). */
  const lastSessionMethod = async (user = userId) =>
    (
      await stack.cp.dataSource.query<{ auth_method: string }[]>(
        `SELECT auth_method FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1`,
        [user],
      )
    )[0]?.auth_method;
  const heading = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
  const pagesUrl = (rest: string) => `${op.issuer}/pages/${rest}`;

  it('signs in with password + TOTP, then a passkey, then again with the password; consent for a third party (Deny, then Allow); GitHub for a new person; a magic link opened in another tab; every screen accessible in both themes', async () => {
    const violations: AxeViolation[] = [];

    // Pages without a sign-in request: an unknown or expired interaction, the provider's error page, the signed-out page.
    await page.goto(pagesUrl('sign-in?interaction=expired-or-unknown'));
    await heading('This sign-in request cannot continue');
    await page.getByText('This sign-in request has expired or was already used.').waitFor();
    expect(await page.getByRole('textbox').count()).toBe(0);
    violations.push(...(await browser.checkScreen('expired')));
    // A link can choose the code, never the words: a description in the query is not shown (no phishing text on the sign-in origin).
    await page.goto(
      pagesUrl(
        `error?error=access_denied&error_description=${encodeURIComponent('Your account is locked: call +1 555 0100 now.')}`,
      ),
    );
    await heading('Access was denied');
    await page.getByText('The sign-in could not be completed.').waitFor();
    expect(await page.getByText('call +1 555 0100').count()).toBe(0);
    violations.push(...(await browser.checkScreen('error')));
    await page.goto(pagesUrl('signed-out'));
    await heading('You are signed out');
    violations.push(...(await browser.checkScreen('signed-out')));

    // 1. Password, then the authenticator app's code, for a first-party client (no consent).
    await startAtRelyingParty(notes);
    await heading('Sign in');
    await page.getByText('to continue to Acme Notes').waitFor();
    await page.getByRole('link', { name: 'Continue with GitHub' }).waitFor();
    violations.push(...(await browser.checkScreen('sign-in')));
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByRole('textbox', { name: 'Password' }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Sign-in failed' }).waitFor();
    violations.push(...(await browser.checkScreen('sign-in-failed')));
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await heading('Two-step verification');
    // Focus follows the step: the code field takes it here (where the new step has no field, the heading does).
    expect(await page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe(
      'one-time-code',
    );
    violations.push(...(await browser.checkScreen('mfa')));
    // Nothing but the interaction's uid is kept by the page: no token in any storage.
    expect(await page.evaluate(() => [localStorage.length, Object.keys(sessionStorage)])).toEqual([
      0,
      ['gatehouse-pages:interaction'],
    ]);
    await page.getByLabel('6-digit code').fill(totp(totpSecret));
    await page.getByRole('button', { name: 'Verify' }).click();
    const first = await resultAtRelyingParty();
    expect(first).toEqual(expect.objectContaining({ ok: true, sub: userId, email: EMAIL }));
    if (!first.ok) throw new Error('unreachable');
    const idToken = claimsOf(first.id_token);
    expect(idToken).toEqual(
      expect.objectContaining({ iss: op.issuer, sub: userId, aud: notes.client_id }),
    );
    expect(idToken.auth_time).toEqual(expect.any(Number));
    expect(await lastSessionMethod()).toBe('mfa');

    // A passkey, made on the hosted page's origin (the auth runtime's) with a session from the API and a backup code.
    const challenge = await api('/v1/auth/sign-in', {
      body: { identifier: EMAIL, password: PASSWORD },
    });
    const verified = await api('/v1/auth/mfa/verify', {
      body: { mfa_token: challenge.body.mfa_token, factor: 'backup_code', code: backupCodes[0] },
    });
    expect(verified.status).toBe(200);
    await page.goto(pagesUrl('signed-out'));
    expect(
      await browser.registerPasskey(
        stack.authUrl,
        op.projectKey,
        String((verified.body.session as { access_token: string }).access_token),
      ),
    ).toBe(201);

    // 2. prompt=login: the page offers the current session, the person takes another way: the passkey.
    await startAtRelyingParty(notes, { prompt: 'login' });
    await page.getByRole('button', { name: `Continue as ${EMAIL}` }).waitFor();
    violations.push(...(await browser.checkScreen('continue')));
    await page.getByRole('button', { name: 'Use another account' }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    const second = await resultAtRelyingParty();
    expect(second).toEqual(expect.objectContaining({ ok: true, sub: userId }));
    expect(await lastSessionMethod()).toBe('passkey');

    // 3. prompt=login again with the session the passkey made: it is older than the request, so the page asks for the password again.
    await startAtRelyingParty(notes, { prompt: 'login' });
    await page.getByRole('button', { name: `Continue as ${EMAIL}` }).click();
    await heading("Confirm it's you");
    violations.push(...(await browser.checkScreen('reauthenticate')));
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Confirm' }).click();
    const third = await resultAtRelyingParty();
    expect(third).toEqual(expect.objectContaining({ ok: true, sub: userId }));

    // 4. A third-party application asks for consent: Deny ends at the relying party with access_denied.
    await startAtRelyingParty(printer);
    const continueButton = page.getByRole('button', { name: `Continue as ${EMAIL}` });
    if (await continueButton.isVisible()) await continueButton.click();
    await heading('Allow access?');
    await page.getByText('Photo Printer', { exact: true }).waitFor();
    // (offline_access is dropped by the provider unless the request also says prompt=consent.)
    for (const label of ['Sign you in', 'Your profile', 'Your email address'])
      await page.getByText(label, { exact: true }).waitFor();
    violations.push(...(await browser.checkScreen('consent')));
    await page.getByRole('button', { name: 'Deny' }).click();
    expect(await resultAtRelyingParty()).toEqual(
      expect.objectContaining({ ok: false, error: 'access_denied' }),
    );

    // ... and Allow gives the relying party its ID token. Keyboard only: Tab to the button, Enter.
    await startAtRelyingParty(printer);
    if (await continueButton.isVisible()) await continueButton.click();
    await heading('Allow access?');
    await page.getByRole('button', { name: 'Allow' }).focus();
    await page.keyboard.press('Enter');
    const allowed = await resultAtRelyingParty();
    expect(allowed).toEqual(expect.objectContaining({ ok: true, sub: userId, email: EMAIL }));
    if (!allowed.ok) throw new Error('unreachable');
    expect(claimsOf(allowed.id_token)).toEqual(
      expect.objectContaining({ iss: op.issuer, sub: userId, aud: printer.client_id }),
    );

    // 5. Another person, in a fresh browser session: GitHub. The page leaves for the provider and
    //    comes back to itself (its own URL is a redirect URL of an OIDC project), picks the
    //    interaction up from sessionStorage and completes it with the new session.
    await browser.context.clearCookies();
    await startAtRelyingParty(notes);
    await heading('Sign in');
    await page.getByRole('link', { name: 'Continue with GitHub' }).click();
    const social = await resultAtRelyingParty();
    const [octo] = await stack.cp.dataSource.query<{ id: string }[]>(
      `SELECT id FROM users WHERE project_id = $1 AND email = $2`,
      [op.project.id, 'octo@example.com'],
    );
    expect(octo).toBeDefined();
    expect(social).toEqual(
      expect.objectContaining({ ok: true, sub: octo.id, email: 'octo@example.com' }),
    );
    expect(await lastSessionMethod(octo.id)).toBe('oauth');

    // 6. A third person asks for a magic link. It opens in a new tab (as from a mail client), which
    //    signs in and tells the first tab; the first tab completes the interaction.
    await browser.context.clearCookies();
    const lin = await stack.user(op.project, 'lin@example.com');
    await startAtRelyingParty(notes);
    await heading('Sign in');
    await page.getByLabel('Email').fill('lin@example.com');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await heading('Check your email');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    violations.push(...(await browser.checkScreen('link-sent')));
    const link = linkIn(await smtp.waitFor('lin@example.com'));
    expect(link.origin).toBe(stack.authUrl);
    const tab = await browser.context.newPage();
    await tab.goto(link.href);
    await tab.getByRole('heading', { level: 1, name: 'You are signed in' }).waitFor();
    violations.push(...(await browser.checkScreen('link-opened', tab)));
    const magic = await resultAtRelyingParty();
    expect(magic).toEqual(
      expect.objectContaining({ ok: true, sub: lin.id, email: 'lin@example.com' }),
    );
    expect(await lastSessionMethod(lin.id)).toBe('magic_link');
    await tab.close();

    expect(violations).toEqual([]);
    expect(browser.problems).toEqual([]);
    expect(browser.foreignRequests).toEqual([]);
  }, 240_000);

  it("a demand for loa:2 is never skipped: a password-only session steps up with a TOTP code on the hosted page; an account without a second factor goes back with access_denied; a self-registered client's error is shown with its name", async () => {
    const violations: AxeViolation[] = [];
    const LOA_2 = 'urn:gatehouse:loa:2';
    await browser.context.clearCookies();

    // Signed in to the provider with a password only (no second factor yet), then an authenticator app is set up.
    const ada = await stack.user(op.project, 'ada@example.com');
    await startAtRelyingParty(notes);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const plain = await resultAtRelyingParty();
    if (!plain.ok) throw new Error(`sign-in failed: ${JSON.stringify(plain)}`);
    expect(claimsOf(plain.id_token)).toEqual(
      expect.objectContaining({ sub: ada.id, acr: 'urn:gatehouse:loa:1' }),
    );
    const session = await stack.signIn(op.projectKey, 'ada@example.com');
    const setup = await api('/v1/auth/mfa/totp/setup', { token: session.accessToken });
    const secret = String(setup.body.secret);
    expect(
      (
        await api('/v1/auth/mfa/totp/verify', {
          token: session.accessToken,
          body: { code: totp(secret, -1) },
        })
      ).status,
    ).toBe(200);

    // The application asks for loa:2: the hosted page, not a code; continuing asks to confirm with a second factor.
    await startAtRelyingParty(notes, { acr_values: LOA_2 });
    expect(new URL(page.url()).pathname).toBe(`/v1/projects/${op.project.id}/pages/sign-in`);
    await page.getByRole('button', { name: 'Continue as ada@example.com' }).click();
    await heading("Confirm it's you");
    await page.getByRole('button', { name: 'Use a verification code' }).click();
    await page.getByLabel('6-digit code').fill(totp(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    const stepped = await resultAtRelyingParty();
    if (!stepped.ok) throw new Error(`step-up failed: ${JSON.stringify(stepped)}`);
    expect(claimsOf(stepped.id_token)).toEqual(
      expect.objectContaining({ sub: ada.id, acr: LOA_2, amr: ['pwd', 'mfa'] }),
    );

    // An account with no second factor and no passkey: the page says so and goes back to the application (access_denied).
    await browser.context.clearCookies();
    await stack.user(op.project, 'bo@example.com');
    await startAtRelyingParty(notes, { acr_values: LOA_2 });
    await page.getByLabel('Email').fill('bo@example.com');
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await heading('A second factor is needed');
    await page.getByText('bo@example.com has none set up yet', { exact: false }).waitFor();
    violations.push(...(await browser.checkScreen('needs-factor')));
    await page.getByRole('button', { name: 'Back to the application' }).click();
    expect(await resultAtRelyingParty()).toEqual(
      expect.objectContaining({ ok: false, error: 'access_denied' }),
    );

    // A self-registered client's request without PKCE: the error page with its name as text and a link that is not followed.
    const open = await stack.oidcProject({ dynamic_registration: true });
    const registered = await fetch(`${open.issuer}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: '<b>Evil</b> & Co',
        redirect_uris: ['https://evil.example/cb'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const evil = (await registered.json()) as { client_id: string };
    const answer = await page.goto(
      `${open.issuer}/authorize?${new URLSearchParams({ client_id: evil.client_id, response_type: 'code', redirect_uri: 'https://evil.example/cb', scope: 'openid', state: 's' })}`,
    );
    expect(answer?.status()).toBe(400);
    await page
      .getByRole('heading', { level: 1, name: 'The application sent an invalid request' })
      .waitFor();
    expect(await page.locator('#client-name').textContent()).toBe('<b>Evil</b> & Co');
    const link = page.getByRole('link', { name: 'Return to <b>Evil</b> & Co' });
    const href = new URL((await link.getAttribute('href'))!);
    expect([
      href.origin + href.pathname,
      href.searchParams.get('error'),
      href.searchParams.get('state'),
    ]).toEqual(['https://evil.example/cb', 'invalid_request', 's']);
    expect(new URL(page.url()).origin).toBe(stack.authUrl);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      violations.push(
        ...(await browser.axe()).map((v) => ({ ...v, id: `held-error ${theme}: ${v.id}` })),
      );
    }
    await page.emulateMedia({ colorScheme: 'light' });

    expect(violations).toEqual([]);
    expect(browser.problems).toEqual([]);
    expect(browser.foreignRequests).toEqual([]);
  }, 120_000);
});
