import { Queue } from 'bullmq';
import Redis from 'ioredis';
import request from 'supertest';
import { sha256Hex } from '@gatehouse/crypto';
import {
  AuditEvent,
  Invitation,
  OrganizationMember,
  OutboxEvent,
  Project,
} from '@gatehouse/entities';
import { openMessage, QUEUES, type MailMessage, type SealedJob } from '@gatehouse/queue';
import {
  createUser,
  expectProblem,
  mintAccessToken,
  seedTenant,
  spawnApp,
  startTestApp,
  TEST_REDIS_URL,
  type AppProcess,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

/**
 * Invitations end to end: the control plane (in process) creates and mails them through the BullMQ
 * `mail` queue; the auth runtime (a real process: apps never import apps) accepts them.
 */
describe('admin invitations: create (mailed link), list, revoke; accepted on the runtime', () => {
  let t: TestApp;
  let runtime: AppProcess;
  let redis: Redis;
  let mailQueue: Queue<SealedJob>;
  let tenant: SeededTenant;
  let token: string;
  let orgId: string;
  const auth = () => ({ Authorization: `Bearer ${token}` });
  const invitations = () => `/v1/admin/organizations/${orgId}/invitations`;
  const invite = (body: object) => t.http().post(invitations()).set(auth()).send(body);
  const rt = () => request(`http://127.0.0.1:${runtime.port}`);

  async function mails(): Promise<MailMessage[]> {
    const jobs = await mailQueue.getJobs([
      'wait',
      'waiting',
      'delayed',
      'prioritized',
      'paused',
      'active',
    ]);
    return jobs.map((j) => openMessage<MailMessage>(t.config, j.data, 'mail'));
  }

  async function tokenFromMail(to: string): Promise<string> {
    const mail = (await mails()).find((m) => m.to === to);
    expect(mail).toBeDefined();
    return new URL(mail!.variables.link).searchParams.get('token')!;
  }

  async function signUpOnRuntime(email: string): Promise<string> {
    const res = await rt()
      .post('/v1/auth/sign-up')
      .set('X-Service-Project-Key', tenant.projectKey)
      .send({ email, password: 'a sturdy passphrase 42' });
    expect(res.status).toBe(201);
    return res.body.session.access_token as string;
  }

  const accept = (accessToken: string, invitationToken: string) =>
    rt()
      .post('/v1/auth/invitations/accept')
      .set('X-Service-Project-Key', tenant.projectKey)
      .set('Authorization', `Bearer ${accessToken}`)
      .send({ token: invitationToken });

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane);
    runtime = await spawnApp('auth-runtime', { RATE_LIMITS_ENABLED: 'false' });
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    mailQueue = new Queue<SealedJob>(QUEUES.mail, { connection: redis, prefix: 'gatehouse' });
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
    orgId = (
      await t
        .http()
        .post('/v1/admin/organizations')
        .set(auth())
        .send({ project_id: tenant.project.id, name: 'Team' })
    ).body.id;
  });
  afterAll(async () => {
    await mailQueue.close();
    redis.disconnect();
    await runtime.stop();
    await t.close();
  });

  it('mails a single-use 7-day link through the mail queue; the invitee accepts it on the runtime', async () => {
    const res = await invite({ email: 'Grace@Example.com', role: 'admin' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      organization_id: orgId,
      email: 'Grace@Example.com',
      role: 'admin',
      status: 'pending',
      invited_by: tenant.adminUserId,
      expires_at: expect.any(String),
      accepted_at: null,
      revoked_at: null,
      created_at: expect.any(String),
    });
    const ttl = new Date(res.body.expires_at).getTime() - new Date(res.body.created_at).getTime();
    expect(Math.abs(ttl - 7 * 86_400_000)).toBeLessThan(5_000);
    expect(JSON.stringify(res.body)).not.toMatch(/token/);

    const [mail] = await mails();
    expect(mail).toEqual({
      template: 'invitation',
      to: 'Grace@Example.com',
      projectId: tenant.project.id,
      projectName: 'Acme App',
      variables: {
        link: expect.stringMatching(
          /^https:\/\/app\.example\.com\/callback\?token=[A-Za-z0-9_-]{43}$/,
        ),
        organization_name: 'Team',
        role: 'admin',
        expires_at: res.body.expires_at,
      },
    });
    const invitationToken = await tokenFromMail('Grace@Example.com');
    const row = await t.dataSource.getRepository(Invitation).findOneByOrFail({ id: res.body.id });
    expect(row.tokenHash).toBe(sha256Hex(invitationToken));
    expect(
      await t.dataSource
        .getRepository(AuditEvent)
        .findOneByOrFail({ action: 'invitation.created' }),
    ).toMatchObject({
      actorType: 'admin',
      actorId: tenant.adminUserId,
      projectId: tenant.project.id,
      resourceType: 'invitation',
      resourceId: res.body.id,
    });
    expect(JSON.stringify(await t.dataSource.getRepository(OutboxEvent).find())).not.toContain(
      invitationToken,
    );

    const session = await signUpOnRuntime('grace@example.com');
    const accepted = await accept(session, invitationToken);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ organization: { id: orgId, name: 'Team' }, role: 'admin' });
    const member = await t.http().get(`/v1/admin/organizations/${orgId}/members`).set(auth());
    expect(member.body.members).toEqual([
      expect.objectContaining({ email: 'grace@example.com', role: 'admin' }),
    ]);
    const listed = await t.http().get(invitations()).set(auth());
    expect(listed.body).toEqual({
      invitations: [
        expect.objectContaining({
          id: res.body.id,
          status: 'accepted',
          accepted_at: expect.any(String),
        }),
      ],
      pagination: { page: 1, limit: 20, total: 1 },
    });
    expect(
      await t.dataSource
        .getRepository(AuditEvent)
        .countBy({ action: 'invitation.accepted', resourceId: res.body.id }),
    ).toBe(1);

    expectProblem(
      await accept(session, invitationToken),
      400,
      'invalid-token',
      '/v1/auth/invitations/accept',
    );
    expectProblem(
      await t.http().delete(`${invitations()}/${res.body.id}`).set(auth()),
      409,
      'conflict',
    );
  });

  it('refuses the invitation to a signed-in user with another email (403) and leaves it usable', async () => {
    await invite({ email: 'invitee@example.com' });
    const invitationToken = await tokenFromMail('invitee@example.com');
    const stranger = await signUpOnRuntime('stranger@example.com');
    expectProblem(
      await accept(stranger, invitationToken),
      403,
      'forbidden',
      '/v1/auth/invitations/accept',
    );
    expect(
      await t.dataSource.getRepository(OrganizationMember).countBy({ organizationId: orgId }),
    ).toBe(0);

    const invitee = await signUpOnRuntime('INVITEE@example.com');
    const ok = await accept(invitee, invitationToken);
    expect(ok.status).toBe(200);
    expect(ok.body.role).toBe('member');
  });

  it('accepts a token once under concurrent requests', async () => {
    await invite({ email: 'race@example.com' });
    const invitationToken = await tokenFromMail('race@example.com');
    const session = await signUpOnRuntime('race@example.com');
    const results = await Promise.all(
      Array.from({ length: 6 }, () => accept(session, invitationToken)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect(
      await t.dataSource.getRepository(OrganizationMember).countBy({ organizationId: orgId }),
    ).toBe(1);
    expect(
      await t.dataSource.getRepository(AuditEvent).countBy({ action: 'invitation.accepted' }),
    ).toBe(1);
  });

  it('revokes: the link stops working; revoked and expired invitations show as such', async () => {
    const a = await invite({ email: 'a@example.com' });
    const b = await invite({ email: 'b@example.com' });
    const aToken = await tokenFromMail('a@example.com');
    const bToken = await tokenFromMail('b@example.com');

    const del = await t.http().delete(`${invitations()}/${a.body.id}`).set(auth());
    expect(del.status).toBe(204);
    expect(
      await t.dataSource
        .getRepository(AuditEvent)
        .countBy({ action: 'invitation.revoked', resourceId: a.body.id }),
    ).toBe(1);
    expectProblem(
      await t.http().delete(`${invitations()}/${a.body.id}`).set(auth()),
      409,
      'conflict',
    );
    expectProblem(
      await accept(await signUpOnRuntime('a@example.com'), aToken),
      400,
      'invalid-token',
    );

    await t.dataSource
      .getRepository(Invitation)
      .update({ id: b.body.id }, { expiresAt: new Date(Date.now() - 1000) });
    expectProblem(
      await accept(await signUpOnRuntime('b@example.com'), bToken),
      400,
      'invalid-token',
    );

    const list = await t.http().get(invitations()).set(auth());
    expect(
      list.body.invitations.map((i: { id: string; status: string }) => [i.id, i.status]),
    ).toEqual([
      [b.body.id, 'expired'],
      [a.body.id, 'revoked'],
    ]);
    expect(
      await t.dataSource.getRepository(OrganizationMember).countBy({ organizationId: orgId }),
    ).toBe(0);
  });

  it('refuses duplicates, members, bad bodies and a project with nowhere to link to — writing and mailing nothing', async () => {
    expect((await invite({ email: 'dup@example.com' })).status).toBe(201);
    expectProblem(await invite({ email: 'DUP@example.com' }), 409, 'conflict', invitations());
    const member = await createUser(t.app, tenant.project, 'member@example.com');
    await t
      .http()
      .post(`/v1/admin/organizations/${orgId}/members`)
      .set(auth())
      .send({ user_id: member.id });
    expectProblem(await invite({ email: 'Member@Example.com' }), 409, 'conflict');
    for (const body of [
      {},
      { email: 'not-an-email' },
      { email: 'x@example.com', role: 'owner' },
      { email: 'x@example.com', token: 'mine' },
      { email: ['x@example.com'] },
    ]) {
      expectProblem(await invite(body), 400, 'validation-error');
    }
    await t.dataSource
      .getRepository(Project)
      .update({ id: tenant.project.id }, { settings: {}, redirectUrls: [] });
    expectProblem(await invite({ email: 'nolink@example.com' }), 409, 'conflict');

    expect(await t.dataSource.getRepository(Invitation).countBy({ organizationId: orgId })).toBe(1);
    expect((await mails()).map((m) => m.to)).toEqual(['dup@example.com']);
    expect(
      await t.dataSource.getRepository(AuditEvent).countBy({ action: 'invitation.created' }),
    ).toBe(1);
  });

  it('links to settings.invitation_url when set', async () => {
    await t
      .http()
      .patch(`/v1/admin/projects/${tenant.project.id}`)
      .set(auth())
      .send({ settings: { invitation_url: 'https://app.example.com/join?src=mail' } });
    await invite({ email: 'link@example.com' });
    const [mail] = await mails();
    expect(mail.variables.link).toMatch(
      /^https:\/\/app\.example\.com\/join\?src=mail&token=[A-Za-z0-9_-]{43}$/,
    );
  });

  it("answers 404 for another tenant's organization and invitation, changing nothing", async () => {
    const other = await seedTenant(t.app, 'Other');
    const otherToken = (await mintAccessToken(t.app, other.adminUserId)).token;
    const foreignOrg = (
      await t
        .http()
        .post('/v1/admin/organizations')
        .set('Authorization', `Bearer ${otherToken}`)
        .send({ project_id: other.project.id, name: 'B' })
    ).body.id;
    const foreignInv = (
      await t
        .http()
        .post(`/v1/admin/organizations/${foreignOrg}/invitations`)
        .set('Authorization', `Bearer ${otherToken}`)
        .send({ email: 'x@example.com' })
    ).body.id;
    expectProblem(
      await t.http().get(`/v1/admin/organizations/${foreignOrg}/invitations`).set(auth()),
      404,
      'not-found',
    );
    expectProblem(
      await t
        .http()
        .post(`/v1/admin/organizations/${foreignOrg}/invitations`)
        .set(auth())
        .send({ email: 'y@example.com' }),
      404,
      'not-found',
    );
    expectProblem(
      await t
        .http()
        .delete(`/v1/admin/organizations/${foreignOrg}/invitations/${foreignInv}`)
        .set(auth()),
      404,
      'not-found',
    );
    expectProblem(
      await t.http().delete(`${invitations()}/${foreignInv}`).set(auth()),
      404,
      'not-found',
    );
    expect(
      (await t.dataSource.getRepository(Invitation).findOneByOrFail({ id: foreignInv })).status,
    ).toBe('pending');
    expect(
      await t.dataSource.getRepository(Invitation).countBy({ organizationId: foreignOrg }),
    ).toBe(1);
  });
});
