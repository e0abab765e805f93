import type { AddressInfo } from 'node:net';
import { Passkey, Session } from '@gatehouse/entities';
import { ProjectsCache } from '@gatehouse/identity';
import {
  linkIn,
  seedTenant,
  SmtpSink,
  spawnApp,
  startTestApp,
  type AppProcess,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';
import { BackgroundTasks } from '../src/common/background-tasks';
import { BrowserPasskeys } from './support/browser-passkeys';

interface CallResult {
  status: number;
  /** Parsed JSON, as loosely typed as JSON.parse. */
  body: ReturnType<typeof JSON.parse>;
}

/** What the test page adds on `window`: `call`, a fetch of the API with the page's cookies. */
interface PageApi {
  call(method: string, path: string, body?: unknown): Promise<CallResult>;
}

function pageScript(apiUrl: string, projectKey: string): string {
  return `
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
  };`;
}

/**
 * The real thing: headless Chromium with a CDP virtual authenticator runs @simplewebauthn/browser
 * on a page served from http://localhost:<port> (BrowserPasskeys), which calls the auth runtime on
 * another localhost port with fetch, cookies and CORS.
 */
describe('passkeys in a real browser', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let browser: BrowserPasskeys;
  let apiUrl: string;
  const smtp = new SmtpSink();
  let worker: AppProcess;

  const call = (method: string, path: string, body?: unknown) =>
    browser.page.evaluate(([m, p, b]) => (globalThis as unknown as PageApi).call(m, p, b), [
      method,
      path,
      body,
    ] as const);

  beforeAll(async () => {
    await smtp.start();
    worker = await spawnApp('webhook-worker', { SMTP_URL: smtp.url });
    t = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
    await t.app.listen(0, '127.0.0.1');
    apiUrl = `http://localhost:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await BrowserPasskeys.start();

    await t.reset();
    tenant = await seedTenant(t.app);
    await t.dataSource.query(
      `UPDATE projects SET allowed_origins = $2::jsonb, settings = settings || $3::jsonb WHERE id = $1`,
      [
        tenant.project.id,
        JSON.stringify([browser.origin]),
        JSON.stringify({ rp_id: 'localhost', rp_name: 'Gatehouse Browser Test' }),
      ],
    );
    await t.app
      .get(ProjectsCache)
      .invalidateProject({ id: tenant.project.id, publishableKey: tenant.projectKey });
    await browser.loadScript(pageScript(apiUrl, tenant.projectKey));
  }, 60_000);

  afterAll(async () => {
    await browser?.stop();
    await t?.close();
    await worker?.stop();
    await smtp.stop();
  });

  it('registers, signs out, signs in with the passkey by email, then with a discoverable credential; the owner of the address then claims the account and the passkey stops working', async () => {
    const email = 'browser@example.com';
    const signUp = await call('POST', '/v1/auth/sign-up', {
      email,
      password: 'a sturdy passphrase 42',
    });
    expect(signUp.status).toBe(201);
    const userId = signUp.body.user.id as string;
    expect((await call('GET', '/v1/auth/me')).body.user).toEqual({
      id: userId,
      email,
      is_admin: false,
      mfa_factors: [],
    });

    // Registration, authenticated by the session cookie from a cross-origin page.
    const regOptions = await call('POST', '/v1/auth/passkey/register/begin', {});
    expect(regOptions.status).toBe(200);
    expect(regOptions.body.rp).toEqual({ id: 'localhost', name: 'Gatehouse Browser Test' });
    const attestation = await browser.register(regOptions.body);
    const registered = await call('POST', '/v1/auth/passkey/register/complete', {
      credential: attestation,
      name: 'Virtual authenticator',
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({
      id: expect.any(String),
      name: 'Virtual authenticator',
      created_at: expect.any(String),
      last_used_at: null,
      device_type: 'singleDevice',
      backed_up: false,
    });
    const row = await t.dataSource
      .getRepository(Passkey)
      .findOneByOrFail({ id: registered.body.id });
    expect(row.userId).toBe(userId);
    expect(row.credentialId).toBe(attestation.id);
    expect((await call('GET', '/v1/auth/passkeys')).body).toEqual({ passkeys: [registered.body] });

    expect((await call('POST', '/v1/auth/sign-out', {})).status).toBe(204);
    expect((await call('GET', '/v1/auth/me')).body).toEqual({ user: null });

    // Sign-in by email: allowCredentials names the registered credential.
    const byEmail = await call('POST', '/v1/auth/passkey/authenticate/begin', { email });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.allowCredentials).toEqual([
      { id: row.credentialId, type: 'public-key', transports: row.transports },
    ]);
    const assertion = await browser.authenticate(byEmail.body);
    const signedIn = await call('POST', '/v1/auth/passkey/authenticate/complete', {
      credential: assertion,
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({
      user: { id: userId, email },
      session: { id: expect.any(String), access_token: expect.any(String) },
    });
    expect((await call('GET', '/v1/auth/me')).body.user).toEqual({
      id: userId,
      email,
      is_admin: false,
      mfa_factors: ['passkey'],
    });
    // The same assertion again is a replay.
    const replay = await call('POST', '/v1/auth/passkey/authenticate/complete', {
      credential: assertion,
    });
    expect(replay.status).toBe(401);
    expect(replay.body.type).toBe('https://gatehouse.dev/problems/invalid-credentials');

    expect((await call('POST', '/v1/auth/sign-out', {})).status).toBe(204);
    expect((await call('GET', '/v1/auth/me')).body).toEqual({ user: null });

    // Discoverable credential: no email, empty allowCredentials, the authenticator names the user.
    const discoverable = await call('POST', '/v1/auth/passkey/authenticate/begin', {});
    expect(discoverable.body.allowCredentials).toEqual([]);
    const resident = await browser.authenticate(discoverable.body);
    expect(resident.response).toEqual(
      expect.objectContaining({ userHandle: Buffer.from(userId).toString('base64url') }),
    );
    const signedIn2 = await call('POST', '/v1/auth/passkey/authenticate/complete', {
      credential: resident,
    });
    expect(signedIn2.status).toBe(200);
    expect(signedIn2.body.user).toEqual({ id: userId, email });
    expect((await call('GET', '/v1/auth/me')).body.user).toEqual({
      id: userId,
      email,
      is_admin: false,
      mfa_factors: ['passkey'],
    });

    expect(
      await t.dataSource.getRepository(Session).countBy({ userId, authMethod: 'passkey' }),
    ).toBe(2);
    const used = await t.dataSource
      .getRepository(Passkey)
      .findOneByOrFail({ id: registered.body.id });
    expect(used.lastUsedAt).toBeInstanceOf(Date);

    // Whoever signed up never proved the address. Its owner resets the password from the mail: the
    // passkey in this browser and the browser's session end with the claim (docs/security.md).
    const forgot = await t
      .http()
      .post('/v1/auth/password/forgot')
      .set('X-Service-Project-Key', tenant.projectKey)
      .send({ email });
    expect(forgot.status).toBe(202);
    await t.app.get(BackgroundTasks).drain();
    const token = linkIn(await smtp.waitFor(email)).searchParams.get('token');
    const reset = await t
      .http()
      .post('/v1/auth/password/reset')
      .set('X-Service-Project-Key', tenant.projectKey)
      .send({ token, password: 'the rightful owner 77' });
    expect(reset.status).toBe(200);
    expect((await call('GET', '/v1/auth/me')).body).toEqual({ user: null });
    const afterClaim = await call('POST', '/v1/auth/passkey/authenticate/begin', {});
    const stale = await browser.authenticate(afterClaim.body);
    expect(stale.id).toBe(row.credentialId);
    const refused = await call('POST', '/v1/auth/passkey/authenticate/complete', {
      credential: stale,
    });
    expect(refused.status).toBe(401);
    expect(refused.body.type).toBe('https://gatehouse.dev/problems/invalid-credentials');
    expect(await t.dataSource.getRepository(Passkey).countBy({ userId })).toBe(0);
  }, 90_000);
});
