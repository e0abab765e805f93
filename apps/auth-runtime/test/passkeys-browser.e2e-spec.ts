import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { Passkey, Session } from '@gatehouse/entities';
import { ProjectsCache } from '@gatehouse/identity';
import { linkIn, seedTenant, SmtpSink, spawnApp, startTestApp, type AppProcess, type SeededTenant, type TestApp } from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';
import { BackgroundTasks } from '../src/common/background-tasks';

const UMD_BUNDLE = join(__dirname, '../../../node_modules/@simplewebauthn/browser/dist/bundle/index.umd.min.js');
const CHROMIUM_ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

interface CallResult {
  status: number;
  /** Parsed JSON, as loosely typed as JSON.parse. */
  body: ReturnType<typeof JSON.parse>;
}

/** What the test page exposes on `window`. */
interface PageApi {
  call(method: string, path: string, body?: unknown): Promise<CallResult>;
  SimpleWebAuthnBrowser: {
    startRegistration(opts: { optionsJSON: unknown }): Promise<Record<string, unknown>>;
    startAuthentication(opts: { optionsJSON: unknown }): Promise<Record<string, unknown>>;
  };
}

function pageHtml(apiUrl: string, projectKey: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Gatehouse passkeys</title><script src="/webauthn.js"></script></head>
<body><script>
  const API = ${JSON.stringify(apiUrl)};
  const KEY = ${JSON.stringify(projectKey)};
  window.call = async (method, path, body) => {
    const res = await fetch(API + path, {
      method,
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', 'X-Service-Project-Key': KEY },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
</script></body></html>`;
}

/**
 * The real thing: headless Chromium with a CDP virtual authenticator (CTAP2, internal, resident
 * keys, user verification) runs @simplewebauthn/browser on a page served from
 * http://localhost:<port>, which calls the auth runtime on another localhost port with fetch,
 * cookies and CORS.
 */
describe('passkeys in a real browser', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageServer: Server;
  let pageOrigin: string;
  let apiUrl: string;
  const smtp = new SmtpSink();
  let worker: AppProcess;

  const call = (method: string, path: string, body?: unknown) =>
    page.evaluate(([m, p, b]) => (globalThis as unknown as PageApi).call(m, p, b), [method, path, body] as const);

  beforeAll(async () => {
    await smtp.start();
    worker = await spawnApp('webhook-worker', { SMTP_URL: smtp.url });
    t = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
    await t.app.listen(0, '127.0.0.1');
    apiUrl = `http://localhost:${(t.app.getHttpServer().address() as AddressInfo).port}`;

    let html = '';
    const bundle = readFileSync(UMD_BUNDLE);
    pageServer = createServer((req, res) => {
      if (req.url === '/webauthn.js') {
        res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(bundle);
      } else if (req.url === '/') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://localhost:${(pageServer.address() as AddressInfo).port}`;

    await t.reset();
    tenant = await seedTenant(t.app);
    await t.dataSource.query(
      `UPDATE projects SET allowed_origins = $2::jsonb, settings = settings || $3::jsonb WHERE id = $1`,
      [tenant.project.id, JSON.stringify([pageOrigin]), JSON.stringify({ rp_id: 'localhost', rp_name: 'Gatehouse Browser Test' })],
    );
    await t.app.get(ProjectsCache).invalidateProject({ id: tenant.project.id, publishableKey: tenant.projectKey });
    html = pageHtml(apiUrl, tenant.projectKey);

    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    context = await browser.newContext();
    page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await page.goto(`${pageOrigin}/`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (pageServer ? pageServer.close(() => resolve()) : resolve()));
    await t?.close();
    await worker?.stop();
    await smtp.stop();
  });

  it('registers, signs out, signs in with the passkey by email, then with a discoverable credential; the owner of the address then claims the account and the passkey stops working', async () => {
    const email = 'browser@example.com';
    const signUp = await call('POST', '/v1/auth/sign-up', { email, password: 'a sturdy passphrase 42' });
    expect(signUp.status).toBe(201);
    const userId = signUp.body.user.id as string;
    expect((await call('GET', '/v1/auth/me')).body.user).toEqual({ id: userId, email, is_admin: false });

    // Registration, authenticated by the session cookie from a cross-origin page.
    const regOptions = await call('POST', '/v1/auth/passkey/register/begin', {});
    expect(regOptions.status).toBe(200);
    expect(regOptions.body.rp).toEqual({ id: 'localhost', name: 'Gatehouse Browser Test' });
    const attestation = await page.evaluate((options) => (globalThis as unknown as PageApi).SimpleWebAuthnBrowser.startRegistration({ optionsJSON: options }), regOptions.body);
    const registered = await call('POST', '/v1/auth/passkey/register/complete', { credential: attestation, name: 'Virtual authenticator' });
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({ id: expect.any(String), name: 'Virtual authenticator', created_at: expect.any(String), last_used_at: null, device_type: 'singleDevice', backed_up: false });
    const row = await t.dataSource.getRepository(Passkey).findOneByOrFail({ id: registered.body.id });
    expect(row.userId).toBe(userId);
    expect(row.credentialId).toBe(attestation.id);
    expect((await call('GET', '/v1/auth/passkeys')).body).toEqual({ passkeys: [registered.body] });

    expect((await call('POST', '/v1/auth/sign-out', {})).status).toBe(204);
    expect((await call('GET', '/v1/auth/me')).body).toEqual({ user: null });

    // Sign-in by email: allowCredentials names the registered credential.
    const byEmail = await call('POST', '/v1/auth/passkey/authenticate/begin', { email });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.allowCredentials).toEqual([{ id: row.credentialId, type: 'public-key', transports: row.transports }]);
    const assertion = await page.evaluate((options) => (globalThis as unknown as PageApi).SimpleWebAuthnBrowser.startAuthentication({ optionsJSON: options }), byEmail.body);
    const signedIn = await call('POST', '/v1/auth/passkey/authenticate/complete', { credential: assertion });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({ user: { id: userId, email }, session: { id: expect.any(String), access_token: expect.any(String) } });
    expect((await call('GET', '/v1/auth/me')).body.user).toEqual({ id: userId, email, is_admin: false });
    // The same assertion again is a replay.
    const replay = await call('POST', '/v1/auth/passkey/authenticate/complete', { credential: assertion });
    expect(replay.status).toBe(401);
    expect(replay.body.type).toBe('https://gatehouse.dev/problems/invalid-credentials');

    expect((await call('POST', '/v1/auth/sign-out', {})).status).toBe(204);
    expect((await call('GET', '/v1/auth/me')).body).toEqual({ user: null });

    // Discoverable credential: no email, empty allowCredentials, the authenticator names the user.
    const discoverable = await call('POST', '/v1/auth/passkey/authenticate/begin', {});
    expect(discoverable.body.allowCredentials).toEqual([]);
    const resident = await page.evaluate((options) => (globalThis as unknown as PageApi).SimpleWebAuthnBrowser.startAuthentication({ optionsJSON: options }), discoverable.body);
    expect(resident.response).toEqual(expect.objectContaining({ userHandle: Buffer.from(userId).toString('base64url') }));
    const signedIn2 = await call('POST', '/v1/auth/passkey/authenticate/complete', { credential: resident });
    expect(signedIn2.status).toBe(200);
    expect(signedIn2.body.user).toEqual({ id: userId, email });
    expect((await call('GET', '/v1/auth/me')).body.user).toEqual({ id: userId, email, is_admin: false });

    expect(await t.dataSource.getRepository(Session).countBy({ userId, authMethod: 'passkey' })).toBe(2);
    const used = await t.dataSource.getRepository(Passkey).findOneByOrFail({ id: registered.body.id });
    expect(used.lastUsedAt).toBeInstanceOf(Date);

    // Whoever signed up never proved the address. Its owner resets the password from the mail: the
    // passkey in this browser and the browser's session end with the claim (docs/security.md).
    const forgot = await t.http().post('/v1/auth/password/forgot').set('X-Service-Project-Key', tenant.projectKey).send({ email });
    expect(forgot.status).toBe(202);
    await t.app.get(BackgroundTasks).drain();
    const token = linkIn(await smtp.waitFor(email)).searchParams.get('token');
    const reset = await t.http().post('/v1/auth/password/reset').set('X-Service-Project-Key', tenant.projectKey).send({ token, password: 'the rightful owner 77' });
    expect(reset.status).toBe(200);
    expect((await call('GET', '/v1/auth/me')).body).toEqual({ user: null });
    const afterClaim = await call('POST', '/v1/auth/passkey/authenticate/begin', {});
    const stale = await page.evaluate((options) => (globalThis as unknown as PageApi).SimpleWebAuthnBrowser.startAuthentication({ optionsJSON: options }), afterClaim.body);
    expect(stale.id).toBe(row.credentialId);
    const refused = await call('POST', '/v1/auth/passkey/authenticate/complete', { credential: stale });
    expect(refused.status).toBe(401);
    expect(refused.body.type).toBe('https://gatehouse.dev/problems/invalid-credentials');
    expect(await t.dataSource.getRepository(Passkey).countBy({ userId })).toBe(0);
  }, 90_000);
});
