import type { Response } from 'supertest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Response as ExpressResponse } from 'express';
import { OutboxEvent, User } from '@gatehouse/entities';
import { ProjectsCache, sealOAuthSecret } from '@gatehouse/identity';
import {
  APP_ORIGIN,
  APP_REDIRECT,
  cookiesOf,
  countRows,
  expectProblem,
  linkIn,
  MessageParties,
  postAs,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { AccountClaimsService } from '../src/claims/account-claims.service';
import { buildAuthRuntime } from '../src/app-factory';
import { BackgroundTasks } from '../src/common/background-tasks';
import { EmailVerificationService } from '../src/email-verification/email-verification.service';
import { PasswordChangeService } from '../src/passwords/password-change.service';
import {
  CookieJar,
  loginAtProvider,
  startOidcIdp,
  type OidcIdp,
} from './support/oauth/test-providers';
import { BrowserPasskeys } from './support/browser-passkeys';
import { oathtool } from './support/totp';

const GOOGLE = { clientId: 'google-client.apps.example', secret: 'google-client-secret' };
const VICTIM = 'victim@example.com';
const OWNER_PASSWORD = 'the owner chose this one 9';

/** What a squatter set up on an account at someone else's address, and how they would get back in. */
interface Squat {
  userId: string;
  accessToken: string;
  refreshToken: string;
  password: string | null;
  googleSubject: string | null;
  totpSecret: string;
  backupCodes: string[];
}

/**
 * Pre-account takeover (docs/security.md): someone creates an account at another person's address
 * before its owner does and sets up every credential there is: a passkey made in Chromium (virtual
 * authenticator), TOTP (codes from oathtool), SMS (the code a real gateway received), backup
 * codes, and an unverified Google identity (a real oidc-provider). Once the owner proves the
 * address (a password reset, a magic link, a social sign-in that asserts the email verified), none
 * of it may still work.
 */
describe('claiming an unverified account ends everything its creator set up', () => {
  const parties = new MessageParties();
  const smtp = parties.smtp;
  let idp: OidcIdp;
  let browser: BrowserPasskeys;
  let t: TestApp;
  let tenant: SeededTenant;
  const key = () => tenant.projectKey;

  const post = (path: string, body: object, token?: string) => postAs(t, key(), path, body, token);
  const me = async (token: string) =>
    (
      await t
        .http()
        .get('/v1/auth/me')
        .set('X-Service-Project-Key', key())
        .set('Authorization', `Bearer ${token}`)
    ).body as { user: unknown };
  const count = (sql: string, params: unknown[]) => countRows(t, sql, params);

  beforeAll(async () => {
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
    t = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
    browser = await BrowserPasskeys.start();
  }, 60_000);
  beforeEach(async () => {
    await t.reset();
    parties.clear();
    tenant = await seedTenant(t.app);
    const google = idp.issuers.google;
    const providers = {
      google: {
        enabled: true,
        client_id: GOOGLE.clientId,
        client_secret_encrypted: sealOAuthSecret(
          t.config,
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
    await t.dataSource.query(
      `UPDATE projects SET allowed_origins = $3::jsonb, settings = settings || jsonb_build_object('oauth_providers', $1::jsonb, 'rp_id', 'localhost') WHERE id = $2`,
      [JSON.stringify(providers), tenant.project.id, JSON.stringify([APP_ORIGIN, browser.origin])],
    );
    await t.app
      .get(ProjectsCache)
      .invalidateProject({ id: tenant.project.id, publishableKey: tenant.projectKey });
    await browser.newAuthenticator(); // the squatter's own device
  });
  afterAll(async () => {
    await browser?.stop();
    await t.close();
    idp.stop();
    await parties.stop();
  });

  /** Google sign-in through the real provider: the callback's answer. */
  async function googleSignIn(subject: string, claims: Record<string, unknown>): Promise<Response> {
    const started = await t
      .http()
      .get(
        `/v1/auth/oauth/google/authorize?${new URLSearchParams({ project_key: key(), redirect_url: APP_REDIRECT }).toString()}`,
      );
    expect(started.status).toBe(302);
    const binding = cookiesOf(started).service_oauth_binding.value;
    const ret = await loginAtProvider(
      started.headers.location,
      { account: subject, claims },
      new CookieJar(),
    );
    if (ret.method !== 'GET') throw new Error('google answers with a redirect');
    return t
      .http()
      .get(`/v1/auth/oauth/callback${ret.search}`)
      .set('Cookie', `service_oauth_binding=${binding}`);
  }

  /** The squatter's account at VICTIM: by password or by an unverified Google identity, then a passkey, TOTP and SMS. */
  async function squat(via: 'password' | 'google'): Promise<Squat> {
    let accessToken: string;
    let refreshToken: string;
    let userId: string;
    const password = via === 'password' ? 'the squatter knows this 1' : null;
    const googleSubject = via === 'google' ? 'squatter-google-sub' : null;
    if (password) {
      const res = await post('/v1/auth/sign-up', { email: VICTIM, password });
      expect(res.status).toBe(201);
      ({ access_token: accessToken, id: userId } = { ...res.body.session, id: res.body.user.id });
      refreshToken = cookiesOf(res).service_refresh_token.value;
    } else {
      // Google does not vouch for this address: the account is created, its email unverified.
      const res = await googleSignIn(googleSubject!, { email: VICTIM, email_verified: false });
      expect(new URL(res.headers.location).toString()).toBe(APP_REDIRECT);
      const cookies = cookiesOf(res);
      accessToken = cookies.service_session.value;
      refreshToken = cookies.service_refresh_token.value;
      userId = ((await me(accessToken)).user as { id: string }).id;
    }
    const begin = await post('/v1/auth/passkey/register/begin', {}, accessToken);
    expect(
      (
        await post(
          '/v1/auth/passkey/register/complete',
          { credential: await browser.register(begin.body) },
          accessToken,
        )
      ).status,
    ).toBe(201);
    const totp = await post('/v1/auth/mfa/totp/setup', {}, accessToken);
    expect(
      (await post('/v1/auth/mfa/totp/verify', { code: oathtool(totp.body.secret, t) }, accessToken))
        .status,
    ).toBe(200);
    t.clock.advance(30_000);
    expect(
      (await post('/v1/auth/mfa/sms/setup', { phone_number: '+14155550142' }, accessToken)).status,
    ).toBe(202);
    expect(
      (await post('/v1/auth/mfa/sms/verify', { code: await parties.nextSmsCode() }, accessToken))
        .status,
    ).toBe(200);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM mfa_factors WHERE user_id = $1 AND status = 'enabled'`,
        [userId],
      ),
    ).toBe(2);
    return {
      userId,
      accessToken,
      refreshToken,
      password,
      googleSubject,
      totpSecret: totp.body.secret,
      backupCodes: totp.body.backup_codes,
    };
  }

  /** Every way the squatter had in is closed, and the one claim event says what went. */
  async function expectSquatterLockedOut(
    s: Squat,
    proof: Record<string, unknown>,
    kept: { identities?: number; password?: boolean },
  ): Promise<void> {
    expect(await me(s.accessToken)).toEqual({ user: null });
    const refresh = await t
      .http()
      .post('/v1/auth/refresh')
      .set('X-Service-Project-Key', key())
      .set('Cookie', `service_refresh_token=${s.refreshToken}`);
    expectProblem(refresh, 401, 'unauthenticated');
    // The browser still holds the squatter's passkey and offers it; the server no longer knows it.
    const options = await post('/v1/auth/passkey/authenticate/begin', {});
    expectProblem(
      await post('/v1/auth/passkey/authenticate/complete', {
        credential: await browser.authenticate(options.body),
      }),
      401,
      'invalid-credentials',
    );
    if (s.password)
      expectProblem(
        await post('/v1/auth/sign-in', { identifier: VICTIM, password: s.password }),
        401,
        'invalid-credentials',
      );
    if (s.googleSubject) {
      const again = await googleSignIn(s.googleSubject, { email: VICTIM, email_verified: false });
      expect(new URL(again.headers.location).searchParams.get('error')).toBe('account_exists');
    }
    expect(
      await count('SELECT count(*)::int AS n FROM passkeys WHERE user_id = $1', [s.userId]),
    ).toBe(0);
    expect(
      await count('SELECT count(*)::int AS n FROM mfa_factors WHERE user_id = $1', [s.userId]),
    ).toBe(0);
    expect(
      await count('SELECT count(*)::int AS n FROM mfa_backup_codes WHERE user_id = $1', [s.userId]),
    ).toBe(0);
    expect(
      await count('SELECT count(*)::int AS n FROM oauth_identities WHERE user_id = $1', [s.userId]),
    ).toBe(kept.identities ?? 0);
    expect(
      await count('SELECT count(*)::int AS n FROM password_credentials WHERE user_id = $1', [
        s.userId,
      ]),
    ).toBe(kept.password ? 1 : 0);
    expect(
      await count('SELECT count(*)::int AS n FROM users WHERE id = $1 AND email_verified', [
        s.userId,
      ]),
    ).toBe(1);
    const claims = await t.dataSource.getRepository(OutboxEvent).findBy({ type: 'user.updated' });
    expect(claims.map((e) => e.payload)).toEqual([
      {
        user: { id: s.userId, email: VICTIM },
        reason: 'account_claimed',
        proof,
        changes: { email_verified: true },
        removed: {
          password: s.password !== null,
          passkeys: 1,
          identities: s.googleSubject ? [{ provider: 'google', subject: s.googleSubject }] : [],
          mfa_factors: ['sms', 'totp'],
          backup_codes: 10,
          sessions: 1,
        },
      },
    ]);
    const revoked = await t.dataSource
      .getRepository(OutboxEvent)
      .findBy({ type: 'session.revoked' });
    expect(revoked.map((e) => e.payload.reason)).toEqual(['account_claimed']);
  }

  it("a password reset by the owner ends a password squatter's passkey, TOTP, SMS, backup codes and sessions", async () => {
    const s = await squat('password');
    expect((await post('/v1/auth/password/forgot', { email: VICTIM })).status).toBe(202);
    await t.app.get(BackgroundTasks).drain();
    const token = linkIn(await smtp.waitFor(VICTIM)).searchParams.get('token');
    expect(
      (await post('/v1/auth/password/reset', { token, password: OWNER_PASSWORD })).status,
    ).toBe(200);

    await expectSquatterLockedOut(s, { method: 'password_reset' }, { password: true });
    // The reset's own credential stays: the owner signs in with it, straight to a session (no MFA left).
    const owner = await post('/v1/auth/sign-in', { identifier: VICTIM, password: OWNER_PASSWORD });
    expect(owner.status).toBe(200);
    expect(owner.body.user.id).toBe(s.userId);
    expect(owner.body.session.access_token).toEqual(expect.any(String));
    // The squatter's backup codes went with the factors.
    expect(owner.body.mfa_required).toBeUndefined();
  });

  it("a magic link by the owner ends a Google squatter's unverified identity, passkey, TOTP, SMS and sessions", async () => {
    const s = await squat('google');
    expect((await post('/v1/auth/magic-link/send', { email: VICTIM })).status).toBe(202);
    await t.app.get(BackgroundTasks).drain();
    const link = linkIn(await smtp.waitFor(VICTIM));
    const res = await t.http().get(`${link.pathname}${link.search}`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(APP_REDIRECT);
    const session = cookiesOf(res).service_session.value;

    await expectSquatterLockedOut(s, { method: 'magic_link' }, {});
    // The owner's session, started after the claim, is the one that lives.
    expect(await me(session)).toEqual(
      expect.objectContaining({
        user: { id: s.userId, email: VICTIM, is_admin: false, mfa_factors: [] },
        active_sessions: 1,
      }),
    );
  });

  it("a verified Google sign-in by the owner ends a password squatter's password, passkey, TOTP, SMS and sessions", async () => {
    const s = await squat('password');
    const res = await googleSignIn('owner-google-sub', { email: VICTIM, email_verified: true });
    expect(res.headers.location).toBe(APP_REDIRECT);
    await expectSquatterLockedOut(s, { method: 'oauth', provider: 'google' }, { identities: 1 });
    expect(await me(cookiesOf(res).service_session.value)).toEqual(
      expect.objectContaining({
        user: { id: s.userId, email: VICTIM, is_admin: false, mfa_factors: [] },
      }),
    );
    // The proving identity stays and signs the owner in again.
    const again = await googleSignIn('owner-google-sub', { email: VICTIM, email_verified: true });
    expect(again.headers.location).toBe(APP_REDIRECT);
  });

  it("a verified Google sign-in by the owner ends a Google squatter's unverified identity, passkey, TOTP, SMS and sessions", async () => {
    const s = await squat('google');
    const res = await googleSignIn('owner-google-sub', { email: VICTIM, email_verified: true });
    expect(res.headers.location).toBe(APP_REDIRECT);
    await expectSquatterLockedOut(s, { method: 'oauth', provider: 'google' }, { identities: 1 });
    const [identity] = await t.dataSource.query<{ subject: string }[]>(
      'SELECT subject FROM oauth_identities WHERE user_id = $1',
      [s.userId],
    );
    expect(identity.subject).toBe('owner-google-sub');
  });

  it("a claim in progress ends what the squatter's requests in flight would have written after it", async () => {
    const squatter = await post('/v1/auth/sign-up', {
      email: VICTIM,
      password: 'the squatter knows this 1',
    });
    expect(squatter.status).toBe(201);
    const caller = {
      sub: squatter.body.user.id as string,
      sid: squatter.body.session.id as string,
    };
    const project = (await t.app.get(ProjectsCache).byId(tenant.project.id))!;
    const meta = { ip: null, userAgent: null };
    // The owner's reset is claiming the account: its statements have run, its transaction is open.
    const claim = t.dataSource.createQueryRunner();
    await claim.connect();
    await claim.startTransaction();
    try {
      const user = await t.dataSource.getRepository(User).findOneByOrFail({ id: caller.sub });
      expect(
        await t.app
          .get(AccountClaimsService)
          .claimIfUnverified(claim.manager, project, user, { method: 'password_reset' }, meta),
      ).not.toBeNull();
      // Meanwhile requests the squatter started earlier reach their writes: a sign-in whose password
      // still checks out (the claim is not committed), and changes past their session check.
      // (`then` sends the request now: supertest sends nothing until it is awaited.)
      const signIn = post('/v1/auth/sign-in', {
        identifier: VICTIM,
        password: 'the squatter knows this 1',
      }).then((r) => r);
      const change = t.app
        .get(PasswordChangeService)
        .change(project, caller, 'the squatter knows this 1', 'the squatter keeps this 2', meta)
        .then(
          () => 'changed',
          (e: { slug?: string }) => e.slug,
        );
      const noRes = { setHeader: () => undefined } as unknown as ExpressResponse;
      const emailChange = t.app
        .get(EmailVerificationService)
        .requestChange(project, caller, 'squatter@evil.example', noRes)
        .then(
          () => 'requested',
          (e: { slug?: string }) => e.slug,
        );
      await sleep(700); // long enough for all three to reach the claim's lock
      await claim.commitTransaction();
      expectProblem(await signIn, 401, 'invalid-credentials');
      expect(await change).toBe('unauthenticated');
      expect(await emailChange).toBe('unauthenticated');
    } finally {
      if (claim.isTransactionActive) await claim.rollbackTransaction();
      await claim.release();
    }
    expect(
      await count(
        'SELECT count(*)::int AS n FROM sessions WHERE user_id = $1 AND revoked_at IS NULL',
        [caller.sub],
      ),
    ).toBe(0);
    expect(
      await count('SELECT count(*)::int AS n FROM password_credentials WHERE user_id = $1', [
        caller.sub,
      ]),
    ).toBe(0);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM one_time_tokens WHERE user_id = $1 AND consumed_at IS NULL`,
        [caller.sub],
      ),
    ).toBe(0);
    expectProblem(
      await post('/v1/auth/sign-in', { identifier: VICTIM, password: 'the squatter keeps this 2' }),
      401,
      'invalid-credentials',
    );
  });

  it('the identity that created an unverified account verifies it when its provider vouches for the address, and keeps everything', async () => {
    const s = await squat('google');
    const res = await googleSignIn(s.googleSubject!, { email: VICTIM, email_verified: true });
    expect(new URL(res.headers.location).searchParams.get('mfa_required')).toBe('true');
    expect(
      await count('SELECT count(*)::int AS n FROM users WHERE id = $1 AND email_verified', [
        s.userId,
      ]),
    ).toBe(1);
    expect(
      await count('SELECT count(*)::int AS n FROM passkeys WHERE user_id = $1', [s.userId]),
    ).toBe(1);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM mfa_factors WHERE user_id = $1 AND status = 'enabled'`,
        [s.userId],
      ),
    ).toBe(2);
    expect(await me(s.accessToken)).toEqual(
      expect.objectContaining({ user: expect.objectContaining({ id: s.userId }) }),
    );
    expect(await t.dataSource.getRepository(OutboxEvent).countBy({ type: 'user.updated' })).toBe(0);
    const verified = await t.dataSource
      .getRepository(OutboxEvent)
      .findBy({ type: 'email.verified' });
    expect(verified.map((e) => e.payload)).toEqual([
      { user: { id: s.userId, email: VICTIM }, method: 'oauth', provider: 'google' },
    ]);
  });

  it('a verified account keeps every credential through a reset, a magic link and a social sign-in', async () => {
    const s = await squat('password');
    await t.dataSource.query('UPDATE users SET email_verified = true WHERE id = $1', [s.userId]);
    expect((await post('/v1/auth/password/forgot', { email: VICTIM })).status).toBe(202);
    await t.app.get(BackgroundTasks).drain();
    const token = linkIn(await smtp.waitFor(VICTIM)).searchParams.get('token');
    expect(
      (await post('/v1/auth/password/reset', { token, password: OWNER_PASSWORD })).status,
    ).toBe(200);
    smtp.clear();
    expect((await post('/v1/auth/magic-link/send', { email: VICTIM })).status).toBe(202);
    await t.app.get(BackgroundTasks).drain();
    const link = linkIn(await smtp.waitFor(VICTIM));
    const magic = await t.http().get(`${link.pathname}${link.search}`);
    expect(new URL(magic.headers.location).searchParams.get('mfa_required')).toBe('true');
    const social = await googleSignIn('owner-google-sub', { email: VICTIM, email_verified: true });
    expect(new URL(social.headers.location).searchParams.get('mfa_required')).toBe('true');

    expect(
      await count('SELECT count(*)::int AS n FROM passkeys WHERE user_id = $1', [s.userId]),
    ).toBe(1);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM mfa_factors WHERE user_id = $1 AND status = 'enabled'`,
        [s.userId],
      ),
    ).toBe(2);
    expect(
      await count('SELECT count(*)::int AS n FROM mfa_backup_codes WHERE user_id = $1', [s.userId]),
    ).toBe(10);
    expect(
      await count('SELECT count(*)::int AS n FROM oauth_identities WHERE user_id = $1', [s.userId]),
    ).toBe(1);
    expect(await t.dataSource.getRepository(OutboxEvent).countBy({ type: 'user.updated' })).toBe(0);
    const options = await post('/v1/auth/passkey/authenticate/begin', {});
    expect(
      (
        await post('/v1/auth/passkey/authenticate/complete', {
          credential: await browser.authenticate(options.body),
        })
      ).status,
    ).toBe(200);
  });
});
