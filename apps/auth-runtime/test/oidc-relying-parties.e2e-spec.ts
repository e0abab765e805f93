import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { linkIn, SmtpSink, spawnApp, type AppProcess } from '@gatehouse/testing';
import { buildAuthPages } from './support/auth-pages-build';
import { OidcClientTsApp, type SpaUser } from './support/oidc-client-ts-app';
import {
  freePort,
  OidcStack,
  PASSWORD,
  type CreatedClient,
  type OidcProject,
} from './support/oidc-stack';
import { PagesBrowser, type AxeViolation } from './support/pages-browser';

function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

function headerOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

type SpaResult =
  | { ok: true; user?: SpaUser; signedOut?: true }
  | { ok: false; error: string; description: string | null };

type RpKind =
  | 'authjs'
  | 'openid-client-passport'
  | 'openid-client-passport-par'
  | 'passport-openidconnect'
  | 'express-openid-connect';

/** The Express relying parties (support/relying-parties/*.mjs) in one child process: they are ES modules. */
async function startRelyingParties(spec: {
  issuer: string;
  secret: string;
  apps: Record<string, unknown>[];
}): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [join(__dirname, 'support/relying-parties/server.mjs'), JSON.stringify(spec)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      if (output.includes('ready\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`relying parties exited (${code}):\n${output}`)));
  });
  return child;
}

/**
 * Relying-party libraries nobody here wrote, each wired as its own README says, against the
 * compiled auth runtime as a real process and its hosted pages, in Debian's Chromium (docs/oidc.md,
 * "Relying parties"). One stack, one project and one browser for every journey; each journey
 * asserts what the relying party received.
 */
describe('OIDC relying-party libraries through the hosted pages in Chromium', () => {
  const stack = new OidcStack();
  let browser: PagesBrowser;
  let page: Page;
  let op: OidcProject;
  let spa: OidcClientTsApp;
  let spaClient: CreatedClient;
  let rpProcess: ChildProcess | undefined;
  const smtp = new SmtpSink();
  let worker: AppProcess | undefined;
  const rps = {} as Record<RpKind, { origin: string; client: CreatedClient }>;

  beforeAll(async () => {
    buildAuthPages();
    await stack.start();
    spa = new OidcClientTsApp(`http://127.0.0.1:${await freePort()}`);
    const kinds: RpKind[] = [
      'authjs',
      'openid-client-passport',
      'openid-client-passport-par',
      'passport-openidconnect',
      'express-openid-connect',
    ];
    for (const kind of kinds)
      rps[kind] = { origin: `http://127.0.0.1:${await freePort()}`, client: { client_id: '' } };
    const callbackOf = (kind: RpKind) =>
      kind === 'authjs'
        ? `${rps[kind].origin}/auth/callback/gatehouse`
        : `${rps[kind].origin}/callback`;
    op = await stack.oidcProject({}, [
      spa.redirectUri,
      spa.silentRedirectUri,
      ...kinds.map(callbackOf),
    ]);
    const patched = await stack.admin().patch(`/v1/admin/projects/${op.project.id}`, {
      name: 'Acme',
      allowed_origins: [spa.origin],
    });
    expect(patched.status).toBe(200);
    // Each relying party's client as its README needs it, every other member at its default.
    const clientSettings: Record<RpKind, Record<string, unknown>> = {
      authjs: { name: 'Auth.js app' },
      'openid-client-passport': { name: 'Passport app' },
      // Required, so that a sign-in proves the request was pushed.
      'openid-client-passport-par': {
        name: 'PAR app',
        require_pushed_authorization_requests: true,
      },
      // The library has no PKCE (it sends a nonce) and sends its secret in the body.
      'passport-openidconnect': {
        name: 'Legacy app',
        require_pkce: false,
        token_endpoint_auth_method: 'client_secret_post',
      },
      'express-openid-connect': {
        name: 'Express app',
        post_logout_redirect_uris: [rps['express-openid-connect'].origin],
      },
    };
    for (const kind of kinds)
      rps[kind].client = await stack.client(op.project.id, {
        first_party: true,
        redirect_uris: [callbackOf(kind)],
        post_logout_redirect_uris: [],
        ...clientSettings[kind],
      });
    rpProcess = await startRelyingParties({
      issuer: op.issuer,
      secret: 'a relying party cookie secret of 32+ characters',
      apps: kinds.map((kind) => ({
        kind: kind.replace(/-par$/, ''),
        port: Number(new URL(rps[kind].origin).port),
        clientId: rps[kind].client.client_id,
        clientSecret: rps[kind].client.client_secret,
        usePAR: kind.endsWith('-par'),
      })),
    });
    spaClient = await stack.client(op.project.id, {
      name: 'Acme SPA',
      token_endpoint_auth_method: 'none',
      first_party: true,
      redirect_uris: [spa.redirectUri, spa.silentRedirectUri],
      post_logout_redirect_uris: [spa.postLogoutRedirectUri],
    });
    spa.issuer = op.issuer;
    spa.clientId = spaClient.client_id;
    await spa.start();
    // Mail (the password-reset link) goes out through the worker to a local SMTP server.
    await smtp.start();
    worker = await spawnApp('webhook-worker', { SMTP_URL: smtp.url });
    browser = await PagesBrowser.launch([
      new URL(stack.authUrl).host,
      new URL(spa.origin).host,
      ...Object.values(rps).map((rp) => new URL(rp.origin).host),
    ]);
    page = browser.page;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    rpProcess?.kill('SIGTERM');
    await worker?.stop();
    await smtp.stop();
    await spa?.stop();
    await stack.stop();
  });

  const heading = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
  const sessionRevokedAt = async (sid: string) =>
    (
      await stack.cp.dataSource.query<{ revoked_at: Date | null }[]>(
        `SELECT revoked_at FROM sessions WHERE id = $1`,
        [sid],
      )
    )[0]?.revoked_at;

  /** The hosted sign-in page, as a person fills it in. */
  async function signInOnHostedPage(email: string, clientName: string): Promise<void> {
    await heading('Sign in');
    await page.getByText(`to continue to ${clientName}`).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  const spaResult = async (path: string): Promise<SpaResult> => {
    await page.waitForURL((u) => u.href.startsWith(`${spa.origin}${path}`));
    await page.waitForFunction(
      () => (window as unknown as { rpResult?: unknown }).rpResult !== undefined,
    );
    return page.evaluate(() => (window as unknown as { rpResult: SpaResult }).rpResult);
  };
  const spaCall = <T>(name: 'user' | 'renew' | 'renewInIframe') =>
    page.evaluate(
      (n) =>
        (window as unknown as { rp: Record<string, () => Promise<unknown>> }).rp[n]() as Promise<T>,
      name,
    );

  it('oidc-client-ts in the browser: code + PKCE with UserInfo, a refresh-token renew, an iframe prompt=none renew, and signoutRedirect() back in the app with the session ended', async () => {
    const user = await stack.user(op.project, 'spa@example.com');
    await page.goto(`${spa.origin}/`);
    await page
      .evaluate(() => (window as unknown as { rp: { signIn(): Promise<void> } }).rp.signIn())
      .catch(() => undefined);
    await signInOnHostedPage('spa@example.com', 'Acme SPA');
    const signedIn = await spaResult('/callback');
    if (!signedIn.ok || !signedIn.user)
      throw new Error(`sign-in failed: ${JSON.stringify(signedIn)}`);
    // The profile merges the ID token and UserInfo (loadUserInfo); offline_access is dropped without prompt=consent, yet a first-party client gets a refresh token.
    expect(signedIn.user).toEqual(
      expect.objectContaining({
        sub: user.id,
        email: 'spa@example.com',
        preferred_username: 'spa@example.com',
        scope: 'openid profile email',
        refresh_token: expect.any(String),
      }),
    );
    const idToken = claimsOf(signedIn.user.id_token);
    expect(idToken).toEqual(
      expect.objectContaining({
        iss: op.issuer,
        aud: spaClient.client_id,
        sub: user.id,
        auth_time: expect.any(Number),
        sid: expect.any(String),
      }),
    );
    const sid = String(idToken.sid);

    // Renewal with the refresh token (rotated), then in the hidden iframe with prompt=none.
    const renewed = await spaCall<SpaUser>('renew');
    expect(renewed.sub).toBe(user.id);
    expect(renewed.access_token).not.toBe(signedIn.user.access_token);
    expect(renewed.refresh_token).toEqual(expect.any(String));
    expect(renewed.refresh_token).not.toBe(signedIn.user.refresh_token);
    const authorizeRequests: string[] = [];
    page.on('request', (req) => {
      if (req.url().startsWith(`${op.issuer}/authorize`)) authorizeRequests.push(req.url());
    });
    const silent = await spaCall<{ ok: boolean; user?: SpaUser }>('renewInIframe');
    expect(silent).toEqual({ ok: true, user: expect.objectContaining({ sub: user.id }) });
    expect(authorizeRequests.map((u) => new URL(u).searchParams.get('prompt'))).toEqual(['none']);
    expect(claimsOf(silent.user!.id_token)).toEqual(expect.objectContaining({ sub: user.id, sid }));
    // New tokens from a new code (an ID token signed in the same second may be byte for byte the same: RS256 is deterministic).
    expect(silent.user!.access_token).not.toBe(renewed.access_token);

    // signoutRedirect(): the provider asks, the person confirms, the browser lands back in the app.
    await page
      .evaluate(() => (window as unknown as { rp: { signOut(): Promise<void> } }).rp.signOut())
      .catch(() => undefined);
    await heading('Sign out');
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(await spaResult('/signed-out')).toEqual({ ok: true, signedOut: true });
    expect(await spaCall('user')).toBeNull();
    expect(await sessionRevokedAt(sid)).toBeInstanceOf(Date);
    // The provider's session is gone too: a prompt=none request answers login_required.
    await page.goto(`${spa.origin}/`);
    await page
      .evaluate(() =>
        (window as unknown as { rp: { signIn(a: object): Promise<void> } }).rp.signIn({
          prompt: 'none',
        }),
      )
      .catch(() => undefined);
    expect(await spaResult('/callback')).toEqual(
      expect.objectContaining({ ok: false, error: 'login_required' }),
    );

    expect(browser.problems).toEqual([]);
    expect(browser.foreignRequests).toEqual([]);
  }, 120_000);

  /** What the relying party's /me says (the session it keeps for this browser). */
  const meAt = async (kind: RpKind) => {
    const res = await page.goto(`${rps[kind].origin}/me`);
    return JSON.parse((await res!.text()) || 'null') as Record<string, unknown>;
  };

  it('Auth.js (generic oidc provider) and openid-client/passport with and without usePAR: a sign-in on the hosted page, then single sign-on for the others; each holds the user, its ID token claims and UserInfo', async () => {
    await browser.context.clearCookies();
    const user = await stack.user(op.project, 'express@example.com');

    // Auth.js: its sign-in page, the provider's button, the hosted page, back with a session.
    await page.goto(`${rps.authjs.origin}/auth/signin`);
    await page.getByRole('button', { name: 'Sign in with Gatehouse' }).click();
    await signInOnHostedPage('express@example.com', 'Auth.js app');
    await page.waitForURL(
      (u) => u.origin === rps.authjs.origin && !u.pathname.startsWith('/auth/callback'),
    );
    expect(await meAt('authjs')).toEqual({
      session: {
        user: { subject: user.id, email: 'express@example.com', name: 'express@example.com' },
        expires: expect.any(String),
      },
    });

    // openid-client/passport: the provider session already exists, so the browser goes straight back.
    await page.goto(`${rps['openid-client-passport'].origin}/login`);
    await page.waitForURL(`${rps['openid-client-passport'].origin}/me`);
    const passportUser = (await meAt('openid-client-passport')).user as {
      claims: Record<string, unknown>;
      userinfo: Record<string, unknown>;
    };
    expect(passportUser.claims).toEqual(
      expect.objectContaining({
        iss: op.issuer,
        aud: rps['openid-client-passport'].client.client_id,
        sub: user.id,
        email: 'express@example.com',
        auth_time: expect.any(Number),
      }),
    );
    expect(passportUser.userinfo).toEqual({
      sub: user.id,
      email: 'express@example.com',
      email_verified: false,
      preferred_username: 'express@example.com',
    });

    // ... with usePAR, for a client that requires pushed requests: the browser carries only request_uri.
    const authorizeUrls: string[] = [];
    const watch = (req: { url(): string }) =>
      void (req.url().startsWith(`${op.issuer}/authorize`) && authorizeUrls.push(req.url()));
    page.on('request', watch);
    await page.goto(`${rps['openid-client-passport-par'].origin}/login`);
    await page.waitForURL(`${rps['openid-client-passport-par'].origin}/me`);
    page.off('request', watch);
    expect(authorizeUrls.map((u) => [...new URL(u).searchParams.keys()].sort())).toEqual([
      ['client_id', 'request_uri'],
    ]);
    const parUser = (await meAt('openid-client-passport-par')).user as {
      claims: Record<string, unknown>;
    };
    expect(parUser.claims).toEqual(
      expect.objectContaining({
        aud: rps['openid-client-passport-par'].client.client_id,
        sub: user.id,
      }),
    );

    expect(browser.problems).toEqual([]);
    // Auth.js's own sign-in page asks its site for the provider's logo (the browser has no network); nothing else leaves.
    expect(
      browser.foreignRequests.filter((u) => !u.startsWith('https://authjs.dev/img/providers/')),
    ).toEqual([]);
  }, 120_000);

  it('passport-openidconnect with nonce: true against a require_pkce: false client, and express-openid-connect (code flow, idpLogout) signing out at the provider back into the app', async () => {
    await browser.context.clearCookies();
    browser.foreignRequests.length = 0;
    const user = await stack.user(op.project, 'legacy@example.com');

    const legacy = rps['passport-openidconnect'];
    const authorizeUrls: string[] = [];
    const watch = (req: { url(): string }) =>
      void (req.url().startsWith(`${op.issuer}/authorize`) && authorizeUrls.push(req.url()));
    page.on('request', watch);
    await page.goto(`${legacy.origin}/login`);
    await signInOnHostedPage('legacy@example.com', 'Legacy app');
    await page.waitForURL(`${legacy.origin}/me`);
    page.off('request', watch);
    const sent = new URL(authorizeUrls[0]).searchParams;
    expect([sent.get('nonce'), sent.get('code_challenge')]).toEqual([expect.any(String), null]);
    const legacyUser = (await meAt('passport-openidconnect')).user as {
      issuer: string;
      profile: Record<string, unknown>;
      idToken: string;
    };
    expect(legacyUser.issuer).toBe(op.issuer);
    expect(legacyUser.profile).toEqual({
      id: user.id,
      username: 'legacy@example.com',
      emails: [{ value: 'legacy@example.com' }],
    });
    expect(headerOf(legacyUser.idToken).alg).toBe('RS256');
    expect(claimsOf(legacyUser.idToken)).toEqual(
      expect.objectContaining({
        sub: user.id,
        nonce: sent.get('nonce'),
        aud: legacy.client.client_id,
      }),
    );

    // express-openid-connect: single sign-on, then /logout signs out at the provider (idpLogout) and comes back.
    const express = rps['express-openid-connect'];
    await page.goto(`${express.origin}/login`);
    await page.waitForURL(`${express.origin}/`);
    await page.locator('#status').filter({ hasText: 'signed-in' }).waitFor();
    const me = await meAt('express-openid-connect');
    expect(me).toEqual({
      authenticated: true,
      idTokenClaims: expect.objectContaining({
        iss: op.issuer,
        aud: express.client.client_id,
        sub: user.id,
        email: 'legacy@example.com',
      }),
      userinfo: expect.objectContaining({ sub: user.id, email: 'legacy@example.com' }),
      hasRefreshToken: true,
    });
    // (express-openid-connect checks RS256 ID tokens unless told otherwise: the default algorithm.)
    const sid = String((me.idTokenClaims as { sid: string }).sid);
    await page.goto(`${express.origin}/logout`);
    await heading('Sign out');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${express.origin}/`);
    await page.locator('#status').filter({ hasText: 'signed-out' }).waitFor();
    expect(await meAt('express-openid-connect')).toEqual({ authenticated: false });
    expect(await sessionRevokedAt(sid)).toBeInstanceOf(Date);

    expect(browser.problems).toEqual([]);
    expect(browser.foreignRequests).toEqual([]);
  }, 120_000);

  it('the hosted pages: prompt=create opens sign-up and a new person lands in the app; a forgotten password is reset by mail without leaving the provider; allow_sign_up: false hides the link; the error page says what went wrong at sign-out and which client setting to change', async () => {
    await browser.context.clearCookies();
    browser.foreignRequests.length = 0;
    // Each new screen is scanned with axe-core in both themes (OIDC_SCREENSHOTS=1 writes docs/oidc/<screen>-<theme>.png).
    const violations: AxeViolation[] = [];
    const signInAtSpa = async (args: Record<string, string> = {}) => {
      await page.goto(`${spa.origin}/`);
      await page
        .evaluate(
          (a) => (window as unknown as { rp: { signIn(a: object): Promise<void> } }).rp.signIn(a),
          args,
        )
        .catch(() => undefined);
    };

    // prompt=create (OpenID Connect Initiating User Registration): the sign-up form, then back in the app.
    await signInAtSpa({ prompt: 'create' });
    await heading('Create an account');
    await page.getByText('to continue to Acme SPA').waitFor();
    violations.push(...(await browser.checkScreen('sign-up')));
    await page.getByLabel('Email').fill('newcomer@example.com');
    // The password policy's answer is shown on its field.
    await page.getByRole('textbox', { name: 'Password' }).fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    const fieldError = page.locator('[id$="-error"]').first();
    await fieldError.waitFor();
    expect(await fieldError.textContent()).toMatch(/8/);
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    const created = await spaResult('/callback');
    const [newcomer] = await stack.cp.dataSource.query<{ id: string }[]>(
      `SELECT id FROM users WHERE project_id = $1 AND email = $2`,
      [op.project.id, 'newcomer@example.com'],
    );
    expect(newcomer).toBeDefined();
    expect(created).toEqual({
      ok: true,
      user: expect.objectContaining({ sub: newcomer.id, email: 'newcomer@example.com' }),
    });

    // Forgot password: the link comes back to the hosted page (in another tab); then sign in with the new password.
    await browser.context.clearCookies();
    await signInAtSpa();
    await heading('Sign in');
    await page.getByRole('button', { name: 'Create an account' }).waitFor();
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await heading('Reset your password');
    violations.push(...(await browser.checkScreen('forgot-password')));
    await page.getByLabel('Email').fill('newcomer@example.com');
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await heading('Check your email');
    const link = linkIn(await smtp.waitFor('newcomer@example.com'));
    expect(link.origin + link.pathname).toBe(`${op.issuer}/pages/sign-in`);
    const tab = await browser.context.newPage();
    await tab.goto(link.href);
    await tab.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    violations.push(...(await browser.checkScreen('reset-password', tab)));
    // The token leaves the address bar once read.
    expect(new URL(tab.url()).searchParams.get('token')).toBeNull();
    const NEW_PASSWORD = 'another sturdy passphrase 43';
    await tab.getByRole('textbox', { name: 'New password' }).fill(NEW_PASSWORD);
    await tab.getByRole('button', { name: 'Change password' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Your password is changed' }).waitFor();
    await tab.close();
    await page.getByRole('button', { name: 'Back to sign in' }).click();
    await page.getByLabel('Email').fill('newcomer@example.com');
    await page.getByRole('textbox', { name: 'Password' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const again = await spaResult('/callback');
    expect(again).toEqual({ ok: true, user: expect.objectContaining({ sub: newcomer.id }) });

    // A post_logout_redirect_uri the client did not register: the error page's own words (sign-out, the
    // standard's description, the setting to change), never the request's text.
    await page.goto(`${spa.origin}/`);
    await page
      .evaluate(() =>
        (window as unknown as { rp: { signOut(a?: object): Promise<void> } }).rp.signOut({
          post_logout_redirect_uri: 'http://127.0.0.1:9/elsewhere',
        }),
      )
      .catch(() => undefined);
    await heading('The application sent an invalid request');
    expect(new URL(page.url()).pathname).toBe(`/v1/projects/${op.project.id}/pages/error`);
    await page.getByText('The sign-out could not be completed.').waitFor();
    violations.push(...(await browser.checkScreen('error-sign-out')));
    expect(await page.getByTestId('error-details').innerText()).toBe(
      "For the application's developer: error invalid_request at sign-out (end-session): The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed.\n\nThe post_logout_redirect_uri is not one of the client's registered post_logout_redirect_uris: add it to the client's settings.",
    );

    // allow_sign_up: false: no link, and prompt=create opens the sign-in form.
    const off = await stack.admin().patch(`/v1/admin/projects/${op.project.id}`, {
      settings: { oidc: { enabled: true, allow_sign_up: false } },
    });
    expect(off.body.settings.oidc).toEqual(expect.objectContaining({ allow_sign_up: false }));
    await browser.context.clearCookies();
    await signInAtSpa({ prompt: 'create' });
    await heading('Sign in');
    await page.getByRole('button', { name: 'Forgot your password?' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create an account' }).count()).toBe(0);

    expect(violations).toEqual([]);
    expect(browser.problems).toEqual([]);
    expect(browser.foreignRequests).toEqual([]);
  }, 120_000);
});
