import { Queue } from 'bullmq';
import Redis from 'ioredis';
import type { Response } from 'supertest';
import { sha256Hex } from '@gatehouse/crypto';
import {
  AuditEvent,
  MfaBackupCode,
  MfaFactor,
  OneTimeToken,
  OutboxEvent,
  Passkey,
  PasswordCredential,
  User,
} from '@gatehouse/entities';
import { openMessage, QUEUES, type MailMessage, type SealedJob } from '@gatehouse/queue';
import {
  createUser,
  expectProblem,
  mintAccessToken,
  seedTenant,
  startTestApp,
  TEST_REDIS_URL,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- created users sign in and reset through the real auth runtime
import { buildAuthRuntime } from '../../auth-runtime/src/app-factory';
import { buildControlPlane } from '../src/app-factory';

/** 32 s past the console project's default `reauthentication_max_age_seconds` (600 s); the access token (900 s) is still valid. */
const AGED_MS = 632_000;
const PASSWORD = 'a sturdy passphrase 42';

/**
 * docs/api-contract.md §13, support operations on a user: create (with a password, or a mailed set-password
 * link), send a password reset, mark the email verified (`data.changes`), list the second factors
 * and remove them one by one or all at once (★: a recent proof of the admin). Another tenant's
 * admin gets 404 on every route and changes nothing. The created users sign in and reset through
 * the real auth runtime (in process; both apps' test clocks move together).
 */
describe('admin support operations on users: create, password reset, email verified, second factors', () => {
  let cp: TestApp;
  let runtime: TestApp;
  let tenant: SeededTenant;
  let other: SeededTenant;
  let token: string;
  let otherToken: string;
  let redis: Redis;
  let mailQueue: Queue<SealedJob>;

  const as = (bearer: string) => ({
    Authorization: `Bearer ${bearer}`,
    'X-Forwarded-For': '192.0.2.61',
    'User-Agent': 'support-test',
  });
  const post = (path: string, body?: object, bearer = token) =>
    cp.http().post(path).set(as(bearer)).send(body);
  const del = (path: string, bearer = token) => cp.http().delete(path).set(as(bearer));
  const get = (path: string, bearer = token) => cp.http().get(path).set(as(bearer));
  const age = (ms: number) => {
    cp.clock.advance(ms);
    runtime.clock.advance(ms);
  };
  const signIn = (identifier: string, password: string) =>
    runtime
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('X-Forwarded-For', `198.51.100.${Math.floor(Math.random() * 250)}`)
      .send({ identifier, password });
  const mails = async (): Promise<MailMessage[]> => {
    const jobs = await mailQueue.getJobs([
      'wait',
      'waiting',
      'delayed',
      'prioritized',
      'paused',
      'active',
    ]);
    return jobs.map((j) => openMessage<MailMessage>(cp.config, j.data, 'mail'));
  };
  /** Events of admins (seeding records the console admins' own `user.created` as the system). */
  const audit = (action: string) =>
    cp.dataSource
      .getRepository(AuditEvent)
      .find({ where: { action, actorType: 'admin' }, order: { createdAt: 'ASC' } });
  const outbox = (type: string) =>
    cp.dataSource
      .getRepository(OutboxEvent)
      .find({ where: { type, projectId: tenant.project.id }, order: { createdAt: 'ASC' } });
  const expectReauthenticationRequired = (res: Response, path: string) => {
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toEqual({
      type: 'https://gatehouse.dev/problems/reauthentication-required',
      title: 'Reauthentication Required',
      status: 403,
      detail:
        'This action needs a recent proof of identity; re-authenticate with POST /v1/auth/reauthenticate and try again.',
      instance: path,
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      max_age_seconds: 600,
    });
  };

  beforeAll(async () => {
    cp = await startTestApp(buildControlPlane, { TRUST_PROXY: 'loopback' });
    runtime = await startTestApp(buildAuthRuntime, {
      TRUST_PROXY: 'loopback',
      RATE_LIMITS_ENABLED: 'false',
    });
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    mailQueue = new Queue<SealedJob>(QUEUES.mail, { connection: redis, prefix: 'gatehouse' });
  });
  beforeEach(async () => {
    await cp.reset();
    runtime.clock.reset();
    tenant = await seedTenant(cp.app);
    other = await seedTenant(cp.app, 'Other');
    token = (await mintAccessToken(cp.app, tenant.adminUserId)).token;
    otherToken = (await mintAccessToken(cp.app, other.adminUserId)).token;
  });
  afterAll(async () => {
    await mailQueue.close();
    redis.disconnect();
    await runtime.close();
    await cp.close();
  });

  /** A user with TOTP, SMS, backup codes (one used) and a passkey, written as enrolment leaves them. */
  async function userWithFactors(email = 'mfa@example.com') {
    const user = await createUser(cp.app, tenant.project, email, PASSWORD);
    const scope = { tenantId: tenant.tenantId, projectId: tenant.project.id, userId: user.id };
    const [totp, sms] = await cp.dataSource.getRepository(MfaFactor).save([
      {
        ...scope,
        type: 'totp',
        status: 'enabled',
        secretEncrypted: 'sealed',
        lastUsedStep: '59000000',
        enabledAt: new Date(),
      },
      {
        ...scope,
        type: 'sms',
        status: 'enabled',
        phoneNumber: '+4915112345612',
        enabledAt: new Date(),
      },
    ]);
    await cp.dataSource.getRepository(MfaBackupCode).insert(
      Array.from({ length: 10 }, (_, i) => ({
        userId: user.id,
        codeHash: sha256Hex(`code-${i}`),
        usedAt: i === 0 ? new Date('2026-11-30T10:00:00Z') : null,
      })),
    );
    const passkey = await cp.dataSource.getRepository(Passkey).save({
      ...scope,
      credentialId: `cred-${email}`,
      publicKey: Buffer.from('pk'),
      deviceType: 'multiDevice',
      backedUp: true,
      name: 'YubiKey 5',
      transports: ['usb'],
    });
    const codes = await cp.dataSource
      .getRepository(MfaBackupCode)
      .find({ where: { userId: user.id }, order: { createdAt: 'ASC', id: 'ASC' } });
    return { user, totp: totp, sms: sms, passkey, backupSetId: codes[0].id };
  }

  describe('POST /v1/admin/users', () => {
    it('creates a user with a password (201, the admin user resource, user.created by the admin); the user signs in with it', async () => {
      const res = await post('/v1/admin/users', {
        project_id: tenant.project.id,
        email: ' Grace@Example.com ',
        password: PASSWORD,
        username: 'Grace_H',
        email_verified: true,
        metadata: { plan: 'pro' },
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        project_id: tenant.project.id,
        email: 'Grace@Example.com',
        email_verified: true,
        username: 'grace_h',
        status: 'active',
        is_admin: false,
        metadata: { plan: 'pro' },
        mfa_factors: [],
        created_at: expect.any(String),
        updated_at: expect.any(String),
        last_sign_in_at: null,
      });
      const [event] = await audit('user.created');
      expect(event).toMatchObject({
        tenantId: tenant.tenantId,
        projectId: tenant.project.id,
        actorType: 'admin',
        actorId: tenant.adminUserId,
        resourceId: res.body.id,
        ipAddress: '192.0.2.61',
        userAgent: 'support-test',
      });
      expect(event.metadata).toEqual({
        user: {
          id: res.body.id,
          email: 'Grace@Example.com',
          username: 'grace_h',
          project_id: tenant.project.id,
        },
        password_set: true,
        invitation_sent: false,
      });
      expect(await outbox('user.created')).toHaveLength(1);
      expect(await mails()).toEqual([]);
      const signedIn = await signIn('grace@example.com', PASSWORD);
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.user.id).toBe(res.body.id);
    });

    it('refuses a password against the sign-up policy (400 on password) and a taken email or username (409 naming the field); nothing is written', async () => {
      const weak = await post('/v1/admin/users', {
        project_id: tenant.project.id,
        email: 'weak@example.com',
        password: 'password',
      });
      expect(expectProblem(weak, 400, 'validation-error', '/v1/admin/users').errors).toEqual({
        password: ['is too common; choose a less predictable password'],
      });
      const short = await post('/v1/admin/users', {
        project_id: tenant.project.id,
        email: 'weak@example.com',
        password: 'short',
      });
      expect(expectProblem(short, 400, 'validation-error').errors).toEqual({
        password: ['must be at least 8 characters'],
      });
      const same = await post('/v1/admin/users', {
        project_id: tenant.project.id,
        email: 'same@example.com',
        password: 'same@example.com',
      });
      expect(expectProblem(same, 400, 'validation-error').errors).toEqual({
        password: ['must not be the same as your email or username'],
      });

      expect(
        (
          await post('/v1/admin/users', {
            project_id: tenant.project.id,
            email: 'taken@example.com',
            username: 'taken',
            password: PASSWORD,
          })
        ).status,
      ).toBe(201);
      const email = await post('/v1/admin/users', {
        project_id: tenant.project.id,
        email: 'TAKEN@example.com',
        password: PASSWORD,
      });
      expect(expectProblem(email, 409, 'conflict').errors).toEqual({
        email: ['is already registered'],
      });
      const username = await post('/v1/admin/users', {
        project_id: tenant.project.id,
        email: 'new@example.com',
        username: 'TAKEN',
        password: PASSWORD,
      });
      expect(expectProblem(username, 409, 'conflict').errors).toEqual({
        username: ['is already taken'],
      });
      expect(
        await cp.dataSource.getRepository(User).countBy({ projectId: tenant.project.id }),
      ).toBe(1);
      expect(await audit('user.created')).toHaveLength(1);
    });

    it('with send_invitation and no password mails a single-use 7-day set-password link; the reset flow sets the password', async () => {
      const res = await post('/v1/admin/users', {
        project_id: tenant.project.id,
        email: 'invitee@example.com',
        send_invitation: true,
      });
      expect(res.status).toBe(201);
      expect(
        await cp.dataSource.getRepository(PasswordCredential).countBy({ userId: res.body.id }),
      ).toBe(0);
      const [mail] = await mails();
      expect(mail).toMatchObject({
        template: 'set-password',
        to: 'invitee@example.com',
        projectId: tenant.project.id,
        variables: { expires_in_days: '7' },
      });
      const link = new URL(mail.variables.link);
      expect(`${link.origin}${link.pathname}`).toBe('https://app.example.com/callback');
      const setPasswordToken = link.searchParams.get('token')!;
      const stored = await cp.dataSource
        .getRepository(OneTimeToken)
        .findOneByOrFail({ tokenHash: sha256Hex(setPasswordToken) });
      expect(stored).toMatchObject({
        purpose: 'password-reset',
        userId: res.body.id,
        consumedAt: null,
      });
      expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBeGreaterThan(
        7 * 86_400_000 - 60_000,
      );
      expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBeLessThanOrEqual(
        7 * 86_400_000 + 60_000,
      );
      expect((await audit('user.created'))[0].metadata).toMatchObject({
        password_set: false,
        invitation_sent: true,
      });

      // Six days later the link still works once, then never again.
      age(6 * 86_400_000);
      const reset = (t: string) =>
        runtime
          .http()
          .post('/v1/auth/password/reset')
          .set('X-Service-Project-Key', tenant.projectKey)
          .send({ token: t, password: PASSWORD });
      expect((await reset(setPasswordToken)).status).toBe(200);
      expectProblem(await reset(setPasswordToken), 400, 'invalid-token');
      expect((await signIn('invitee@example.com', PASSWORD)).status).toBe(200);
    });

    it("refuses send_invitation with a password, an unknown or another tenant's project (404), and malformed bodies (400 with errors), creating nothing", async () => {
      const both = await post('/v1/admin/users', {
        project_id: tenant.project.id,
        email: 'both@example.com',
        password: PASSWORD,
        send_invitation: true,
      });
      expect(expectProblem(both, 400, 'validation-error').errors).toEqual({
        send_invitation: ['must not be true when a password is given'],
      });
      for (const projectId of [
        other.project.id,
        '00000000-0000-0000-0000-000000000000',
        'not-an-id',
      ]) {
        const res = await post('/v1/admin/users', {
          project_id: projectId,
          email: 'nobody@example.com',
          password: PASSWORD,
        });
        expectProblem(res, 404, 'not-found', '/v1/admin/users');
      }
      const bad: [object, string[]][] = [
        [{}, ['project_id', 'email']],
        [{ project_id: tenant.project.id, email: 'a@b' }, ['email']],
        [
          { project_id: tenant.project.id, email: 'x@example.com', password: 12345678 },
          ['password'],
        ],
        [{ project_id: tenant.project.id, email: 'x@example.com', username: 'a b' }, ['username']],
        [
          { project_id: tenant.project.id, email: 'x@example.com', email_verified: 'true' },
          ['email_verified'],
        ],
        [
          { project_id: tenant.project.id, email: 'x@example.com', send_invitation: 1 },
          ['send_invitation'],
        ],
        [{ project_id: tenant.project.id, email: 'x@example.com', metadata: [] }, ['metadata']],
        [{ project_id: tenant.project.id, email: 'x@example.com', is_admin: true }, ['is_admin']],
        [
          { project_id: tenant.project.id, email: 'x@example.com', password_hash: '$2b$10$x' },
          ['password_hash'],
        ],
        [{ project_id: [tenant.project.id], email: 'x@example.com' }, ['project_id']],
      ];
      for (const [body, fields] of bad) {
        const res = await post('/v1/admin/users', body);
        const problem = expectProblem(res, 400, 'validation-error', '/v1/admin/users');
        expect({ body, fields: Object.keys(problem.errors as object).sort() }).toEqual({
          body,
          fields: [...fields].sort(),
        });
      }
      for (const raw of ['null', '[]', '42', '"x"']) {
        const res = await cp
          .http()
          .post('/v1/admin/users')
          .set(as(token))
          .set('Content-Type', 'application/json')
          .send(raw);
        expectProblem(res, 400, 'validation-error');
      }
      expect(
        await cp.dataSource.getRepository(User).countBy({ projectId: tenant.project.id }),
      ).toBe(0);
      expect(await cp.dataSource.getRepository(User).countBy({ projectId: other.project.id })).toBe(
        0,
      );
      expect(await audit('user.created')).toHaveLength(0);
    });
  });

  describe('POST /v1/admin/users/{id}/password-reset', () => {
    it('mails the reset link password/forgot sends (202 {}), audited user.password_reset_sent; the link resets the password', async () => {
      const user = await createUser(cp.app, tenant.project, 'forgetful@example.com', PASSWORD);
      const res = await post(`/v1/admin/users/${user.id}/password-reset`);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({});
      const [mail] = await mails();
      expect(mail).toMatchObject({
        template: 'password-reset',
        to: 'forgetful@example.com',
        variables: { expires_in_minutes: '60' },
      });
      const [event] = await audit('user.password_reset_sent');
      expect(event).toMatchObject({
        projectId: tenant.project.id,
        actorType: 'admin',
        actorId: tenant.adminUserId,
        resourceType: 'user',
        resourceId: user.id,
      });
      expect(event.metadata).toEqual({
        user: { id: user.id, email: 'forgetful@example.com', project_id: tenant.project.id },
      });
      const resetToken = new URL(mail.variables.link).searchParams.get('token')!;
      const reset = await runtime
        .http()
        .post('/v1/auth/password/reset')
        .set('X-Service-Project-Key', tenant.projectKey)
        .send({ token: resetToken, password: 'another sturdy phrase 7' });
      expect(reset.status).toBe(200);
      expect((await signIn('forgetful@example.com', 'another sturdy phrase 7')).status).toBe(200);
    });

    it("answers 404 for another tenant's user or an unknown id, 409 for a disabled user, 400 for a body with fields; nothing is mailed or audited", async () => {
      const mine = await createUser(cp.app, tenant.project, 'mine@example.com');
      const theirs = await createUser(cp.app, other.project, 'theirs@example.com');
      expectProblem(
        await post(`/v1/admin/users/${theirs.id}/password-reset`),
        404,
        'not-found',
        `/v1/admin/users/${theirs.id}/password-reset`,
      );
      expectProblem(
        await post(`/v1/admin/users/${mine.id}/password-reset`, {}, otherToken),
        404,
        'not-found',
      );
      expectProblem(await post('/v1/admin/users/not-an-id/password-reset'), 404, 'not-found');
      expect(
        expectProblem(
          await post(`/v1/admin/users/${mine.id}/password-reset`, { email: 'x@example.com' }),
          400,
          'validation-error',
        ).errors,
      ).toEqual({ email: ['property email should not exist'] });
      await cp.dataSource.getRepository(User).update({ id: mine.id }, { status: 'disabled' });
      expectProblem(await post(`/v1/admin/users/${mine.id}/password-reset`), 409, 'conflict');
      expect(await mails()).toEqual([]);
      expect(await audit('user.password_reset_sent')).toHaveLength(0);
      expect(await cp.dataSource.getRepository(OneTimeToken).count()).toBe(0);
    });
  });

  describe('PATCH /v1/admin/users/{id} email_verified', () => {
    it('marks the email verified and back; user.updated carries data.changes of what changed only', async () => {
      const user = await createUser(cp.app, tenant.project, 'unverified@example.com');
      const res = await cp
        .http()
        .patch(`/v1/admin/users/${user.id}`)
        .set(as(token))
        .send({ email_verified: true, metadata: {} });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: user.id, email_verified: true, metadata: {} });
      expect(
        (await cp.dataSource.getRepository(User).findOneByOrFail({ id: user.id })).emailVerified,
      ).toBe(true);
      const [event] = await audit('user.updated');
      expect(event).toMatchObject({
        actorType: 'admin',
        actorId: tenant.adminUserId,
        projectId: tenant.project.id,
        resourceId: user.id,
      });
      expect(event.metadata).toEqual({
        user: { id: user.id, email: 'unverified@example.com', project_id: tenant.project.id },
        changed: ['metadata', 'email_verified'],
        changes: { email_verified: { from: false, to: true } },
      });
      const [hook] = await outbox('user.updated');
      expect(hook.payload).toEqual(event.metadata);

      await cp
        .http()
        .patch(`/v1/admin/users/${user.id}`)
        .set(as(token))
        .send({ email_verified: false, status: 'disabled', metadata: { a: 1 } });
      const second = (await audit('user.updated'))[1];
      expect(second.metadata).toMatchObject({
        changes: {
          email_verified: { from: true, to: false },
          status: { from: 'active', to: 'disabled' },
          metadata: { from: {}, to: { a: 1 } },
        },
      });
    });

    it("refuses a non-boolean email_verified (400) and another tenant's user (404), changing nothing", async () => {
      const user = await createUser(cp.app, tenant.project, 'unverified@example.com');
      for (const value of ['true', 1, null, [true]]) {
        const res = await cp
          .http()
          .patch(`/v1/admin/users/${user.id}`)
          .set(as(token))
          .send({ email_verified: value });
        expect(Object.keys(expectProblem(res, 400, 'validation-error').errors as object)).toEqual([
          'email_verified',
        ]);
      }
      expectProblem(
        await cp
          .http()
          .patch(`/v1/admin/users/${user.id}`)
          .set(as(otherToken))
          .send({ email_verified: true }),
        404,
        'not-found',
      );
      expect(
        (await cp.dataSource.getRepository(User).findOneByOrFail({ id: user.id })).emailVerified,
      ).toBe(false);
      expect(await audit('user.updated')).toHaveLength(0);
    });
  });

  describe('second factors', () => {
    it('GET …/factors lists TOTP, SMS (a hint of the number), the backup-code set (remaining) and passkeys (name)', async () => {
      const { user, totp, sms, passkey, backupSetId } = await userWithFactors();
      await cp.dataSource.getRepository(MfaFactor).save({
        tenantId: tenant.tenantId,
        projectId: tenant.project.id,
        userId: (await createUser(cp.app, tenant.project, 'pending@example.com')).id,
        type: 'totp',
        status: 'pending',
        secretEncrypted: 'x',
      });
      const res = await get(`/v1/admin/users/${user.id}/factors`);
      expect(res.status).toBe(200);
      const byType = Object.fromEntries(
        (res.body.factors as { type: string }[]).map((f) => [f.type, f]),
      );
      expect(res.body.factors).toHaveLength(4);
      expect(byType.totp).toEqual({
        id: totp.id,
        type: 'totp',
        name: null,
        phone_number_hint: null,
        remaining: null,
        created_at: totp.createdAt.toISOString(),
        last_used_at: new Date(59_000_000 * 30_000).toISOString(),
      });
      expect(byType.sms).toEqual({
        id: sms.id,
        type: 'sms',
        name: null,
        phone_number_hint: '+49•••••••••12',
        remaining: null,
        created_at: sms.createdAt.toISOString(),
        last_used_at: null,
      });
      expect(byType.backup_codes).toEqual({
        id: backupSetId,
        type: 'backup_codes',
        name: null,
        phone_number_hint: null,
        remaining: 9,
        created_at: expect.any(String),
        last_used_at: '2026-11-30T10:00:00.000Z',
      });
      expect(byType.passkey).toEqual({
        id: passkey.id,
        type: 'passkey',
        name: 'YubiKey 5',
        phone_number_hint: null,
        remaining: null,
        created_at: passkey.createdAt.toISOString(),
        last_used_at: null,
      });

      const none = await createUser(cp.app, tenant.project, 'none@example.com');
      expect((await get(`/v1/admin/users/${none.id}/factors`)).body).toEqual({ factors: [] });
      expectProblem(
        await get(`/v1/admin/users/${user.id}/factors`, otherToken),
        404,
        'not-found',
        `/v1/admin/users/${user.id}/factors`,
      );
      expectProblem(await get('/v1/admin/users/%00/factors'), 404, 'not-found');
    });

    it("the user sees their own enabled factors: /v1/auth/me's user.mfa_factors, and none once the admin reset them", async () => {
      const { user } = await userWithFactors();
      await cp.dataSource.getRepository(MfaFactor).save({
        tenantId: tenant.tenantId,
        projectId: tenant.project.id,
        userId: (await createUser(cp.app, tenant.project, 'other@example.com')).id,
        type: 'totp',
        status: 'enabled',
        secretEncrypted: 'x',
      });
      const own = (await mintAccessToken(cp.app, user.id)).token;
      const me = () =>
        runtime
          .http()
          .get('/v1/auth/me')
          .set('X-Service-Project-Key', tenant.projectKey)
          .set('Authorization', `Bearer ${own}`);
      expect((await me()).body.user).toEqual({
        id: user.id,
        email: 'mfa@example.com',
        is_admin: false,
        mfa_factors: ['totp', 'sms', 'passkey', 'backup_code'],
      });
      // Backup codes all used: no backup_code.
      await cp.dataSource
        .getRepository(MfaBackupCode)
        .update({ userId: user.id }, { usedAt: new Date() });
      expect((await me()).body.user.mfa_factors).toEqual(['totp', 'sms', 'passkey']);
      expect((await del(`/v1/admin/users/${user.id}/factors`)).status).toBe(204);
      expect((await me()).body.user.mfa_factors).toEqual([]);
    });

    it('DELETE …/factors/{factor_id} ★ removes one at a time: mfa.disabled or passkey.removed by the admin; the last TOTP/SMS takes the backup codes', async () => {
      const { user, totp, sms, passkey, backupSetId } = await userWithFactors();
      expect((await del(`/v1/admin/users/${user.id}/factors/${passkey.id}`)).status).toBe(204);
      const [removed] = await audit('passkey.removed');
      expect(removed).toMatchObject({
        actorType: 'admin',
        actorId: tenant.adminUserId,
        projectId: tenant.project.id,
        resourceType: 'passkey',
        resourceId: passkey.id,
      });
      expect(removed.metadata).toEqual({
        passkey: { id: passkey.id, user_id: user.id, name: 'YubiKey 5' },
      });
      expect(await outbox('passkey.removed')).toHaveLength(1);

      expect((await del(`/v1/admin/users/${user.id}/factors/${backupSetId}`)).status).toBe(204);
      expect(await cp.dataSource.getRepository(MfaBackupCode).countBy({ userId: user.id })).toBe(0);
      expect((await del(`/v1/admin/users/${user.id}/factors/${totp.id}`)).status).toBe(204);
      expect(
        (await get(`/v1/admin/users/${user.id}/factors`)).body.factors.map(
          (f: { id: string }) => f.id,
        ),
      ).toEqual([sms.id]);
      expect((await audit('mfa.disabled')).map((e) => e.metadata)).toEqual([
        { user: { id: user.id }, factor: 'backup_code' },
        { user: { id: user.id }, factor: 'totp' },
      ]);
      expectProblem(await del(`/v1/admin/users/${user.id}/factors/${totp.id}`), 404, 'not-found');
      expectProblem(await del(`/v1/admin/users/${user.id}/factors/not-an-id`), 404, 'not-found');

      // The last factor with backup codes left: they go with it.
      await cp.dataSource
        .getRepository(MfaBackupCode)
        .insert({ userId: user.id, codeHash: sha256Hex('again') });
      expect((await del(`/v1/admin/users/${user.id}/factors/${sms.id}`)).status).toBe(204);
      expect(await cp.dataSource.getRepository(MfaBackupCode).countBy({ userId: user.id })).toBe(0);
      expect((await get(`/v1/admin/users/${user.id}`)).body.mfa_factors).toEqual([]);
    });

    it('DELETE …/factors ★ resets MFA: every factor, code and passkey gone, one event each and user.mfa_reset; the next password sign-in gets a session', async () => {
      const { user, passkey } = await userWithFactors();
      const challenged = await signIn('mfa@example.com', PASSWORD);
      expect(challenged.body).toMatchObject({ mfa_required: true });
      const res = await del(`/v1/admin/users/${user.id}/factors`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await cp.dataSource.getRepository(MfaFactor).countBy({ userId: user.id })).toBe(0);
      expect(await cp.dataSource.getRepository(MfaBackupCode).countBy({ userId: user.id })).toBe(0);
      expect(await cp.dataSource.getRepository(Passkey).countBy({ userId: user.id })).toBe(0);
      expect((await audit('mfa.disabled')).map((e) => e.metadata)).toEqual([
        { user: { id: user.id }, factor: 'sms' },
        { user: { id: user.id }, factor: 'totp' },
      ]);
      expect((await audit('passkey.removed')).map((e) => e.resourceId)).toEqual([passkey.id]);
      const [reset] = await audit('user.mfa_reset');
      expect(reset).toMatchObject({
        actorType: 'admin',
        actorId: tenant.adminUserId,
        projectId: tenant.project.id,
        resourceType: 'user',
        resourceId: user.id,
      });
      expect(reset.metadata).toEqual({
        user: { id: user.id, email: 'mfa@example.com', project_id: tenant.project.id },
        factors: ['sms', 'totp'],
        backup_codes: 9,
        passkeys: 1,
      });
      const after = await signIn('mfa@example.com', PASSWORD);
      expect(after.status).toBe(200);
      expect(after.body.session.access_token).toEqual(expect.any(String));
      // Nothing left: still 204.
      expect((await del(`/v1/admin/users/${user.id}/factors`)).status).toBe(204);
    });

    it('a stale admin token is refused both removals (403 reauthentication-required) and nothing is removed or recorded; a fresh proof may', async () => {
      const { user, totp } = await userWithFactors();
      age(AGED_MS);
      const one = `/v1/admin/users/${user.id}/factors/${totp.id}`;
      const all = `/v1/admin/users/${user.id}/factors`;
      expectReauthenticationRequired(await del(one), one);
      expectReauthenticationRequired(await del(all), all);
      // The proof is judged first: a stale token learns nothing about ids either.
      expectReauthenticationRequired(
        await del('/v1/admin/users/not-an-id/factors'),
        '/v1/admin/users/not-an-id/factors',
      );
      expect(await cp.dataSource.getRepository(MfaFactor).countBy({ userId: user.id })).toBe(2);
      expect(await cp.dataSource.getRepository(Passkey).countBy({ userId: user.id })).toBe(1);
      expect(await cp.dataSource.getRepository(MfaBackupCode).countBy({ userId: user.id })).toBe(
        10,
      );
      expect(
        await cp.dataSource.getRepository(AuditEvent).countBy({ action: 'mfa.disabled' }),
      ).toBe(0);
      expect(
        await cp.dataSource.getRepository(AuditEvent).countBy({ action: 'user.mfa_reset' }),
      ).toBe(0);
      const fresh = (await mintAccessToken(cp.app, tenant.adminUserId)).token;
      expect((await del(one, fresh)).status).toBe(204);
    });

    it("another tenant's admin gets 404 on both removals and the list, and nothing changes", async () => {
      const { user, totp } = await userWithFactors();
      expectProblem(
        await del(`/v1/admin/users/${user.id}/factors/${totp.id}`, otherToken),
        404,
        'not-found',
      );
      expectProblem(await del(`/v1/admin/users/${user.id}/factors`, otherToken), 404, 'not-found');
      // A factor id of another user of the same tenant is not this user's.
      const bystander = await createUser(cp.app, tenant.project, 'bystander@example.com');
      expectProblem(
        await del(`/v1/admin/users/${bystander.id}/factors/${totp.id}`),
        404,
        'not-found',
      );
      expect(await cp.dataSource.getRepository(MfaFactor).countBy({ userId: user.id })).toBe(2);
      expect(await cp.dataSource.getRepository(Passkey).countBy({ userId: user.id })).toBe(1);
      expect(
        await cp.dataSource.getRepository(AuditEvent).countBy({ action: 'user.mfa_reset' }),
      ).toBe(0);
    });
  });
});
