import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Response } from 'supertest';
import { AuditEvent, User } from '@gatehouse/entities';
import { ProjectsCache, sealOAuthSecret } from '@gatehouse/identity';
import {
  APP_ORIGIN,
  APP_REDIRECT,
  cookiesOf,
  countRows,
  expectProblem,
  linkIn,
  MessageParties,
  mintAccessToken,
  nextIp,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the settings and the import go through the real admin API
import { buildControlPlane } from '../../control-plane/src/app-factory';
import { buildAuthRuntime } from '../src/app-factory';
import { AccountClaimsService } from '../src/claims/account-claims.service';
import { BackgroundTasks } from '../src/common/background-tasks';
import {
  CookieJar,
  loginAtProvider,
  startOidcIdp,
  type OidcIdp,
} from './support/oauth/test-providers';
import { SoftAuthenticator } from './support/soft-authenticator';
import { oathtool } from './support/totp';

const SECRET = `whsec_${Buffer.from('the old system shares this secret!!').toString('base64')}`;
const GOOGLE = { clientId: 'google-client.apps.example', secret: 'google-client-secret' };
const VICTIM = 'victim@legacy.test';
/** What the old system still accepts for VICTIM: a squatter registered the address there, unverified. */
const SQUATTER_PASSWORD = 'the squatter set this one up in the old system';
const OWNER_PASSWORD = 'the owner chose this one 9';
const WRONG = {
  detail: 'The identifier or password is incorrect.',
  title: 'Invalid Credentials',
  type: 'https://gatehouse.dev/problems/invalid-credentials',
  status: 401,
};

/**
 * The old system on loopback: it accepts the squatter's password for any email. `refuseAfterMs`
 * makes it refuse everything that late (a slow old system); `hold()` keeps its answers until
 * `release()` (a call in flight while something else happens here).
 */
class OldSystem {
  readonly requests: { email: string; password: string }[] = [];
  refuseAfterMs: number | null = null;
  private held: (() => void)[] | null = null;
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as {
        email: string;
        password: string;
      };
      this.requests.push(body);
      const answer = (status: number, json: object) => () => {
        if (res.destroyed) return;
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      const send =
        body.password === SQUATTER_PASSWORD && this.refuseAfterMs === null
          ? answer(200, { user: { email: body.email } })
          : answer(401, {});
      if (this.held) this.held.push(send);
      else if (this.refuseAfterMs !== null) setTimeout(send, this.refuseAfterMs);
      else send();
    });
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/verify`;
  }
  hold(): void {
    this.held = [];
  }
  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const send of held) send();
  }
  async waitForCall(): Promise<void> {
    for (let i = 0; i < 300 && this.requests.length === 0; i += 1) await sleep(50);
    if (!this.requests.length) throw new Error('the old system was never called');
  }
  clear(): void {
    this.requests.length = 0;
    this.refuseAfterMs = null;
    this.release();
  }
  async stop(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Lazy migration asks the old system only about a user who has never been used here (docs/security.md
 * §8). The attack: the old system still accepts a squatter's password for someone else's address;
 * the admin imports that address without a hash; its real owner takes the account here (a magic
 * link, a reset, a social sign-in, a passkey, TOTP); the squatter's old password must not sign into
 * the owner's account afterwards, and the old system is not even asked.
 */
describe('lazy migration never revives a password after the account was used here', () => {
  const legacy = new OldSystem();
  const parties = new MessageParties();
  let idp: OidcIdp;
  let runtime: TestApp;
  let cp: TestApp;
  let tenant: SeededTenant;
  let adminToken: string;

  const post = (path: string, body: object, token?: string) => {
    const req = runtime
      .http()
      .post(path)
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('X-Forwarded-For', nextIp());
    return (token ? req.set('Authorization', `Bearer ${token}`) : req).send(body);
  };
  const signIn = (identifier: string, password: string) =>
    post('/v1/auth/sign-in', { identifier, password });
  const me = async (token: string) =>
    (
      await runtime
        .http()
        .get('/v1/auth/me')
        .set('X-Service-Project-Key', tenant.projectKey)
        .set('Authorization', `Bearer ${token}`)
    ).body as { user: { id: string } | null };
  const count = (sql: string, params: unknown[]) => countRows(runtime, sql, params);
  const userOf = (email: string) =>
    runtime.dataSource.getRepository(User).findOneByOrFail({ email });
  const liveSessions = (userId: string) =>
    count('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1 AND revoked_at IS NULL', [
      userId,
    ]);

  /** Imports one user through the real admin API, without a password hash: their password is in the old system. */
  async function importWithoutHash(line: Record<string, unknown>): Promise<User> {
    const res = await cp
      .http()
      .post(`/v1/admin/projects/${tenant.project.id}/users/import`)
      .set('Authorization', `Bearer ${adminToken}`)
      .set('Content-Type', 'application/x-ndjson')
      .send(JSON.stringify(line) + '\n');
    expect(res.body).toEqual({
      counts: { created: 1, updated: 0, skipped: 0, conflicts: 0, rejected: 0 },
      errors: [],
    });
    const user = await userOf(line.email as string);
    expect(user.needsMigration).toBe(true);
    return user;
  }

  /** The magic link mailed to `email` (through the real worker and SMTP server). */
  async function mailedMagicLink(email: string): Promise<string> {
    parties.smtp.clear();
    expect((await post('/v1/auth/magic-link/send', { email })).status).toBe(202);
    await runtime.app.get(BackgroundTasks).drain();
    const link = linkIn(await parties.smtp.waitFor(email));
    return `${link.pathname}${link.search}`;
  }

  /** Opens the link: the owner's session (access token). */
  async function openMagicLink(path: string): Promise<string> {
    const res = await runtime.http().get(path);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(APP_REDIRECT);
    return cookiesOf(res).service_session.value;
  }

  /** Google sign-in through the real oidc-provider: the callback's answer. */
  async function googleSignIn(subject: string, claims: Record<string, unknown>): Promise<Response> {
    const started = await runtime
      .http()
      .get(
        `/v1/auth/oauth/google/authorize?${new URLSearchParams({ project_key: tenant.projectKey, redirect_url: APP_REDIRECT }).toString()}`,
      );
    expect(started.status).toBe(302);
    const binding = cookiesOf(started).service_oauth_binding.value;
    const ret = await loginAtProvider(
      started.headers.location,
      { account: subject, claims },
      new CookieJar(),
    );
    if (ret.method !== 'GET') throw new Error('google answers with a redirect');
    return runtime
      .http()
      .get(`/v1/auth/oauth/callback${ret.search}`)
      .set('Cookie', `service_oauth_binding=${binding}`);
  }

  /**
   * The squatter's old password for the owner's account: the answer of any wrong password, the old
   * system not asked, no password stored, no session, the owner's `sessions` live sessions untouched.
   */
  async function expectSquatterRefused(
    user: User,
    owner: { sessions: number; password: boolean; tokens: string[] },
  ): Promise<void> {
    const res = await signIn(VICTIM, SQUATTER_PASSWORD);
    expect(expectProblem(res, 401, 'invalid-credentials', '/v1/auth/sign-in')).toEqual({
      ...WRONG,
      instance: '/v1/auth/sign-in',
      traceId: expect.any(String),
    });
    expect(cookiesOf(res)).toEqual({});
    expect(legacy.requests).toEqual([]);
    expect(
      await count('SELECT count(*)::int AS n FROM password_credentials WHERE user_id = $1', [
        user.id,
      ]),
    ).toBe(owner.password ? 1 : 0);
    expect((await userOf(VICTIM)).needsMigration).toBe(false);
    expect(await liveSessions(user.id)).toBe(owner.sessions);
    for (const token of owner.tokens) expect((await me(token)).user?.id).toBe(user.id);
    const failure = await runtime.dataSource
      .getRepository(AuditEvent)
      .find({ where: { action: 'user.sign_in_failed' }, order: { createdAt: 'DESC' }, take: 1 });
    expect(failure.map((e) => [e.metadata.identifier, e.metadata.reason])).toEqual([
      [VICTIM, 'invalid_credentials'],
    ]);
  }

  beforeAll(async () => {
    await legacy.start();
    await parties.start();
    idp = await startOidcIdp([
      {
        name: 'google',
        clientId: GOOGLE.clientId,
        clientSecret: GOOGLE.secret,
        routes: {
          authorization: '/o/oauth2/v2/auth',
          token: '/token',
          userinfo: '/v1/userinfo',
          jwks: '/oauth2/v3/certs',
        },
        scopes: ['email', 'profile'],
      },
    ]);
    runtime = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
    cp = await startTestApp(buildControlPlane, { TRUST_PROXY: 'loopback' });
  }, 60_000);
  beforeEach(async () => {
    legacy.clear();
    await runtime.reset();
    parties.clear();
    tenant = await seedTenant(cp.app);
    adminToken = (await mintAccessToken(cp.app, tenant.adminUserId)).token;
    const patched = await cp
      .http()
      .patch(`/v1/admin/projects/${tenant.project.id}`)
      .set('Authorization', `Bearer ${adminToken}`)
      .send({
        settings: {
          password_migration: { enabled: true, url: legacy.url, secret: SECRET, timeout_ms: 5000 },
        },
      });
    expect(patched.status).toBe(200);
    const google = idp.issuers.google;
    const providers = {
      google: {
        enabled: true,
        client_id: GOOGLE.clientId,
        client_secret_encrypted: sealOAuthSecret(
          runtime.config,
          tenant.project.id,
          'google',
          'client_secret',
          GOOGLE.secret,
        ),
        issuer: google,
        authorization_url: `${google}/o/oauth2/v2/auth`,
        token_url: `${google}/token`,
        userinfo_url: `${google}/v1/userinfo`,
      },
    };
    await runtime.dataSource.query(
      `UPDATE projects SET settings = settings || jsonb_build_object('oauth_providers', $1::jsonb) WHERE id = $2`,
      [JSON.stringify(providers), tenant.project.id],
    );
    await runtime.app
      .get(ProjectsCache)
      .invalidateProject({ id: tenant.project.id, publishableKey: tenant.projectKey });
  });
  afterAll(async () => {
    await runtime?.close();
    await cp?.close();
    idp?.stop();
    await parties.stop();
    await legacy.stop();
  });

  it("import without hash, the owner claims by magic link: the squatter's old password is refused as any wrong password (no quicker), the old system is never asked, the owner's session lives", async () => {
    const victim = await importWithoutHash({ email: VICTIM, external_id: 'legacy-1' });
    // The project's recent calls to the old system took ≥ 600 ms (every wrong password is padded to one of them).
    legacy.refuseAfterMs = 600;
    expectProblem(
      await signIn('someone.else@legacy.test', 'a wrong password'),
      401,
      'invalid-credentials',
    );
    legacy.clear();

    const session = await openMagicLink(await mailedMagicLink(VICTIM));
    const claimed = await userOf(VICTIM);
    expect([claimed.emailVerified, claimed.securityStamp]).toEqual([true, 1]);

    const started = Date.now();
    await expectSquatterRefused(victim, { sessions: 1, password: false, tokens: [session] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    // Not once, and not later: the account's migration ended with the claim.
    await expectSquatterRefused(victim, { sessions: 1, password: false, tokens: [session] });
  });

  it("the owner resets the password of an imported user without hash: the squatter's old password is refused and the old system never asked; the owner's password signs in", async () => {
    const victim = await importWithoutHash({ email: VICTIM });
    expect((await post('/v1/auth/password/forgot', { email: VICTIM })).status).toBe(202);
    await runtime.app.get(BackgroundTasks).drain();
    const token = linkIn(await parties.smtp.waitFor(VICTIM)).searchParams.get('token');
    expect(
      (await post('/v1/auth/password/reset', { token, password: OWNER_PASSWORD })).status,
    ).toBe(200);

    await expectSquatterRefused(victim, { sessions: 0, password: true, tokens: [] });
    const owner = await signIn(VICTIM, OWNER_PASSWORD);
    expect(owner.status).toBe(200);
    expect(owner.body.user.id).toBe(victim.id);
    expect(legacy.requests).toEqual([]);
  });

  it("the owner signs in with Google (a claim of an unverified import, a plain sign-in of a verified one): the squatter's old password is refused and the old system never asked", async () => {
    // Unverified: the owner's verified Google sign-in claims the account.
    const victim = await importWithoutHash({ email: VICTIM });
    const claim = await googleSignIn('owner-google-sub', { email: VICTIM, email_verified: true });
    expect(claim.headers.location).toBe(APP_REDIRECT);
    const session = cookiesOf(claim).service_session.value;
    expect((await userOf(VICTIM)).securityStamp).toBe(1);
    await expectSquatterRefused(victim, { sessions: 1, password: false, tokens: [session] });

    // Verified at import, and its Google identity imported with it: the owner's sign-in ends the migration (nothing is claimed).
    await runtime.dataSource.query('DELETE FROM users WHERE id = $1', [victim.id]);
    const verified = await importWithoutHash({
      email: VICTIM,
      email_verified: true,
      identities: [{ provider: 'google', subject: 'owner-google-sub-2', email: VICTIM }],
    });
    const signedIn = await googleSignIn('owner-google-sub-2', {
      email: VICTIM,
      email_verified: true,
    });
    expect(signedIn.headers.location).toBe(APP_REDIRECT);
    expect((await userOf(VICTIM)).securityStamp).toBe(0);
    await expectSquatterRefused(verified, {
      sessions: 1,
      password: false,
      tokens: [cookiesOf(signedIn).service_session.value],
    });
  });

  it("an imported user who signs in only by magic link and passkey, with a passkey and TOTP enrolled, is never migrated afterwards; the squatter's old password is refused without asking the old system", async () => {
    const victim = await importWithoutHash({ email: VICTIM, email_verified: true });
    const first = await openMagicLink(await mailedMagicLink(VICTIM));
    const authenticator = new SoftAuthenticator(APP_ORIGIN, 'app.example.com');
    const begin = await post('/v1/auth/passkey/register/begin', {}, first);
    expect(
      (
        await post(
          '/v1/auth/passkey/register/complete',
          { credential: authenticator.attest(begin.body) },
          first,
        )
      ).status,
    ).toBe(201);
    const totp = await post('/v1/auth/mfa/totp/setup', {}, first);
    expect(
      (await post('/v1/auth/mfa/totp/verify', { code: oathtool(totp.body.secret, runtime) }, first))
        .status,
    ).toBe(200);
    expect((await post('/v1/auth/sign-out', {}, first)).status).toBe(204);
    const options = await post('/v1/auth/passkey/authenticate/begin', {});
    const byPasskey = await post('/v1/auth/passkey/authenticate/complete', {
      credential: authenticator.assert(options.body),
    });
    expect(byPasskey.status).toBe(200);

    await expectSquatterRefused(victim, {
      sessions: 1,
      password: false,
      tokens: [byPasskey.body.session.access_token],
    });
    expect(
      await count(
        `SELECT count(*)::int AS n FROM mfa_factors WHERE user_id = $1 AND type = 'totp' AND status = 'enabled'`,
        [victim.id],
      ),
    ).toBe(1);
    expect(
      await count('SELECT count(*)::int AS n FROM passkeys WHERE user_id = $1', [victim.id]),
    ).toBe(1);
  });

  it('a user imported without hash and never used here still migrates, a magic link mailed but not opened and a wrong password before notwithstanding', async () => {
    const linus = await importWithoutHash({ email: VICTIM, external_id: 'legacy-7' });
    await mailedMagicLink(VICTIM);
    expectProblem(await signIn(VICTIM, 'not the old password'), 401, 'invalid-credentials');
    const res = await signIn(VICTIM, SQUATTER_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: { id: linus.id, email: VICTIM },
      session: { id: expect.any(String), access_token: expect.any(String) },
    });
    expect((await me(res.body.session.access_token as string)).user?.id).toBe(linus.id);
    expect(legacy.requests.map((r) => r.email)).toEqual([VICTIM, VICTIM]);
    expect((await userOf(VICTIM)).needsMigration).toBe(false);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM password_credentials WHERE user_id = $1 AND scheme = 'bcrypt-sha256'`,
        [linus.id],
      ),
    ).toBe(1);
  });

  it('first sign-ins of a user imported without hash at once (a double click) all sign in, with one password stored', async () => {
    const linus = await importWithoutHash({ email: VICTIM });
    const results = await Promise.all([0, 1, 2].map(() => signIn(VICTIM, SQUATTER_PASSWORD)));
    expect(results.map((r) => [r.status, r.body.user?.id])).toEqual([
      [200, linus.id],
      [200, linus.id],
      [200, linus.id],
    ]);
    expect(legacy.requests.length).toBeGreaterThanOrEqual(1);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM password_credentials WHERE user_id = $1 AND scheme = 'bcrypt-sha256'`,
        [linus.id],
      ),
    ).toBe(1);
    expect(await liveSessions(linus.id)).toBe(3);
    expect((await userOf(VICTIM)).needsMigration).toBe(false);
  });

  it('a claim in progress: the migration sign-in waits for it, then refuses without asking the old system', async () => {
    const victim = await importWithoutHash({ email: VICTIM });
    const project = (await runtime.app.get(ProjectsCache).byId(tenant.project.id))!;
    const claim = runtime.dataSource.createQueryRunner();
    await claim.connect();
    await claim.startTransaction();
    try {
      const user = await runtime.dataSource.getRepository(User).findOneByOrFail({ id: victim.id });
      expect(
        await runtime.app
          .get(AccountClaimsService)
          .claimIfUnverified(
            claim.manager,
            project,
            user,
            { method: 'magic_link' },
            { ip: null, userAgent: null },
          ),
      ).not.toBeNull();
      // (`then` sends the request now: supertest sends nothing until it is awaited.)
      const squatter = signIn(VICTIM, SQUATTER_PASSWORD).then((r) => r);
      await sleep(700); // long enough to reach the claim's lock
      await claim.commitTransaction();
      expect(expectProblem(await squatter, 401, 'invalid-credentials', '/v1/auth/sign-in')).toEqual(
        { ...WRONG, instance: '/v1/auth/sign-in', traceId: expect.any(String) },
      );
    } finally {
      if (claim.isTransactionActive) await claim.rollbackTransaction();
      await claim.release();
    }
    expect(legacy.requests).toEqual([]);
    expect(
      await count('SELECT count(*)::int AS n FROM password_credentials WHERE user_id = $1', [
        victim.id,
      ]),
    ).toBe(0);
    expect(
      await count('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [victim.id]),
    ).toBe(0);
  });

  it("the owner's claim lands while the old system's answer is in flight: the squatter is refused and no password is stored", async () => {
    const victim = await importWithoutHash({ email: VICTIM });
    const link = await mailedMagicLink(VICTIM);
    legacy.hold();
    const squatter = signIn(VICTIM, SQUATTER_PASSWORD).then((r) => r);
    await legacy.waitForCall();
    const session = await openMagicLink(link);
    legacy.release(); // the old system says yes, after the owner took the account
    expect(expectProblem(await squatter, 401, 'invalid-credentials', '/v1/auth/sign-in')).toEqual({
      ...WRONG,
      instance: '/v1/auth/sign-in',
      traceId: expect.any(String),
    });
    expect(cookiesOf(await squatter)).toEqual({});
    expect(legacy.requests.map((r) => r.email)).toEqual([VICTIM]);
    expect(
      await count('SELECT count(*)::int AS n FROM password_credentials WHERE user_id = $1', [
        victim.id,
      ]),
    ).toBe(0);
    expect(await liveSessions(victim.id)).toBe(1);
    expect((await me(session)).user?.id).toBe(victim.id);
    legacy.clear();
    await expectSquatterRefused(victim, { sessions: 1, password: false, tokens: [session] });
  });

  it('migration sign-ins and a claim at once never end with the squatter signed in', async () => {
    const victim = await importWithoutHash({ email: VICTIM });
    const link = await mailedMagicLink(VICTIM);
    const [owner, ...squatters] = await Promise.all([
      runtime.http().get(link),
      signIn(VICTIM, SQUATTER_PASSWORD),
      signIn(VICTIM, SQUATTER_PASSWORD),
      signIn(VICTIM, SQUATTER_PASSWORD),
    ]);
    expect(owner.status).toBe(302);
    const session = cookiesOf(owner).service_session.value;
    for (const s of squatters) {
      if (s.status === 200)
        expect(await me(s.body.session.access_token as string)).toEqual({ user: null });
      else
        expect(expectProblem(s, 401, 'invalid-credentials', '/v1/auth/sign-in')).toEqual({
          ...WRONG,
          instance: '/v1/auth/sign-in',
          traceId: expect.any(String),
        });
    }
    expect(await liveSessions(victim.id)).toBe(1);
    expect((await me(session)).user?.id).toBe(victim.id);
    expect(
      await count('SELECT count(*)::int AS n FROM password_credentials WHERE user_id = $1', [
        victim.id,
      ]),
    ).toBe(0);
    legacy.clear();
    await expectSquatterRefused(victim, { sessions: 1, password: false, tokens: [session] });
  });
});
