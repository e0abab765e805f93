import { DataSource } from 'typeorm';
import { AuditEvent, OutboxEvent, Session, User } from '@gatehouse/entities';
import { ProjectsCache } from '@gatehouse/identity';
import {
  APP_REDIRECT,
  cookiesOf,
  expectProblem,
  linkIn,
  nextIp,
  seedTenant,
  signUpUser,
  SmtpSink,
  spawnApp,
  startTestApp,
  type AppProcess,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { BackgroundTasks } from '../src/common/background-tasks';
import { buildAuthRuntime } from '../src/app-factory';

describe('email verification, password reset and magic links, with real mail delivery', () => {
  const smtp = new SmtpSink();
  let worker: AppProcess;
  let t: TestApp;
  let tenant: SeededTenant;
  const key = () => tenant.projectKey;
  const post = (path: string, body: object) =>
    t
      .http()
      .post(path)
      .set('X-Service-Project-Key', key())
      .set('X-Forwarded-For', nextIp())
      .send(body);
  const drain = () => t.app.get(BackgroundTasks).drain();

  beforeAll(async () => {
    await smtp.start();
    worker = await spawnApp('webhook-worker', {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Gatehouse <auth@gatehouse.test>',
    });
    t = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
  });
  beforeEach(async () => {
    await t.reset();
    smtp.clear();
    tenant = await seedTenant(t.app);
  });
  afterAll(async () => {
    await t.close();
    await worker.stop();
    await smtp.stop();
  });

  async function resetLink(email: string): Promise<string> {
    expect((await post('/v1/auth/password/forgot', { email })).status).toBe(202);
    await drain();
    const mail = await smtp.waitFor(email);
    const link = linkIn(mail);
    return link.searchParams.get('token')!;
  }

  it('resets a password through the mailed link: sessions revoked, no sign-in, old password dead, token single-use', async () => {
    const u = await signUpUser(t, key(), 'reset@example.com');
    // A verified account (an unverified one is claimed by the reset: account-claims.e2e-spec.ts).
    await t.dataSource.query('UPDATE users SET email_verified = true WHERE id = $1', [u.id]);
    const forgot = await post('/v1/auth/password/forgot', { email: 'reset@example.com' });
    expect(forgot.status).toBe(202);
    expect(forgot.body).toEqual({});
    await drain();
    const mail = await smtp.waitFor('reset@example.com');
    expect(mail.from?.text).toContain('auth@gatehouse.test');
    expect(mail.subject).toContain('Acme App');
    expect(mail.text).toContain('Acme App');
    expect(mail.html).toEqual(expect.stringContaining('Acme App'));
    const link = linkIn(mail);
    expect(`${link.origin}${link.pathname}`).toBe(APP_REDIRECT);
    const token = link.searchParams.get('token')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const validate = await post('/v1/auth/password/reset/validate', { token });
    expect(validate.status).toBe(200);
    expect(validate.body).toEqual({ valid: true, expires_at: expect.any(String) });
    expect(new Date(validate.body.expires_at).getTime()).toBeGreaterThan(Date.now() + 59 * 60_000);

    const weak = await post('/v1/auth/password/reset', { token, password: 'password' });
    expect(Object.keys(expectProblem(weak, 400, 'validation-error').errors as object)).toEqual([
      'password',
    ]);

    const reset = await post('/v1/auth/password/reset', {
      token,
      password: 'a brand new passphrase',
    });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({});
    expect(reset.headers['set-cookie']).toBeUndefined();

    expectProblem(
      await t
        .http()
        .get('/v1/auth/sessions')
        .set('X-Service-Project-Key', key())
        .set('Authorization', `Bearer ${u.accessToken}`),
      401,
      'unauthenticated',
    );
    expectProblem(
      await post('/v1/auth/refresh', {}).set('Cookie', `service_refresh_token=${u.refreshToken}`),
      401,
      'unauthenticated',
    );
    expectProblem(
      await post('/v1/auth/sign-in', { identifier: 'reset@example.com', password: u.password }),
      401,
      'invalid-credentials',
    );
    expect(
      (
        await post('/v1/auth/sign-in', {
          identifier: 'reset@example.com',
          password: 'a brand new passphrase',
        })
      ).status,
    ).toBe(200);
    expectProblem(
      await post('/v1/auth/password/reset', { token, password: 'another new passphrase' }),
      400,
      'invalid-token',
    );
    expectProblem(await post('/v1/auth/password/reset/validate', { token }), 400, 'invalid-token');

    const ds = t.app.get(DataSource);
    const revoked = await ds.getRepository(Session).findOneByOrFail({ id: u.sessionId });
    expect(revoked.revokeReason).toBe('password_reset');
    expect(await ds.getRepository(AuditEvent).countBy({ action: 'password.reset' })).toBe(1);
    expect(await ds.getRepository(OutboxEvent).countBy({ type: 'password.reset' })).toBe(1);
    const revocations = await ds.getRepository(OutboxEvent).findBy({ type: 'session.revoked' });
    expect(revocations.map((e) => (e.payload as { reason?: string }).reason)).toEqual([
      'password_reset',
    ]);
  });

  it('answers forgot the same way for unknown emails and sends nothing', async () => {
    await signUpUser(t, key(), 'known@example.com');
    const known = await post('/v1/auth/password/forgot', { email: 'known@example.com' });
    const unknown = await post('/v1/auth/password/forgot', { email: 'unknown@example.com' });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    await drain();
    await smtp.waitFor('known@example.com');
    await new Promise((r) => setTimeout(r, 500));
    expect(
      smtp.mails.filter((m) => JSON.stringify(m.to).includes('unknown@example.com')),
    ).toHaveLength(0);
  });

  it('takes email addresses as typed, surrounding spaces dropped: sign-up stores the trimmed address, forgot finds it', async () => {
    const res = await post('/v1/auth/sign-up', {
      email: '  Padded@Example.com\t',
      password: 'a sturdy passphrase 42',
    });
    expect(res.status).toBe(201);
    expect(res.body.user.email).toBe('Padded@Example.com');
    expect((await post('/v1/auth/password/forgot', { email: ' padded@example.com ' })).status).toBe(
      202,
    );
    await drain();
    expect(linkIn(await smtp.waitFor('padded@example.com')).searchParams.get('token')).toBeTruthy();
    expectProblem(await post('/v1/auth/password/forgot', { email: '  ' }), 400, 'validation-error');
  });

  it('limits forgot to 3 an hour per email', async () => {
    for (let i = 0; i < 3; i++)
      expect((await post('/v1/auth/password/forgot', { email: 'Limit@example.com' })).status).toBe(
        202,
      );
    const fourth = await post('/v1/auth/password/forgot', { email: 'LIMIT@EXAMPLE.COM' });
    expectProblem(fourth, 429, 'rate-limited', '/v1/auth/password/forgot');
    expect(fourth.headers['ratelimit-limit']).toBe('3');
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(3000);
  });

  it('builds links from configuration, never from a forged Host or X-Forwarded-Host', async () => {
    await signUpUser(t, key(), 'host@example.com');
    await t
      .http()
      .post('/v1/auth/password/forgot')
      .set('X-Service-Project-Key', key())
      .set('Host', 'evil.example')
      .set('X-Forwarded-Host', 'evil.example')
      .send({ email: 'host@example.com' });
    await t
      .http()
      .post('/v1/auth/magic-link/send')
      .set('X-Service-Project-Key', key())
      .set('Host', 'evil.example')
      .set('X-Forwarded-Host', 'evil.example')
      .send({ email: 'host@example.com' });
    await drain();
    const reset = await smtp.waitFor('host@example.com', 15000, /Reset/);
    const magic = await smtp.waitFor('host@example.com', 15000, /sign-in link/);
    expect(linkIn(reset).host).toBe('app.example.com');
    expect(`${linkIn(magic).origin}${linkIn(magic).pathname}`).toBe(
      'http://auth.test/v1/auth/magic-link/verify',
    );
    expect(`${reset.text}${reset.html}${magic.text}${magic.html}`).not.toContain('evil.example');
  });

  it('refuses replayed, expired, wrong-purpose and tampered tokens with invalid-token', async () => {
    await signUpUser(t, key(), 'tokens@example.com');
    const token = await resetLink('tokens@example.com');
    expectProblem(
      await post('/v1/auth/verify-email/confirm', { token }),
      400,
      'invalid-token',
      '/v1/auth/verify-email/confirm',
    );
    const tampered = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    expectProblem(
      await post('/v1/auth/password/reset', {
        token: tampered,
        password: 'a brand new passphrase',
      }),
      400,
      'invalid-token',
    );
    expectProblem(
      await post('/v1/auth/password/reset', { token: 'short', password: 'a brand new passphrase' }),
      400,
      'invalid-token',
    );
    expectProblem(
      await post('/v1/auth/password/reset', { token: 42, password: 'a brand new passphrase' }),
      400,
      'validation-error',
    );
    t.clock.advance(3600_000 + 1000);
    expectProblem(await post('/v1/auth/password/reset/validate', { token }), 400, 'invalid-token');
    expectProblem(
      await post('/v1/auth/password/reset', { token, password: 'a brand new passphrase' }),
      400,
      'invalid-token',
    );
  });

  it('lets exactly one of 20 concurrent resets with the same token succeed', async () => {
    await signUpUser(t, key(), 'race@example.com');
    const token = await resetLink('race@example.com');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post('/v1/auth/password/reset', { token, password: `a brand new passphrase ${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expectProblem(r, 400, 'invalid-token');
  });

  it('clears the lockout on reset', async () => {
    await signUpUser(t, key(), 'locked@example.com');
    for (let i = 0; i < 5; i++)
      await post('/v1/auth/sign-in', {
        identifier: 'locked@example.com',
        password: 'wrong password',
      });
    expectProblem(
      await post('/v1/auth/sign-in', {
        identifier: 'locked@example.com',
        password: 'wrong password',
      }),
      429,
      'account-locked',
    );
    const token = await resetLink('locked@example.com');
    expect(
      (await post('/v1/auth/password/reset', { token, password: 'a brand new passphrase' })).status,
    ).toBe(200);
    expect(
      (
        await post('/v1/auth/sign-in', {
          identifier: 'locked@example.com',
          password: 'a brand new passphrase',
        })
      ).status,
    ).toBe(200);
  });

  it('verifies an email through the mailed link', async () => {
    const u = await signUpUser(t, key(), 'verify@example.com');
    expectProblem(await post('/v1/auth/verify-email/send', {}), 401, 'unauthenticated');
    const send = await post('/v1/auth/verify-email/send', {}).set(
      'Authorization',
      `Bearer ${u.accessToken}`,
    );
    expect(send.status).toBe(202);
    expect(send.body).toEqual({});
    const mail = await smtp.waitFor('verify@example.com');
    expect(mail.subject).toMatch(/Confirm your email for Acme App/);
    const token = linkIn(mail).searchParams.get('token')!;
    const confirm = await post('/v1/auth/verify-email/confirm', { token });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toEqual({
      user: { id: u.id, email: 'verify@example.com', email_verified: true },
    });
    const ds = t.app.get(DataSource);
    expect((await ds.getRepository(User).findOneByOrFail({ id: u.id })).emailVerified).toBe(true);
    expect(
      await ds.getRepository(AuditEvent).countBy({ action: 'email.verified', resourceId: u.id }),
    ).toBe(1);
    expect(await ds.getRepository(OutboxEvent).countBy({ type: 'email.verified' })).toBe(1);
    expectProblem(await post('/v1/auth/verify-email/confirm', { token }), 400, 'invalid-token');
    expectProblem(
      await post('/v1/auth/password/reset', { token, password: 'a brand new passphrase' }),
      400,
      'invalid-token',
    );
  });

  describe('magic links', () => {
    async function magicToken(email: string, redirect_url?: string): Promise<URL> {
      const res = await post(
        '/v1/auth/magic-link/send',
        redirect_url ? { email, redirect_url } : { email },
      );
      expect(res.status).toBe(202);
      expect(res.body).toEqual({});
      await drain();
      return linkIn(await smtp.waitFor(email));
    }
    const follow = (link: URL) => t.http().get(`${link.pathname}${link.search}`);

    it('signs in once and only once, landing on the redirect URL chosen at send time', async () => {
      await signUpUser(t, key(), 'magic@example.com');
      const link = await magicToken('magic@example.com', APP_REDIRECT);
      expect(link.searchParams.get('project_key')).toBe(key());
      const first = await follow(link);
      expect(first.status).toBe(302);
      expect(first.headers.location).toBe(APP_REDIRECT);
      expect(first.headers['referrer-policy']).toBe('no-referrer');
      expect(first.headers['cache-control']).toBe('no-store');
      const cookies = cookiesOf(first);
      expect(cookies.service_session?.value).toBeTruthy();
      expect(cookies.service_refresh_token?.value).toBeTruthy();
      const me = await t
        .http()
        .get('/v1/auth/me')
        .set('X-Service-Project-Key', key())
        .set('Cookie', `service_session=${cookies.service_session.value}`);
      expect(me.body.user.email).toBe('magic@example.com');

      const second = await follow(link);
      expect(second.status).toBe(302);
      expect(second.headers.location).toBe(`${APP_REDIRECT}?error=invalid_token`);
      expect(second.headers['set-cookie']).toBeUndefined();
      expect(second.headers['referrer-policy']).toBe('no-referrer');
    });

    it('lands on the first registered redirect URL when the project has no default one, and keeps its headers on a refused key', async () => {
      await t.dataSource.query(
        `UPDATE projects SET settings = settings - 'default_redirect_url' WHERE id = $1`,
        [tenant.project.id],
      );
      await t.app
        .get(ProjectsCache)
        .invalidateProject({ id: tenant.project.id, publishableKey: key() });
      const registered = (
        await t.dataSource.query(`SELECT redirect_urls FROM projects WHERE id = $1`, [
          tenant.project.id,
        ])
      )[0].redirect_urls as string[];
      await signUpUser(t, key(), 'nodefault@example.com');
      const link = await magicToken('nodefault@example.com');
      const first = await follow(link);
      expect(first.status).toBe(302);
      expect(first.headers.location).toBe(registered[0]);
      expect(cookiesOf(first).service_session?.value).toBeTruthy();
      expect((await follow(link)).headers.location).toBe(`${registered[0]}?error=invalid_token`);
      const noKey = await t
        .http()
        .get(`/v1/auth/magic-link/verify?token=${link.searchParams.get('token')}`);
      expectProblem(noKey, 401, 'unauthenticated');
      expect(noKey.headers['referrer-policy']).toBe('no-referrer');
      expect(noKey.headers['cache-control']).toBe('no-store');
    });

    it('refuses an unregistered redirect_url at send time (open-redirect corpus)', async () => {
      for (const redirect_url of [
        '//evil.com',
        'https://app.example.com.evil.com/callback',
        'https://app.example.com@evil.com/callback',
        'javascript:alert(1)',
        'https://app.example.com:8443/callback',
        'https://app.example.com/other',
        'https://app.example.com/callback/',
        'http://app.example.com/callback',
      ]) {
        const res = await post('/v1/auth/magic-link/send', {
          email: 'x@example.com',
          redirect_url,
        });
        expect({
          redirect_url,
          errors: expectProblem(res, 400, 'validation-error').errors,
        }).toEqual({ redirect_url, errors: { redirect_url: [expect.any(String)] } });
      }
    });

    it('answers 202 for unknown emails and mails nothing', async () => {
      const res = await post('/v1/auth/magic-link/send', { email: 'ghost@example.com' });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({});
      await drain();
      await new Promise((r) => setTimeout(r, 300));
      expect(smtp.mails).toHaveLength(0);
    });

    it('redirects bad, expired and foreign tokens with error=invalid_token and no cookie', async () => {
      await signUpUser(t, key(), 'exp@example.com');
      const link = await magicToken('exp@example.com');
      t.clock.advance(15 * 60_000 + 1000);
      const expired = await follow(link);
      expect(expired.headers.location).toBe(`${APP_REDIRECT}?error=invalid_token`);
      expect(expired.headers['set-cookie']).toBeUndefined();
      const garbage = await t
        .http()
        .get(`/v1/auth/magic-link/verify?token=nope&project_key=${key()}`);
      expect(garbage.status).toBe(302);
      expect(garbage.headers.location).toBe(`${APP_REDIRECT}?error=invalid_token`);
      const resetToken = await resetLink('exp@example.com');
      const wrongPurpose = await t
        .http()
        .get(`/v1/auth/magic-link/verify?token=${resetToken}&project_key=${key()}`);
      expect(wrongPurpose.headers.location).toBe(`${APP_REDIRECT}?error=invalid_token`);
    });

    it('lets exactly one of 20 concurrent verifications sign in', async () => {
      await signUpUser(t, key(), 'race-magic@example.com');
      const link = await magicToken('race-magic@example.com');
      const results = await Promise.all(Array.from({ length: 20 }, () => follow(link)));
      expect(results.every((r) => r.status === 302)).toBe(true);
      expect(
        results.filter((r) => r.headers.location === APP_REDIRECT && cookiesOf(r).service_session),
      ).toHaveLength(1);
      expect(
        results.filter((r) => r.headers.location === `${APP_REDIRECT}?error=invalid_token`),
      ).toHaveLength(19);
    });
  });

  it('retries a mail the SMTP server refused and delivers it', async () => {
    await signUpUser(t, key(), 'retry@example.com');
    smtp.failNext(1);
    expect((await post('/v1/auth/password/forgot', { email: 'retry@example.com' })).status).toBe(
      202,
    );
    await drain();
    const mail = await smtp.waitFor('retry@example.com', 20_000);
    expect(mail.subject).toContain('Reset');
  }, 30_000);
});
