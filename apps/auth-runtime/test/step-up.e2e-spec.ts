import type { Response } from 'supertest';
import { AuditEvent, OutboxEvent, User } from '@gatehouse/entities';
import { OneTimeTokensRepository, ProjectsCache } from '@gatehouse/identity';
import {
  APP_ORIGIN,
  cookiesOf,
  countRows,
  expectProblem,
  linkIn,
  MessageParties,
  postAs,
  seedTenant,
  signUpUser,
  startTestApp,
  type SeededTenant,
  type SignedUpUser,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';
import { BackgroundTasks } from '../src/common/background-tasks';
import { SoftAuthenticator } from './support/soft-authenticator';
import { oathtool } from './support/totp';

const RP_ID = 'app.example.com';
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    sid: string;
    auth_time: number;
    iat: number;
  };

/**
 * Step-up re-authentication (docs/security.md): an access token carries `auth_time`, refresh keeps
 * it, and sensitive self-service actions need it within the project's
 * `settings.reauthentication_max_age_seconds` (default 600 s). The test clock moves time.
 */
describe('step-up re-authentication and the account settings users expect', () => {
  const parties = new MessageParties();
  const { smtp, gateway } = parties;
  let t: TestApp;
  let tenant: SeededTenant;
  const key = () => tenant.projectKey;

  const post = (path: string, body: object, token?: string) => postAs(t, key(), path, body, token);
  const del = (path: string, token: string) =>
    t
      .http()
      .delete(path)
      .set('X-Service-Project-Key', key())
      .set('Authorization', `Bearer ${token}`);
  const totpCode = (secret: string) => oathtool(secret, t);
  const count = (sql: string, params: unknown[]) => countRows(t, sql, params);
  const expectStale = (res: Response, path: string) => {
    const body = expectProblem(res, 403, 'reauthentication-required', path);
    expect(body.max_age_seconds).toBe(600);
  };

  async function withTotp(u: SignedUpUser): Promise<{ secret: string; backupCodes: string[] }> {
    const setup = await post('/v1/auth/mfa/totp/setup', {}, u.accessToken);
    expect(
      (await post('/v1/auth/mfa/totp/verify', { code: totpCode(setup.body.secret) }, u.accessToken))
        .status,
    ).toBe(200);
    t.clock.advance(30_000);
    return { secret: setup.body.secret, backupCodes: setup.body.backup_codes };
  }

  beforeAll(async () => {
    await parties.start();
    t = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
  });
  beforeEach(async () => {
    await t.reset();
    parties.clear();
    tenant = await seedTenant(t.app);
  });
  afterAll(async () => {
    await t.close();
    await parties.stop();
  });

  it('carries auth_time in access tokens; refresh keeps it; every sensitive action needs it recent', async () => {
    const u = await signUpUser(t, key(), 'stale@example.com');
    const auth = new SoftAuthenticator(APP_ORIGIN, RP_ID);
    const begin = await post('/v1/auth/passkey/register/begin', {}, u.accessToken);
    const registered = await post(
      '/v1/auth/passkey/register/complete',
      { credential: auth.attest(begin.body) },
      u.accessToken,
    );
    expect(registered.status).toBe(201);
    await withTotp(u);
    const signedUpAt = claimsOf(u.accessToken).auth_time;
    expect(signedUpAt).toBe(claimsOf(u.accessToken).iat);

    t.clock.advance(600_000); // 630 s after sign-up: the access token lives 900 s, its auth_time is stale
    const refreshed = await post('/v1/auth/refresh', {}).set(
      'Cookie',
      `service_refresh_token=${u.refreshToken}`,
    );
    expect(refreshed.status).toBe(200);
    expect(claimsOf(refreshed.body.access_token).auth_time).toBe(signedUpAt);
    for (const token of [u.accessToken, refreshed.body.access_token as string]) {
      expectStale(
        await post('/v1/auth/passkey/register/begin', {}, token),
        '/v1/auth/passkey/register/begin',
      );
      expectStale(
        await post(
          '/v1/auth/passkey/register/complete',
          { credential: auth.attest(begin.body) },
          token,
        ),
        '/v1/auth/passkey/register/complete',
      );
      expectStale(
        await del(`/v1/auth/passkeys/${registered.body.id}`, token),
        `/v1/auth/passkeys/${registered.body.id}`,
      );
      expectStale(await post('/v1/auth/mfa/totp/setup', {}, token), '/v1/auth/mfa/totp/setup');
      expectStale(await del('/v1/auth/mfa/totp', token), '/v1/auth/mfa/totp');
      expectStale(
        await post('/v1/auth/mfa/sms/setup', { phone_number: '+14155550123' }, token),
        '/v1/auth/mfa/sms/setup',
      );
      expectStale(await del('/v1/auth/mfa/sms', token), '/v1/auth/mfa/sms');
      expectStale(
        await post('/v1/auth/mfa/backup-codes/regenerate', {}, token),
        '/v1/auth/mfa/backup-codes/regenerate',
      );
      expectStale(
        await post(
          '/v1/auth/password/change',
          { current_password: u.password, new_password: 'a different passphrase 8' },
          token,
        ),
        '/v1/auth/password/change',
      );
      expectStale(
        await post('/v1/auth/email/change', { email: 'new@example.com' }, token),
        '/v1/auth/email/change',
      );
    }
    // Nothing happened: the passkey and the factor are there, no mail or SMS went out, the password is the same.
    expect(await count('SELECT count(*)::int AS n FROM passkeys WHERE user_id = $1', [u.id])).toBe(
      1,
    );
    expect(
      await count(
        `SELECT count(*)::int AS n FROM mfa_factors WHERE user_id = $1 AND status = 'enabled'`,
        [u.id],
      ),
    ).toBe(1);
    expect(gateway.requests).toHaveLength(0);
    expect(
      (await post('/v1/auth/sign-in', { identifier: u.email, password: u.password })).status,
    ).toBe(200);
    // The rest of the API does not care how old the proof is.
    expect(
      (
        await t
          .http()
          .get('/v1/auth/sessions')
          .set('X-Service-Project-Key', key())
          .set('Authorization', `Bearer ${u.accessToken}`)
      ).status,
    ).toBe(200);
  });

  it('renews auth_time with the password: a fresh access token for the same session; wrong passwords count toward the lockout', async () => {
    const u = await signUpUser(t, key(), 'password@example.com');
    t.clock.advance(601_000);
    expectStale(
      await post('/v1/auth/mfa/totp/setup', {}, u.accessToken),
      '/v1/auth/mfa/totp/setup',
    );
    const before = Math.floor(t.clock.nowMs() / 1000);
    const res = await post('/v1/auth/reauthenticate', { password: u.password }, u.accessToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), expires_in: 900 });
    const claims = claimsOf(res.body.access_token);
    expect(claims.sid).toBe(u.sessionId);
    expect(claims.auth_time).toBeGreaterThanOrEqual(before);
    const cookies = cookiesOf(res);
    expect(cookies.service_session.value).toBe(res.body.access_token);
    expect(cookies.service_refresh_token).toBeUndefined();
    expect((await post('/v1/auth/mfa/totp/setup', {}, res.body.access_token)).status).toBe(200);
    // The old token still names the old proof.
    expectStale(
      await post('/v1/auth/mfa/totp/setup', {}, u.accessToken),
      '/v1/auth/mfa/totp/setup',
    );
    // The next refresh carries the new auth_time.
    const refreshed = await post('/v1/auth/refresh', {}).set(
      'Cookie',
      `service_refresh_token=${u.refreshToken}`,
    );
    expect(claimsOf(refreshed.body.access_token).auth_time).toBe(claims.auth_time);
    const event = await t.dataSource
      .getRepository(OutboxEvent)
      .findOneByOrFail({ type: 'session.reauthenticated' });
    expect(event.payload).toEqual({
      session: { id: u.sessionId, user_id: u.id },
      method: 'password',
    });

    for (let i = 0; i < 4; i++)
      expectProblem(
        await post(
          '/v1/auth/reauthenticate',
          { password: 'not my password at all' },
          u.accessToken,
        ),
        401,
        'invalid-credentials',
      );
    expectProblem(
      await post('/v1/auth/reauthenticate', { password: 'not my password at all' }, u.accessToken),
      401,
      'invalid-credentials',
    );
    expectProblem(
      await post('/v1/auth/reauthenticate', { password: u.password }, u.accessToken),
      429,
      'account-locked',
    );
    expectProblem(
      await post('/v1/auth/sign-in', { identifier: u.email, password: u.password }),
      429,
      'account-locked',
    );
  });

  it('renews auth_time with TOTP, a backup code, SMS or a passkey; wrong codes count toward the second-factor lockout', async () => {
    const u = await signUpUser(t, key(), 'factors@example.com');
    const { secret, backupCodes } = await withTotp(u);
    const auth = new SoftAuthenticator(APP_ORIGIN, RP_ID);
    const begin = await post('/v1/auth/passkey/register/begin', {}, u.accessToken);
    expect(
      (
        await post(
          '/v1/auth/passkey/register/complete',
          { credential: auth.attest(begin.body) },
          u.accessToken,
        )
      ).status,
    ).toBe(201);
    expect(
      (await post('/v1/auth/mfa/sms/setup', { phone_number: '+14155550177' }, u.accessToken))
        .status,
    ).toBe(202);
    expect(
      (await post('/v1/auth/mfa/sms/verify', { code: await parties.nextSmsCode() }, u.accessToken))
        .status,
    ).toBe(200);

    t.clock.advance(601_000);
    const totp = await post(
      '/v1/auth/reauthenticate',
      { factor: 'totp', code: totpCode(secret) },
      u.accessToken,
    );
    expect(totp.status).toBe(200);
    expect(
      await post('/v1/auth/mfa/backup-codes/regenerate', {}, totp.body.access_token).then(
        (r) => r.status,
      ),
    ).toBe(200);

    t.clock.advance(601_000);
    // The first access token has expired by now; the one re-authentication gave lives on.
    const token = totp.body.access_token as string;
    expectStale(
      await post('/v1/auth/mfa/backup-codes/regenerate', {}, token),
      '/v1/auth/mfa/backup-codes/regenerate',
    );
    // The backup codes were regenerated: the old ones are dead.
    expectProblem(
      await post('/v1/auth/reauthenticate', { factor: 'backup_code', code: backupCodes[0] }, token),
      401,
      'invalid-code',
    );
    expect((await post('/v1/auth/reauthenticate/sms', {}, token)).status).toBe(202);
    const sms = await post(
      '/v1/auth/reauthenticate',
      { factor: 'sms', code: await parties.nextSmsCode() },
      token,
    );
    expect(sms.status).toBe(200);

    const options = await post('/v1/auth/passkey/authenticate/begin', {});
    const passkey = await post(
      '/v1/auth/reauthenticate',
      { credential: auth.assert(options.body) },
      token,
    );
    expect(passkey.status).toBe(200);
    // Someone else's passkey proves nothing about this user.
    const other = await signUpUser(t, key(), 'other@example.com');
    const otherAuth = new SoftAuthenticator(APP_ORIGIN, RP_ID);
    const otherBegin = await post('/v1/auth/passkey/register/begin', {}, other.accessToken);
    expect(
      (
        await post(
          '/v1/auth/passkey/register/complete',
          { credential: otherAuth.attest(otherBegin.body) },
          other.accessToken,
        )
      ).status,
    ).toBe(201);
    const otherOptions = await post('/v1/auth/passkey/authenticate/begin', {});
    expectProblem(
      await post(
        '/v1/auth/reauthenticate',
        { credential: otherAuth.assert(otherOptions.body) },
        token,
      ),
      401,
      'invalid-credentials',
    );
    const methods = (
      await t.dataSource.getRepository(OutboxEvent).findBy({ type: 'session.reauthenticated' })
    )
      .map((e) => e.payload.method)
      .sort();
    expect(methods).toEqual(['mfa', 'mfa', 'passkey']);

    // (The right SMS code ended the streak of the wrong backup code.) Ten wrong codes lock the second factor, at sign-in too.
    for (let i = 0; i < 10; i++)
      expectProblem(
        await post('/v1/auth/reauthenticate', { factor: 'totp', code: '000000' }, token),
        401,
        'invalid-code',
      );
    t.clock.advance(30_000);
    expectProblem(
      await post('/v1/auth/reauthenticate', { factor: 'totp', code: totpCode(secret) }, token),
      429,
      'account-locked',
    );
    const challenge = await post('/v1/auth/sign-in', { identifier: u.email, password: u.password });
    expectProblem(
      await post('/v1/auth/mfa/verify', {
        mfa_token: challenge.body.mfa_token,
        factor: 'totp',
        code: totpCode(secret),
      }),
      429,
      'account-locked',
    );
  });

  it('refuses no proof, two proofs and half a factor with validation-error', async () => {
    const u = await signUpUser(t, key(), 'shapes@example.com');
    const cases: [object, string[]][] = [
      [{}, ['password']],
      [{ password: u.password, factor: 'totp', code: '123456' }, ['password', 'factor', 'code']],
      [{ password: u.password, credential: {} }, ['password', 'credential']],
      [{ factor: 'totp' }, ['code']],
      [{ code: '123456' }, ['factor']],
      [{ password: null }, ['password']],
      [{ factor: 'email', code: '123456' }, ['factor']],
      [{ password: u.password, extra: true }, ['extra']],
    ];
    for (const [body, fields] of cases) {
      const problem = expectProblem(
        await post('/v1/auth/reauthenticate', body, u.accessToken),
        400,
        'validation-error',
        '/v1/auth/reauthenticate',
      );
      expect([body, Object.keys(problem.errors as object).sort()]).toEqual([
        body,
        [...fields].sort(),
      ]);
    }
    expectProblem(
      await post('/v1/auth/reauthenticate', { factor: 'totp', code: '123456' }, u.accessToken),
      400,
      'validation-error',
    );
    // A passkey assertion of the wrong shape is refused like at passkey sign-in.
    const malformed = expectProblem(
      await post(
        '/v1/auth/reauthenticate',
        { credential: { id: 5, rawId: 'x', type: 'public-key' } },
        u.accessToken,
      ),
      400,
      'validation-error',
    );
    expect(Object.keys(malformed.errors as object)).toEqual(
      expect.arrayContaining(['credential.id', 'credential.response']),
    );
    expectProblem(
      await post('/v1/auth/reauthenticate', { password: u.password }),
      401,
      'unauthenticated',
    );
    expect(
      await t.dataSource.getRepository(AuditEvent).countBy({ action: 'session.reauthenticated' }),
    ).toBe(0);
  });

  it("follows the project's reauthentication_max_age_seconds", async () => {
    await t.dataSource.query(
      `UPDATE projects SET settings = settings || '{"reauthentication_max_age_seconds": 30}'::jsonb WHERE id = $1`,
      [tenant.project.id],
    );
    await t.app
      .get(ProjectsCache)
      .invalidateProject({ id: tenant.project.id, publishableKey: tenant.projectKey });
    const u = await signUpUser(t, key(), 'short@example.com');
    t.clock.advance(29_000);
    expect((await post('/v1/auth/mfa/totp/setup', {}, u.accessToken)).status).toBe(200);
    t.clock.advance(2_000);
    const body = expectProblem(
      await post('/v1/auth/mfa/totp/setup', {}, u.accessToken),
      403,
      'reauthentication-required',
    );
    expect(body.max_age_seconds).toBe(30);
  });

  it('changes the password: the current one proven, the new one checked, every other session ended', async () => {
    const u = await signUpUser(t, key(), 'change@example.com');
    const other = await post('/v1/auth/sign-in', { identifier: u.email, password: u.password });
    const weak = expectProblem(
      await post(
        '/v1/auth/password/change',
        { current_password: u.password, new_password: 'password' },
        u.accessToken,
      ),
      400,
      'validation-error',
    );
    expect(Object.keys(weak.errors as object)).toEqual(['new_password']);
    expectProblem(
      await post(
        '/v1/auth/password/change',
        { current_password: 'not the password 1', new_password: 'a different passphrase 8' },
        u.accessToken,
      ),
      401,
      'invalid-credentials',
    );
    const res = await post(
      '/v1/auth/password/change',
      { current_password: u.password, new_password: 'a different passphrase 8' },
      u.accessToken,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(
      (
        await t
          .http()
          .get('/v1/auth/me')
          .set('X-Service-Project-Key', key())
          .set('Authorization', `Bearer ${u.accessToken}`)
      ).body.user,
    ).toEqual(expect.objectContaining({ id: u.id }));
    expect(
      (
        await t
          .http()
          .get('/v1/auth/me')
          .set('X-Service-Project-Key', key())
          .set('Authorization', `Bearer ${other.body.session.access_token}`)
      ).body,
    ).toEqual({ user: null });
    expectProblem(
      await post('/v1/auth/sign-in', { identifier: u.email, password: u.password }),
      401,
      'invalid-credentials',
    );
    expect(
      (
        await post('/v1/auth/sign-in', {
          identifier: u.email,
          password: 'a different passphrase 8',
        })
      ).status,
    ).toBe(200);
    const changed = await t.dataSource
      .getRepository(OutboxEvent)
      .findOneByOrFail({ type: 'password.changed' });
    expect(changed.payload).toEqual({ user: { id: u.id, email: u.email }, sessions_revoked: 1 });
    const revoked = await t.dataSource
      .getRepository(OutboxEvent)
      .findBy({ type: 'session.revoked' });
    expect(revoked.map((e) => e.payload)).toEqual([
      { session: { id: other.body.session.id, user_id: u.id }, reason: 'password_changed' },
    ]);
  });

  it('changes the email once the new address confirms it; the old address is told; 409 when it was taken meanwhile', async () => {
    const u = await signUpUser(t, key(), 'old@example.com');
    expectProblem(
      await post('/v1/auth/email/change', { email: 'OLD@example.com' }, u.accessToken),
      400,
      'validation-error',
    );
    const res = await post('/v1/auth/email/change', { email: 'new@example.com' }, u.accessToken);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({});
    expect(res.headers['ratelimit-limit']).toBe('3');
    await t.app.get(BackgroundTasks).drain();
    const mail = await smtp.waitFor('new@example.com');
    expect(mail.subject).toContain('Confirm your new email');
    const token = linkIn(mail).searchParams.get('token');
    // Until it is confirmed, the account keeps its address.
    expect(
      (await post('/v1/auth/sign-in', { identifier: 'old@example.com', password: u.password }))
        .status,
    ).toBe(200);

    const confirmed = await post('/v1/auth/verify-email/confirm', { token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({
      user: { id: u.id, email: 'new@example.com', email_verified: true },
    });
    expectProblem(await post('/v1/auth/email/change/confirm', { token }), 400, 'invalid-token');
    const notice = await smtp.waitFor('old@example.com');
    expect(notice.text).toContain('new@example.com');
    expect(
      (await post('/v1/auth/sign-in', { identifier: 'new@example.com', password: u.password }))
        .status,
    ).toBe(200);
    expectProblem(
      await post('/v1/auth/sign-in', { identifier: 'old@example.com', password: u.password }),
      401,
      'invalid-credentials',
    );
    const updated = await t.dataSource
      .getRepository(OutboxEvent)
      .findOneByOrFail({ type: 'user.updated' });
    expect(updated.payload).toEqual({
      user: { id: u.id, email: 'new@example.com' },
      reason: 'email_changed',
      changes: { email: { from: 'old@example.com', to: 'new@example.com' }, email_verified: true },
    });

    // Taken between the request and the confirmation: 409, nothing changes, the link still works later.
    smtp.clear();
    expect(
      (await post('/v1/auth/email/change', { email: 'wanted@example.com' }, u.accessToken)).status,
    ).toBe(202);
    await t.app.get(BackgroundTasks).drain();
    const second = linkIn(await smtp.waitFor('wanted@example.com')).searchParams.get('token');
    const squatter = await signUpUser(t, key(), 'wanted@example.com');
    const taken = expectProblem(
      await post('/v1/auth/email/change/confirm', { token: second }),
      409,
      'conflict',
    );
    expect(taken.errors).toEqual({ email: ['is already registered'] });
    expect(
      await count(
        `SELECT count(*)::int AS n FROM users WHERE id = $1 AND email = 'new@example.com'`,
        [u.id],
      ),
    ).toBe(1);
    await t.dataSource.query('DELETE FROM users WHERE id = $1', [squatter.id]);
    expect((await post('/v1/auth/email/change/confirm', { token: second })).body.user.email).toBe(
      'wanted@example.com',
    );

    // Three requests an hour: the fourth is refused and mails nothing.
    expect(
      (await post('/v1/auth/email/change', { email: 'third@example.com' }, u.accessToken)).status,
    ).toBe(202);
    expectProblem(
      await post('/v1/auth/email/change', { email: 'fourth@example.com' }, u.accessToken),
      429,
      'rate-limited',
    );
  });

  it('an email change ends every link mailed to the old address, even one issued while the change was being confirmed', async () => {
    const u = await signUpUser(t, key(), 'before@example.com');
    // The old mailbox holds a reset link and a magic link (someone else may read it now).
    expect((await post('/v1/auth/password/forgot', { email: 'before@example.com' })).status).toBe(
      202,
    );
    expect((await post('/v1/auth/magic-link/send', { email: 'before@example.com' })).status).toBe(
      202,
    );
    await t.app.get(BackgroundTasks).drain();
    const tokenOf = async (subject: RegExp) =>
      linkIn(await smtp.waitFor('before@example.com', 15_000, subject)).searchParams.get('token')!;
    const reset = await tokenOf(/^Reset your/);
    const magic = await tokenOf(/^Your sign-in link/);

    expect(
      (await post('/v1/auth/email/change', { email: 'after@example.com' }, u.accessToken)).status,
    ).toBe(202);
    await t.app.get(BackgroundTasks).drain();
    const change = linkIn(await smtp.waitFor('after@example.com')).searchParams.get('token');
    expect((await post('/v1/auth/email/change/confirm', { token: change })).status).toBe(200);

    const magicRefused = async (token: string) => {
      const res = await t
        .http()
        .get(`/v1/auth/magic-link/verify?token=${token}&project_key=${key()}`);
      expect(res.status).toBe(302);
      expect(res.headers.location).toMatch(/[?&]error=invalid_token$/);
      expect(res.headers['set-cookie']).toBeUndefined();
    };
    expectProblem(
      await post('/v1/auth/password/reset/validate', { token: reset }),
      400,
      'invalid-token',
    );
    expectProblem(
      await post('/v1/auth/password/reset', {
        token: reset,
        password: 'taken over by the old box 1',
      }),
      400,
      'invalid-token',
    );
    await magicRefused(magic);

    // A forgot-password or magic-link request that read the account just before the change commits
    // mails its link to the old address after it: the link names that address and is refused too.
    const user = await t.dataSource.getRepository(User).findOneByOrFail({ id: u.id });
    const tokens = t.app.get(OneTimeTokensRepository);
    const late = (purpose: 'password-reset' | 'magic-link') =>
      tokens.issue(t.dataSource.manager, user, purpose, new Date(t.clock.nowMs() + 600_000), {
        email: 'before@example.com',
      });
    const lateReset = await late('password-reset');
    expectProblem(
      await post('/v1/auth/password/reset/validate', { token: lateReset }),
      400,
      'invalid-token',
    );
    expectProblem(
      await post('/v1/auth/password/reset', {
        token: lateReset,
        password: 'taken over by the old box 1',
      }),
      400,
      'invalid-token',
    );
    await magicRefused(await late('magic-link'));
    expect(
      (await post('/v1/auth/sign-in', { identifier: 'after@example.com', password: u.password }))
        .status,
    ).toBe(200);

    // Links mailed to the new address work.
    expect((await post('/v1/auth/password/forgot', { email: 'after@example.com' })).status).toBe(
      202,
    );
    await t.app.get(BackgroundTasks).drain();
    const fresh = linkIn(
      await smtp.waitFor('after@example.com', 15_000, /^Reset your/),
    ).searchParams.get('token');
    expect((await post('/v1/auth/password/reset/validate', { token: fresh })).status).toBe(200);
  });

  it('regenerates backup codes: ten new ones, the old ones dead; 409 without a second factor', async () => {
    const u = await signUpUser(t, key(), 'codes@example.com');
    expectProblem(
      await post('/v1/auth/mfa/backup-codes/regenerate', {}, u.accessToken),
      409,
      'conflict',
    );
    const { backupCodes } = await withTotp(u);
    const res = await post('/v1/auth/mfa/backup-codes/regenerate', {}, u.accessToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      backup_codes: expect.arrayContaining([expect.stringMatching(/^[a-z2-9]{5}-[a-z2-9]{5}$/)]),
    });
    expect(res.body.backup_codes).toHaveLength(10);
    expect(res.body.backup_codes.filter((c: string) => backupCodes.includes(c))).toEqual([]);
    const challenge = await post('/v1/auth/sign-in', { identifier: u.email, password: u.password });
    expectProblem(
      await post('/v1/auth/mfa/verify', {
        mfa_token: challenge.body.mfa_token,
        factor: 'backup_code',
        code: backupCodes[0],
      }),
      401,
      'invalid-code',
    );
    expect(
      (
        await post('/v1/auth/mfa/verify', {
          mfa_token: challenge.body.mfa_token,
          factor: 'backup_code',
          code: res.body.backup_codes[0],
        })
      ).status,
    ).toBe(200);
    expect(
      await t.dataSource
        .getRepository(OutboxEvent)
        .countBy({ type: 'mfa.backup_codes.regenerated' }),
    ).toBe(1);
  });
});
