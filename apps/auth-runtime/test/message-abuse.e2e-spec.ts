import { Invitation, MfaFactor, Organization, OrganizationMember } from '@gatehouse/entities';
import { ProjectsCache } from '@gatehouse/identity';
import {
  expectProblem,
  HttpReceiver,
  nextIp,
  postAs,
  seedTenant,
  signUpUser,
  SmtpSink,
  spawnApp,
  startTestApp,
  type AppProcess,
  type SeededTenant,
  type SignedUpUser,
  type TestApp,
} from '@gatehouse/testing';
import type { Response } from 'supertest';
import { buildAuthRuntime } from '../src/app-factory';

/** Issue 20: verification mail and SMS cannot be pumped (per user, per project budget, countries). */
describe('abuse of mail and SMS is bounded', () => {
  const gateway = new HttpReceiver();
  const smtp = new SmtpSink();
  let worker: AppProcess;
  let t: TestApp;
  let tenant: SeededTenant;
  const key = () => tenant.projectKey;
  const post = (path: string, body: object, token?: string) => postAs(t, key(), path, body, token);
  const rateLimitHeaders = (res: Response) => [
    res.headers['ratelimit-limit'],
    res.headers['ratelimit-remaining'],
  ];
  /** The whole problem body of a 429 `rate-limited` and its headers. */
  function expectRateLimited(res: Response, path: string, limit: string): void {
    expectProblem(res, 429, 'rate-limited', path);
    expect(res.body).toEqual({
      type: 'https://gatehouse.dev/problems/rate-limited',
      title: expect.any(String),
      status: 429,
      detail: expect.any(String),
      instance: path,
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(rateLimitHeaders(res)).toEqual([limit, '0']);
    expect(res.headers['ratelimit-reset']).toBe(res.headers['retry-after']);
  }
  /** Writes `settings.sms` straight into the project (the admin PATCH is tested in the control plane). */
  async function setSms(sms: object | null): Promise<void> {
    await t.dataSource.query(
      sms === null
        ? `UPDATE projects SET settings = settings - 'sms' WHERE id = $1`
        : `UPDATE projects SET settings = settings || jsonb_build_object('sms', $2::jsonb) WHERE id = $1`,
      sms === null ? [tenant.project.id] : [tenant.project.id, JSON.stringify(sms)],
    );
    await t.app
      .get(ProjectsCache)
      .invalidateProject({ id: tenant.project.id, publishableKey: key() });
  }
  /** A user whose SMS factor is enabled on `phone` (enrolment itself sends an SMS, which these tests count). */
  async function smsUser(email: string, phone: string): Promise<SignedUpUser> {
    const u = await signUpUser(t, key(), email);
    await t.dataSource.getRepository(MfaFactor).save({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      userId: u.id,
      type: 'sms',
      status: 'enabled',
      secretEncrypted: null,
      phoneNumber: phone,
      enabledAt: new Date(),
    });
    return u;
  }
  async function mfaToken(u: SignedUpUser): Promise<string> {
    const res = await post('/v1/auth/sign-in', { identifier: u.email, password: u.password });
    expect(res.body).toEqual({
      mfa_required: true,
      mfa_token: expect.any(String),
      available_factors: ['sms'],
    });
    return res.body.mfa_token as string;
  }
  /** Waits until the gateway has `count` SMS, then a little longer, and returns the numbers they went to. */
  async function smsSent(count: number): Promise<string[]> {
    if (count > 0) await gateway.waitFor(() => gateway.requests.length >= count);
    await new Promise((r) => setTimeout(r, 700));
    return gateway.requests.map((r) => (JSON.parse(r.body) as { to: string }).to);
  }
  const mailsTo = (email: string) => smtp.mails.filter((m) => JSON.stringify(m.to).includes(email));

  beforeAll(async () => {
    await gateway.start();
    await smtp.start();
    worker = await spawnApp('webhook-worker', {
      SMS_GATEWAY_URL: `${gateway.url}/sms`,
      SMTP_URL: smtp.url,
    });
    t = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
  });
  beforeEach(async () => {
    await t.reset();
    gateway.clear();
    smtp.clear();
    tenant = await seedTenant(t.app);
  });
  afterAll(async () => {
    await t.close();
    await worker.stop();
    await gateway.stop();
    await smtp.stop();
  });

  describe('POST /v1/auth/verify-email/send', () => {
    const path = '/v1/auth/verify-email/send';

    it('mails at most 3 verification links an hour per user, whatever the address or session; the 4th is 429 rate-limited', async () => {
      const u = await signUpUser(t, key(), 'bomb@example.com');
      for (let i = 1; i <= 3; i++) {
        const res = await post(path, {}, u.accessToken);
        expect([res.status, res.body]).toEqual([202, {}]);
        expect(rateLimitHeaders(res)).toEqual(['3', String(3 - i)]);
        expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(3000);
      }
      expectRateLimited(await post(path, {}, u.accessToken), path, '3');
      // A new session of the same user (another device, another address) shares the count.
      const again = await post('/v1/auth/sign-in', { identifier: u.email, password: u.password });
      expect(again.status).toBe(200);
      expectRateLimited(await post(path, {}, again.body.session.access_token as string), path, '3');
      // Another user of the project has an allowance of their own.
      const other = await signUpUser(t, key(), 'other@example.com');
      const theirs = await post(path, {}, other.accessToken);
      expect([theirs.status, ...rateLimitHeaders(theirs)]).toEqual([202, '3', '2']);

      await smtp.waitFor('other@example.com');
      await new Promise((r) => setTimeout(r, 700));
      expect(mailsTo('bomb@example.com')).toHaveLength(3);
      expect(mailsTo('other@example.com')).toHaveLength(1);
    });

    it('holds at 3 under 12 concurrent calls of one user', async () => {
      const u = await signUpUser(t, key(), 'burst@example.com');
      const results = await Promise.all(
        Array.from({ length: 12 }, () => post(path, {}, u.accessToken)),
      );
      expect(results.map((r) => r.status).sort()).toEqual([
        ...Array(3).fill(202),
        ...Array(9).fill(429),
      ]);
      await smtp.waitFor('burst@example.com');
      await new Promise((r) => setTimeout(r, 1000));
      expect(mailsTo('burst@example.com')).toHaveLength(3);
    });

    it('counts the calls of a user whose email is already verified, who gets no mail', async () => {
      const u = await signUpUser(t, key(), 'verified@example.com');
      await t.dataSource.query('UPDATE users SET email_verified = true WHERE id = $1', [u.id]);
      for (let i = 1; i <= 3; i++) expect((await post(path, {}, u.accessToken)).status).toBe(202);
      expectRateLimited(await post(path, {}, u.accessToken), path, '3');
      await new Promise((r) => setTimeout(r, 700));
      expect(mailsTo('verified@example.com')).toHaveLength(0);
    });

    it('reports its own limit on every answer, refused ones included, counting only calls that pass authentication', async () => {
      const u = await signUpUser(t, key(), 'headers@example.com');
      const refused = [
        await post(path, {}),
        await post(path, {}, 'not-a-token'),
        await t
          .http()
          .post(path)
          .set('X-Forwarded-For', nextIp())
          .set('Authorization', `Bearer ${u.accessToken}`)
          .send({}),
        await t
          .http()
          .post(path)
          .set('X-Service-Project-Key', key())
          .set('X-Forwarded-For', nextIp())
          .set('Authorization', `Bearer ${u.accessToken}`)
          .set('Content-Type', 'application/json')
          .send('{'),
      ];
      expect(refused.map((r) => r.status)).toEqual([401, 401, 401, 400]);
      for (const res of refused) {
        expect(rateLimitHeaders(res)).toEqual(['3', '3']);
        expect(res.headers['ratelimit-reset']).toBe('3600');
      }
      const first = await post(path, {}, u.accessToken);
      expect([first.status, ...rateLimitHeaders(first)]).toEqual([202, '3', '2']);
    });
  });

  describe('SMS', () => {
    it('keeps to the project hourly budget across users for enrolment: the third SMS is 429 and the gateway gets two', async () => {
      await setSms({ max_per_hour: 2 });
      const users = [
        await signUpUser(t, key(), 'a@example.com'),
        await signUpUser(t, key(), 'b@example.com'),
        await signUpUser(t, key(), 'c@example.com'),
      ];
      const phones = ['+14155550101', '+14155550102', '+14155550103'];
      expect(
        (await post('/v1/auth/mfa/sms/setup', { phone_number: phones[0] }, users[0].accessToken))
          .status,
      ).toBe(202);
      expect(
        (await post('/v1/auth/mfa/sms/setup', { phone_number: phones[1] }, users[1].accessToken))
          .status,
      ).toBe(202);
      const third = await post(
        '/v1/auth/mfa/sms/setup',
        { phone_number: phones[2] },
        users[2].accessToken,
      );
      expectRateLimited(third, '/v1/auth/mfa/sms/setup', '2');
      expect((await smsSent(2)).sort()).toEqual([phones[0], phones[1]]);

      // Another project's budget is its own.
      const otherTenant = await seedTenant(t.app, 'Other');
      const outsider = await signUpUser(t, otherTenant.projectKey, 'outsider@example.com');
      const res = await t
        .http()
        .post('/v1/auth/mfa/sms/setup')
        .set('X-Service-Project-Key', otherTenant.projectKey)
        .set('X-Forwarded-For', nextIp())
        .set('Authorization', `Bearer ${outsider.accessToken}`)
        .send({ phone_number: '+14155550104' });
      expect(res.status).toBe(202);
      expect(await smsSent(3)).toHaveLength(3);
    });

    it('keeps to the project hourly budget across users for sign-in codes: the third SMS is 429 and the gateway gets two', async () => {
      await setSms({ max_per_hour: 2, allowed_countries: ['*'] });
      const phones = ['+14155550111', '+14155550112', '+14155550113'];
      const users = [
        await smsUser('a@example.com', phones[0]),
        await smsUser('b@example.com', phones[1]),
        await smsUser('c@example.com', phones[2]),
      ];
      const tokens = [await mfaToken(users[0]), await mfaToken(users[1]), await mfaToken(users[2])];
      expect((await post('/v1/auth/mfa/sms/send', { mfa_token: tokens[0] })).status).toBe(202);
      expect((await post('/v1/auth/mfa/sms/send', { mfa_token: tokens[1] })).status).toBe(202);
      expectRateLimited(
        await post('/v1/auth/mfa/sms/send', { mfa_token: tokens[2] }),
        '/v1/auth/mfa/sms/send',
        '2',
      );
      expect((await smsSent(2)).sort()).toEqual([phones[0], phones[1]]);
    });

    it('holds the budget under concurrent sends of many users: 10 at once against a budget of 3', async () => {
      await setSms({ max_per_hour: 3 });
      const users = await Promise.all(
        Array.from({ length: 10 }, (_, i) => signUpUser(t, key(), `burst${i}@example.com`)),
      );
      const results = await Promise.all(
        users.map((u, i) =>
          post('/v1/auth/mfa/sms/setup', { phone_number: `+1415555017${i}` }, u.accessToken),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([
        ...Array(3).fill(202),
        ...Array(7).fill(429),
      ]);
      expect(await smsSent(3)).toHaveLength(3);
    });

    it('texts only numbers of the allowed countries at enrolment; a refused number costs no budget and sends nothing', async () => {
      await setSms({ max_per_hour: 1, allowed_countries: ['FR'] });
      const u = await signUpUser(t, key(), 'fr@example.com');
      // +1 (US), +44 (GB), and +882 (international networks: no country at all).
      for (const phone_number of ['+14155550123', '+447400123456', '+88212345678']) {
        const res = await post('/v1/auth/mfa/sms/setup', { phone_number }, u.accessToken);
        expectProblem(res, 400, 'validation-error', '/v1/auth/mfa/sms/setup');
        expect({ phone_number, errors: res.body.errors }).toEqual({
          phone_number,
          errors: { phone_number: [expect.stringContaining('country')] },
        });
      }
      expect(await smsSent(0)).toEqual([]);
      expect(
        (await post('/v1/auth/mfa/sms/setup', { phone_number: '+33612345678' }, u.accessToken))
          .status,
      ).toBe(202);
      expect(await smsSent(1)).toEqual(['+33612345678']);
    });

    it('texts no sign-in code to an enrolled number outside a since-narrowed country list', async () => {
      const us = await smsUser('us@example.com', '+14155550121');
      const fr = await smsUser('fr@example.com', '+33612345679');
      await setSms({ allowed_countries: ['FR', 'BE'] });
      const refused = await post('/v1/auth/mfa/sms/send', { mfa_token: await mfaToken(us) });
      expectProblem(refused, 400, 'validation-error', '/v1/auth/mfa/sms/send');
      expect(refused.body.errors).toEqual({ phone_number: [expect.stringContaining('country')] });
      expect(await smsSent(0)).toEqual([]);
      expect((await post('/v1/auth/mfa/sms/send', { mfa_token: await mfaToken(fr) })).status).toBe(
        202,
      );
      expect(await smsSent(1)).toEqual(['+33612345679']);
    });

    it('sends to any country, number without a country included, when settings.sms is absent', async () => {
      await setSms(null);
      const u = await signUpUser(t, key(), 'anywhere@example.com');
      expect(
        (await post('/v1/auth/mfa/sms/setup', { phone_number: '+88212345678' }, u.accessToken))
          .status,
      ).toBe(202);
      expect(await smsSent(1)).toEqual(['+88212345678']);
    });
  });

  describe('POST /v1/auth/organizations/{id}/invitations', () => {
    it('sends at most 30 invitations an hour per user, across their organizations; the 31st is 429 rate-limited and invites nobody', async () => {
      const inviter = await signUpUser(t, key(), 'inviter@example.com');
      const colleague = await signUpUser(t, key(), 'colleague@example.com');
      const [acme, globex] = await t.dataSource.getRepository(Organization).save(
        ['acme', 'globex'].map((slug) => ({
          tenantId: tenant.tenantId,
          projectId: tenant.project.id,
          name: slug,
          slug,
          metadata: {},
        })),
      );
      await t.dataSource.getRepository(OrganizationMember).save(
        [acme, globex].flatMap((o) =>
          [inviter, colleague].map((u) => ({
            organizationId: o.id,
            userId: u.id,
            tenantId: tenant.tenantId,
            role: 'admin',
          })),
        ),
      );
      const invite = (u: SignedUpUser, orgId: string, email: string) =>
        post(`/v1/auth/organizations/${orgId}/invitations`, { email }, u.accessToken);
      for (let n = 0; n < 30; n++) {
        const res = await invite(inviter, n % 2 ? acme.id : globex.id, `guest${n}@example.com`);
        expect([n, res.status]).toEqual([n, 201]);
      }
      const path = `/v1/auth/organizations/${acme.id}/invitations`;
      expectRateLimited(await invite(inviter, acme.id, 'guest30@example.com'), path, '30');
      // Another member of the same organizations keeps their own budget.
      expect((await invite(colleague, acme.id, 'guest31@example.com')).status).toBe(201);
      const invited = await t.dataSource
        .getRepository(Invitation)
        .findBy({ tenantId: tenant.tenantId });
      expect(invited).toHaveLength(31);
      expect(invited.map((i) => i.email)).not.toContain('guest30@example.com');
    });
  });
});
