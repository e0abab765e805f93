import { DataSource } from 'typeorm';
import { AuditEvent, MfaFactor, OutboxEvent } from '@gatehouse/entities';
import {
  APP_REDIRECT,
  cookiesOf,
  expectProblem,
  linkIn,
  MessageParties,
  nextIp,
  postAs,
  seedTenant,
  signUpUser,
  spawnApp,
  startTestApp,
  type SeededTenant,
  type SignedUpUser,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';
import { BackgroundTasks } from '../src/common/background-tasks';
import { oathtool } from './support/totp';

describe('MFA: TOTP, backup codes and SMS, with the sign-in challenge', () => {
  const parties = new MessageParties();
  const { gateway, smtp } = parties;
  let t: TestApp;
  let tenant: SeededTenant;
  const key = () => tenant.projectKey;
  const post = (path: string, body: object, token?: string) => postAs(t, key(), path, body, token);
  const signIn = (u: SignedUpUser) =>
    post('/v1/auth/sign-in', { identifier: u.email, password: u.password });

  async function enrolTotp(u: SignedUpUser): Promise<{ secret: string; backupCodes: string[] }> {
    const setup = await post('/v1/auth/mfa/totp/setup', {}, u.accessToken);
    expect(setup.status).toBe(200);
    const verify = await post(
      '/v1/auth/mfa/totp/verify',
      { code: oathtool(setup.body.secret, t) },
      u.accessToken,
    );
    expect(verify.status).toBe(200);
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

  it('enrols TOTP, then sign-in answers a challenge and the next code completes it', async () => {
    const u = await signUpUser(t, key(), 'totp@example.com');
    const setup = await post('/v1/auth/mfa/totp/setup', {}, u.accessToken);
    expect(setup.status).toBe(200);
    expect(setup.body).toEqual({
      secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
      qr_code_url: expect.any(String),
      backup_codes: expect.any(Array),
    });
    const uri = new URL(setup.body.qr_code_url);
    expect(uri.protocol).toBe('otpauth:');
    expect(setup.body.qr_code_url.startsWith('otpauth://totp/Acme%20App:totp%40example.com?')).toBe(
      true,
    );
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Acme App:totp@example.com');
    expect(uri.searchParams.get('secret')).toBe(setup.body.secret);
    expect(uri.searchParams.get('issuer')).toBe('Acme App');
    expect(setup.body.backup_codes).toHaveLength(10);
    expect(new Set(setup.body.backup_codes).size).toBe(10);

    const ds = t.app.get(DataSource);
    const pending = await ds
      .getRepository(MfaFactor)
      .findOneByOrFail({ userId: u.id, type: 'totp' });
    expect(pending.status).toBe('pending');
    expect(pending.secretEncrypted).not.toContain(setup.body.secret);
    const stored = await ds.query('SELECT code_hash FROM mfa_backup_codes WHERE user_id = $1', [
      u.id,
    ]);
    expect(stored).toHaveLength(10);
    expect(JSON.stringify(stored)).not.toContain(setup.body.backup_codes[0].replace('-', ''));

    const plain = await signIn(u);
    expect(plain.body.session).toBeDefined();

    expectProblem(
      await post(
        '/v1/auth/mfa/totp/verify',
        { code: oathtool(setup.body.secret, t, 3) },
        u.accessToken,
      ),
      401,
      'invalid-code',
    );
    // One code, computed once: the clock follows real time, so computing it again could cross into the next step.
    const enrolmentCode = oathtool(setup.body.secret, t);
    const verify = await post('/v1/auth/mfa/totp/verify', { code: enrolmentCode }, u.accessToken);
    expect(verify.status).toBe(200);
    expect(verify.body).toEqual({ factor: 'totp', enabled: true });

    const challenge = await signIn(u);
    expect(challenge.status).toBe(200);
    expect(challenge.body).toEqual({
      mfa_required: true,
      mfa_token: expect.any(String),
      available_factors: ['totp', 'backup_code'],
    });
    expect(challenge.headers['set-cookie']).toBeUndefined();

    const sameCode = await post('/v1/auth/mfa/verify', {
      mfa_token: challenge.body.mfa_token,
      factor: 'totp',
      code: enrolmentCode,
    });
    expectProblem(sameCode, 401, 'invalid-code', '/v1/auth/mfa/verify');
    t.clock.advance(30_000);
    const done = await post('/v1/auth/mfa/verify', {
      mfa_token: challenge.body.mfa_token,
      factor: 'totp',
      code: oathtool(setup.body.secret, t),
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      user: { id: u.id, email: 'totp@example.com' },
      session: { id: expect.any(String), access_token: expect.any(String) },
    });
    const cookies = cookiesOf(done);
    expect(cookies.service_session?.value).toBe(done.body.session.access_token);
    expect(cookies.service_refresh_token?.value).toBeTruthy();

    expectProblem(
      await post('/v1/auth/mfa/verify', {
        mfa_token: challenge.body.mfa_token,
        factor: 'totp',
        code: oathtool(setup.body.secret, t, 1),
      }),
      400,
      'invalid-token',
    );
    expect(await ds.getRepository(AuditEvent).countBy({ action: 'mfa.enabled' })).toBe(1);
    expect(await ds.getRepository(OutboxEvent).countBy({ type: 'mfa.enabled' })).toBe(1);
  });

  it('accepts a code once, within one step either side, never two steps away', async () => {
    const u = await signUpUser(t, key(), 'window@example.com');
    const { secret } = await enrolTotp(u);
    t.clock.advance(60_000); // well past the step used at enrolment
    for (const offset of [-2, 2]) {
      const c = await signIn(u);
      expectProblem(
        await post('/v1/auth/mfa/verify', {
          mfa_token: c.body.mfa_token,
          factor: 'totp',
          code: oathtool(secret, t, offset),
        }),
        401,
        'invalid-code',
      );
    }
    const c1 = await signIn(u);
    expect(
      (
        await post('/v1/auth/mfa/verify', {
          mfa_token: c1.body.mfa_token,
          factor: 'totp',
          code: oathtool(secret, t, -1),
        })
      ).status,
    ).toBe(200);
    t.clock.advance(30_000);
    const c2 = await signIn(u);
    expect(
      (
        await post('/v1/auth/mfa/verify', {
          mfa_token: c2.body.mfa_token,
          factor: 'totp',
          code: oathtool(secret, t, 1),
        })
      ).status,
    ).toBe(200);
    const c3 = await signIn(u);
    expectProblem(
      await post('/v1/auth/mfa/verify', {
        mfa_token: c3.body.mfa_token,
        factor: 'totp',
        code: oathtool(secret, t, 1),
      }),
      401,
      'invalid-code',
    );
  });

  it('gives exactly one session to 10 concurrent correct verifications', async () => {
    const u = await signUpUser(t, key(), 'race@example.com');
    const { secret } = await enrolTotp(u);
    const c = await signIn(u);
    const code = oathtool(secret, t);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        post('/v1/auth/mfa/verify', { mfa_token: c.body.mfa_token, factor: 'totp', code }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const [{ n }] = await t.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM sessions WHERE user_id = $1 AND auth_method = 'mfa'`, [
        u.id,
      ]);
    expect(n).toBe(1);
  });

  it('accepts each backup code once', async () => {
    const u = await signUpUser(t, key(), 'backup@example.com');
    const { backupCodes } = await enrolTotp(u);
    const c1 = await signIn(u);
    const ok = await post('/v1/auth/mfa/verify', {
      mfa_token: c1.body.mfa_token,
      factor: 'backup_code',
      code: backupCodes[0].toUpperCase(),
    });
    expect(ok.status).toBe(200);
    const c2 = await signIn(u);
    expectProblem(
      await post('/v1/auth/mfa/verify', {
        mfa_token: c2.body.mfa_token,
        factor: 'backup_code',
        code: backupCodes[0],
      }),
      401,
      'invalid-code',
    );
    expect(
      (
        await post('/v1/auth/mfa/verify', {
          mfa_token: c2.body.mfa_token,
          factor: 'backup_code',
          code: backupCodes[1],
        })
      ).status,
    ).toBe(200);
  });

  it('kills the mfa_token after 5 wrong codes, expires it after 5 minutes, and never takes it as a bearer token', async () => {
    const u = await signUpUser(t, key(), 'kill@example.com');
    const { secret } = await enrolTotp(u);
    const c = await signIn(u);
    for (let i = 0; i < 5; i++)
      expectProblem(
        await post('/v1/auth/mfa/verify', {
          mfa_token: c.body.mfa_token,
          factor: 'totp',
          code: '000000',
        }),
        401,
        'invalid-code',
      );
    expectProblem(
      await post('/v1/auth/mfa/verify', {
        mfa_token: c.body.mfa_token,
        factor: 'totp',
        code: oathtool(secret, t),
      }),
      400,
      'invalid-token',
    );

    const c2 = await signIn(u);
    expectProblem(
      await t
        .http()
        .get('/v1/auth/sessions')
        .set('X-Service-Project-Key', key())
        .set('Authorization', `Bearer ${c2.body.mfa_token}`),
      401,
      'unauthenticated',
    );
    expect(
      (
        await t
          .http()
          .get('/v1/auth/me')
          .set('X-Service-Project-Key', key())
          .set('Authorization', `Bearer ${c2.body.mfa_token}`)
      ).body,
    ).toEqual({ user: null });
    t.clock.advance(5 * 60_000 + 1000);
    expectProblem(
      await post('/v1/auth/mfa/verify', {
        mfa_token: c2.body.mfa_token,
        factor: 'totp',
        code: oathtool(secret, t),
      }),
      400,
      'invalid-token',
    );
  });

  it('gives concurrent wrong codes five checks between them, and a right code within them still signs in', async () => {
    const u = await signUpUser(t, key(), 'burst@example.com');
    const { secret } = await enrolTotp(u);
    const c = await signIn(u);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        post('/v1/auth/mfa/verify', {
          mfa_token: c.body.mfa_token,
          factor: 'totp',
          code: '000000',
        }),
      ),
    );
    expect(answers.filter((r) => r.status === 401).map((r) => r.body.type)).toEqual(
      Array(5).fill(expect.stringMatching(/\/invalid-code$/)),
    );
    expect(answers.filter((r) => r.status === 400).map((r) => r.body.type)).toEqual(
      Array(25).fill(expect.stringMatching(/\/invalid-token$/)),
    );
    expectProblem(
      await post('/v1/auth/mfa/verify', {
        mfa_token: c.body.mfa_token,
        factor: 'totp',
        code: oathtool(secret, t),
      }),
      400,
      'invalid-token',
    );

    const c2 = await signIn(u);
    for (let i = 0; i < 4; i++)
      expectProblem(
        await post('/v1/auth/mfa/verify', {
          mfa_token: c2.body.mfa_token,
          factor: 'totp',
          code: '000000',
        }),
        401,
        'invalid-code',
      );
    t.clock.advance(30_000); // the enrolment spent the current step's code
    expect(
      (
        await post('/v1/auth/mfa/verify', {
          mfa_token: c2.body.mfa_token,
          factor: 'totp',
          code: oathtool(secret, t),
        })
      ).status,
    ).toBe(200);
  });

  describe("the account's second-factor lockout", () => {
    const verify = (mfaToken: string, code: string) =>
      post('/v1/auth/mfa/verify', { mfa_token: mfaToken, factor: 'totp', code });
    /** Ten wrong codes over two mfa_tokens (each dies at its fifth): the tenth starts the lock. */
    async function lockSecondFactor(u: SignedUpUser): Promise<void> {
      for (let token = 0; token < 2; token++) {
        const c = await signIn(u);
        for (let i = 0; i < 5; i++)
          expectProblem(await verify(c.body.mfa_token, '000000'), 401, 'invalid-code');
      }
    }
    /** A 429 account-locked whose lock began at `since` (ms, or later) and lasts `minutes`; returns its end. */
    const expectLocked = (
      res: Awaited<ReturnType<typeof post>>,
      since: number,
      minutes: number,
    ): number => {
      const body = expectProblem(res, 429, 'account-locked', '/v1/auth/mfa/verify');
      const until = Date.parse(body.locked_until as string);
      expect(until).toBeGreaterThanOrEqual(since + minutes * 60_000);
      expect(until).toBeLessThanOrEqual(t.clock.nowMs() + minutes * 60_000);
      expect(
        Math.abs(Number(res.headers['retry-after']) - (until - t.clock.nowMs()) / 1000),
      ).toBeLessThanOrEqual(1);
      return until;
    };

    it('locks after 10 wrong codes over three mfa_tokens, refuses even a right code, survives a new sign-in, and ends on schedule', async () => {
      const u = await signUpUser(t, key(), 'guesser@example.com');
      const { secret } = await enrolTotp(u);
      const since = t.clock.nowMs();
      await lockSecondFactor(u);
      const third = await signIn(u);
      expect(third.body.mfa_required).toBe(true);
      const until = expectLocked(await verify(third.body.mfa_token, '000000'), since, 15); // the 11th wrong code
      expect(expectLocked(await verify(third.body.mfa_token, oathtool(secret, t)), since, 15)).toBe(
        until,
      );
      const backup = await post('/v1/auth/mfa/verify', {
        mfa_token: third.body.mfa_token,
        factor: 'backup_code',
        code: 'abcde-fghjk',
      });
      expect(expectLocked(backup, since, 15)).toBe(until);
      // A right password is no way around it: the new challenge meets the same lock.
      const fresh = await signIn(u);
      expect(expectLocked(await verify(fresh.body.mfa_token, oathtool(secret, t)), since, 15)).toBe(
        until,
      );
      const ds = t.app.get(DataSource);
      const locked = await ds
        .getRepository(AuditEvent)
        .findBy({ action: 'user.locked', actorId: u.id });
      expect(locked.map((e) => e.metadata)).toEqual([
        { method: 'mfa', locked_until: new Date(until).toISOString() },
      ]);
      // One failure with its reason word per wrong code, then one locked per attempt the lock refused.
      const failures = await ds.getRepository(AuditEvent).find({
        where: { action: 'user.sign_in_failed', actorId: u.id },
        order: { createdAt: 'ASC' },
      });
      expect(failures.map((e) => e.metadata)).toEqual([
        ...Array(10).fill({ method: 'mfa', factor: 'totp', reason: 'mfa_failed' }),
        ...['totp', 'totp', 'backup_code', 'totp'].map((factor) => ({
          method: 'mfa',
          factor,
          reason: 'locked',
        })),
      ]);
      expect(
        await ds.query(
          'SELECT count(*)::int AS n FROM sessions WHERE user_id = $1 AND auth_method = $2',
          [u.id, 'mfa'],
        ),
      ).toEqual([{ n: 0 }]);

      t.clock.advance(15 * 60_000);
      const after = await signIn(u);
      expect((await verify(after.body.mfa_token, oathtool(secret, t))).status).toBe(200);
      // The right code ended the streak and the level: the next lock is again the first level's.
      t.clock.advance(30_000);
      const relocked = t.clock.nowMs();
      await lockSecondFactor(u);
      const again = await signIn(u);
      expectLocked(await verify(again.body.mfa_token, oathtool(secret, t)), relocked, 15);
    });

    it('a second lock lasts 30 minutes; an admin unlock and a password reset each end a lock', async () => {
      const controlPlane = await spawnApp('control-plane');
      try {
        const u = await signUpUser(t, key(), 'locked-twice@example.com');
        // A verified account: a reset then keeps its second factor (an unverified one is claimed).
        await t.dataSource.query('UPDATE users SET email_verified = true WHERE id = $1', [u.id]);
        const { secret } = await enrolTotp(u);
        await lockSecondFactor(u);
        t.clock.advance(15 * 60_000); // the runtime's clock; the control plane never reads lock times
        const since = t.clock.nowMs();
        await lockSecondFactor(u);
        const second = await signIn(u);
        expectLocked(await verify(second.body.mfa_token, oathtool(secret, t)), since, 30);

        const admin = await t
          .http()
          .post('/v1/auth/sign-in')
          .set('X-Service-Project-Key', tenant.consoleKey)
          .set('X-Forwarded-For', nextIp())
          .send({ identifier: tenant.adminEmail, password: tenant.adminPassword });
        const unlock = await fetch(`http://127.0.0.1:${controlPlane.port}/v1/admin/users/${u.id}`, {
          method: 'PATCH',
          headers: {
            Authorization: `Bearer ${admin.body.session.access_token}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ status: 'active' }),
        });
        expect(unlock.status).toBe(200);
        const unlocked = await signIn(u);
        expect((await verify(unlocked.body.mfa_token, oathtool(secret, t))).status).toBe(200);

        t.clock.advance(30_000);
        await lockSecondFactor(u);
        expect((await post('/v1/auth/password/forgot', { email: u.email })).status).toBe(202);
        await t.app.get(BackgroundTasks).drain();
        const token = linkIn(await smtp.waitFor(u.email)).searchParams.get('token');
        expect(
          (await post('/v1/auth/password/reset', { token, password: 'a brand new passphrase 7' }))
            .status,
        ).toBe(200);
        const reset = await post('/v1/auth/sign-in', {
          identifier: u.email,
          password: 'a brand new passphrase 7',
        });
        expect((await verify(reset.body.mfa_token, oathtool(secret, t))).status).toBe(200);
      } finally {
        await controlPlane.stop();
      }
    });

    it('counts concurrent wrong codes over four mfa_tokens: ten are checked, the rest meet the lock', async () => {
      const u = await signUpUser(t, key(), 'swarm@example.com');
      await enrolTotp(u);
      const tokens: string[] = [];
      for (let i = 0; i < 4; i++) tokens.push((await signIn(u)).body.mfa_token as string);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => verify(tokens[i % 4], '000000')),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([
        ...Array(10).fill(401),
        ...Array(10).fill(429),
      ]);
      for (const r of answers.filter((a) => a.status === 429))
        expectProblem(r, 429, 'account-locked');
    });
  });

  it('enrols SMS with the code the gateway received and completes sign-in by SMS', async () => {
    const u = await signUpUser(t, key(), 'sms@example.com');
    const setup = await post(
      '/v1/auth/mfa/sms/setup',
      { phone_number: '+14155550123' },
      u.accessToken,
    );
    expect(setup.status).toBe(202);
    expect(setup.body).toEqual({});
    const text = await gateway.waitFor((r) => r.path === '/sms');
    expect(text.method).toBe('POST');
    expect(text.headers['content-type']).toContain('application/json');
    const sent = JSON.parse(text.body) as { to: string; body: string };
    expect(sent.to).toBe('+14155550123');
    const code = /\b(\d{6})\b/.exec(sent.body)![1];
    expectProblem(
      await post(
        '/v1/auth/mfa/sms/verify',
        { code: code === '000000' ? '111111' : '000000' },
        u.accessToken,
      ),
      401,
      'invalid-code',
    );
    const verify = await post('/v1/auth/mfa/sms/verify', { code }, u.accessToken);
    expect(verify.status).toBe(200);
    expect(verify.body).toEqual({ factor: 'sms', enabled: true });

    const c = await signIn(u);
    expect(c.body).toEqual({
      mfa_required: true,
      mfa_token: expect.any(String),
      available_factors: ['sms'],
    });
    expect(gateway.requests).toHaveLength(1);
    const send = await post('/v1/auth/mfa/sms/send', { mfa_token: c.body.mfa_token });
    expect(send.status).toBe(202);
    expect(send.body).toEqual({});
    const second = await gateway.waitFor((r) => r !== text);
    const signInCode = /\b(\d{6})\b/.exec((JSON.parse(second.body) as { body: string }).body)![1];
    const done = await post('/v1/auth/mfa/verify', {
      mfa_token: c.body.mfa_token,
      factor: 'sms',
      code: signInCode,
    });
    expect(done.status).toBe(200);
    expect(done.body.user.id).toBe(u.id);
    t.clock.advance(1000);
    const again = await signIn(u);
    expectProblem(
      await post('/v1/auth/mfa/verify', {
        mfa_token: again.body.mfa_token,
        factor: 'sms',
        code: signInCode,
      }),
      401,
      'invalid-code',
    );
  });

  it('limits SMS sends per number', async () => {
    const u = await signUpUser(t, key(), 'pump@example.com');
    for (let i = 0; i < 5; i++)
      expect(
        (await post('/v1/auth/mfa/sms/setup', { phone_number: '+14155550199' }, u.accessToken))
          .status,
      ).toBe(202);
    expectProblem(
      await post('/v1/auth/mfa/sms/setup', { phone_number: '+14155550199' }, u.accessToken),
      429,
      'rate-limited',
    );
  });

  it('refuses malformed codes, factors and phone numbers with validation-error', async () => {
    const u = await signUpUser(t, key(), 'bad@example.com');
    await enrolTotp(u);
    const c = await signIn(u);
    for (const code of ['12345', '1234567', '12a456', 123456, '']) {
      const res = await post('/v1/auth/mfa/verify', {
        mfa_token: c.body.mfa_token,
        factor: 'totp',
        code,
      });
      expect({
        code,
        errors: Object.keys(expectProblem(res, 400, 'validation-error').errors as object),
      }).toEqual({ code, errors: ['code'] });
      const enrol = await post('/v1/auth/mfa/totp/verify', { code }, u.accessToken);
      expect(Object.keys(expectProblem(enrol, 400, 'validation-error').errors as object)).toEqual([
        'code',
      ]);
    }
    expect(
      Object.keys(
        expectProblem(
          await post('/v1/auth/mfa/verify', {
            mfa_token: c.body.mfa_token,
            factor: 'email',
            code: '123456',
          }),
          400,
          'validation-error',
        ).errors as object,
      ),
    ).toEqual(['factor']);
    expect(
      Object.keys(
        expectProblem(
          await post('/v1/auth/mfa/verify', {
            mfa_token: c.body.mfa_token,
            factor: 'sms',
            code: '123456',
          }),
          400,
          'validation-error',
        ).errors as object,
      ),
    ).toEqual(['factor']);
    for (const phone_number of [
      '12345',
      '+0123456789',
      '555-1234',
      '+1 415 555 0123',
      14155550123,
      '+123456789012345678',
    ]) {
      const res = await post('/v1/auth/mfa/sms/setup', { phone_number }, u.accessToken);
      expect({
        phone_number,
        errors: Object.keys(expectProblem(res, 400, 'validation-error').errors as object),
      }).toEqual({ phone_number, errors: ['phone_number'] });
    }
  });

  it('still requires the second factor on a magic-link sign-in', async () => {
    const u = await signUpUser(t, key(), 'magic-mfa@example.com');
    // A verified account (on an unverified one the link is a claim that ends the factor: account-claims.e2e-spec.ts).
    await t.dataSource.query('UPDATE users SET email_verified = true WHERE id = $1', [u.id]);
    await enrolTotp(u);
    expect((await post('/v1/auth/magic-link/send', { email: u.email })).status).toBe(202);
    await t.app.get(BackgroundTasks).drain();
    const link = linkIn(await smtp.waitFor(u.email));
    const res = await t.http().get(`${link.pathname}${link.search}`);
    expect(res.status).toBe(302);
    const target = new URL(res.headers.location);
    expect(`${target.origin}${target.pathname}`).toBe(APP_REDIRECT);
    expect(target.searchParams.get('mfa_required')).toBe('true');
    expect(target.searchParams.get('mfa_token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('removes a factor, after which sign-in gives a session directly', async () => {
    const u = await signUpUser(t, key(), 'remove@example.com');
    await enrolTotp(u);
    expectProblem(
      await t
        .http()
        .delete('/v1/auth/mfa/sms')
        .set('X-Service-Project-Key', key())
        .set('Authorization', `Bearer ${u.accessToken}`),
      404,
      'not-found',
    );
    const del = await t
      .http()
      .delete('/v1/auth/mfa/totp')
      .set('X-Service-Project-Key', key())
      .set('Authorization', `Bearer ${u.accessToken}`);
    expect(del.status).toBe(204);
    const res = await signIn(u);
    expect(res.body.session.access_token).toEqual(expect.any(String));
    const ds = t.app.get(DataSource);
    expect(await ds.getRepository(AuditEvent).countBy({ action: 'mfa.disabled' })).toBe(1);
    expect(
      await ds.query('SELECT count(*)::int AS n FROM mfa_backup_codes WHERE user_id = $1', [u.id]),
    ).toEqual([{ n: 0 }]);
  });
});
