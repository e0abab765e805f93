import type { Page } from 'playwright-core';
import { buildAuthPages } from './support/auth-pages-build';
import { OidcClientTsApp, type SpaUser } from './support/oidc-client-ts-app';
import { freePort, OidcStack, PASSWORD, type CreatedClient, type OidcProject } from './support/oidc-stack';
import { PagesBrowser } from './support/pages-browser';

function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

function headerOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString('utf8')) as Record<string, unknown>;
}

type SpaResult = { ok: true; user?: SpaUser; signedOut?: true } | { ok: false; error: string; description: string | null };

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

  beforeAll(async () => {
    buildAuthPages();
    await stack.start();
    spa = new OidcClientTsApp(`http://127.0.0.1:${await freePort()}`);
    op = await stack.oidcProject({}, [spa.redirectUri, spa.silentRedirectUri]);
    const patched = await stack.admin().patch(`/v1/admin/projects/${op.project.id}`, { name: 'Acme', allowed_origins: [spa.origin] });
    expect(patched.status).toBe(200);
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
    browser = await PagesBrowser.launch([new URL(stack.authUrl).host, new URL(spa.origin).host]);
    page = browser.page;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await spa?.stop();
    await stack.stop();
  });

  const heading = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
  const sessionRevokedAt = async (sid: string) => (await stack.cp.dataSource.query<{ revoked_at: Date | null }[]>(`SELECT revoked_at FROM sessions WHERE id = $1`, [sid]))[0]?.revoked_at;

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
    await page.waitForFunction(() => (window as unknown as { rpResult?: unknown }).rpResult !== undefined);
    return page.evaluate(() => (window as unknown as { rpResult: SpaResult }).rpResult);
  };
  const spaCall = <T>(name: 'user' | 'renew' | 'renewInIframe') => page.evaluate((n) => (window as unknown as { rp: Record<string, () => Promise<unknown>> }).rp[n]() as Promise<T>, name);

  it('oidc-client-ts in the browser: code + PKCE with UserInfo, a refresh-token renew, an iframe prompt=none renew, and signoutRedirect() back in the app with the session ended', async () => {
    const user = await stack.user(op.project, 'spa@example.com');
    await page.goto(`${spa.origin}/`);
    await page.evaluate(() => (window as unknown as { rp: { signIn(): Promise<void> } }).rp.signIn()).catch(() => undefined);
    await signInOnHostedPage('spa@example.com', 'Acme SPA');
    const signedIn = await spaResult('/callback');
    if (!signedIn.ok || !signedIn.user) throw new Error(`sign-in failed: ${JSON.stringify(signedIn)}`);
    // The profile merges the ID token and UserInfo (loadUserInfo); offline_access is dropped without prompt=consent, yet a first-party client gets a refresh token.
    expect(signedIn.user).toEqual(expect.objectContaining({ sub: user.id, email: 'spa@example.com', preferred_username: 'spa@example.com', scope: 'openid profile email', refresh_token: expect.any(String) }));
    const idToken = claimsOf(signedIn.user.id_token);
    expect(idToken).toEqual(expect.objectContaining({ iss: op.issuer, aud: spaClient.client_id, sub: user.id, auth_time: expect.any(Number), sid: expect.any(String) }));
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
    expect(silent.user!.id_token).not.toBe(signedIn.user.id_token);

    // signoutRedirect(): the provider asks, the person confirms, the browser lands back in the app.
    await page.evaluate(() => (window as unknown as { rp: { signOut(): Promise<void> } }).rp.signOut()).catch(() => undefined);
    await heading('Sign out');
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(await spaResult('/signed-out')).toEqual({ ok: true, signedOut: true });
    expect(await spaCall('user')).toBeNull();
    expect(await sessionRevokedAt(sid)).toBeInstanceOf(Date);
    // The provider's session is gone too: a prompt=none request answers login_required.
    await page.goto(`${spa.origin}/`);
    await page.evaluate(() => (window as unknown as { rp: { signIn(a: object): Promise<void> } }).rp.signIn({ prompt: 'none' })).catch(() => undefined);
    expect(await spaResult('/callback')).toEqual(expect.objectContaining({ ok: false, error: 'login_required' }));

    expect(browser.problems).toEqual([]);
    expect(browser.foreignRequests).toEqual([]);
  }, 120_000);
});
