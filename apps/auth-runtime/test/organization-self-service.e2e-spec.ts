import {
  AuditEvent,
  Invitation,
  Organization,
  OrganizationMember,
  OutboxEvent,
  ProjectPermission,
  ProjectRole,
} from '@gatehouse/entities';
import { ProjectsCache } from '@gatehouse/identity';
import { openMessage, QUEUES, type MailMessage, type SealedJob } from '@gatehouse/queue';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import {
  expectProblem,
  seedTenant,
  signUpUser,
  startTestApp,
  type SeededTenant,
  type SignedUpUser,
  TEST_REDIS_URL,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';

/**
 * Organizations managed by their own members (docs/api-contract.md §14): each route asks for a
 * permission of the caller's role there, 404 for anyone who is not a member, and nobody climbs
 * above their own role.
 */
describe('end users manage their organizations by their permissions', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let owner: SignedUpUser;
  let manager: SignedUpUser;
  let plain: SignedUpUser;
  let outsider: SignedUpUser;
  let acme: Organization;
  let globex: Organization;

  const base = () => `/v1/auth/organizations`;
  const as = (u: SignedUpUser) => ({
    'X-Service-Project-Key': tenant.projectKey,
    Authorization: `Bearer ${u.accessToken}`,
  });
  const call = (
    method: 'get' | 'patch' | 'delete',
    path: string,
    u: SignedUpUser,
    body?: object,
  ) => {
    const req = t.http()[method](path).set(as(u));
    return body ? req.send(body) : req;
  };
  const roleOf = async (org: Organization, u: SignedUpUser) =>
    (
      await t.dataSource
        .getRepository(OrganizationMember)
        .findOneBy({ organizationId: org.id, userId: u.id })
    )?.role ?? null;
  const org = (name: string, slug: string) =>
    t.dataSource.getRepository(Organization).save({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      name,
      slug,
      metadata: { plan: 'gold' },
    });
  const join = (o: Organization, u: SignedUpUser, role: string) =>
    t.dataSource
      .getRepository(OrganizationMember)
      .save({ organizationId: o.id, userId: u.id, tenantId: tenant.tenantId, role });

  let redis: Redis;
  let mailQueue: Queue<SealedJob>;
  const mails = async () =>
    (
      await mailQueue.getJobs(['wait', 'waiting', 'delayed', 'prioritized', 'paused', 'active'])
    ).map((j) => openMessage<MailMessage>(t.config, j.data, 'mail'));

  beforeAll(async () => {
    t = await startTestApp(buildAuthRuntime, { RATE_LIMITS_ENABLED: 'false' });
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    mailQueue = new Queue<SealedJob>(QUEUES.mail, { connection: redis, prefix: 'gatehouse' });
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    [owner, manager, plain, outsider] = await Promise.all(
      ['owner', 'manager', 'plain', 'outsider'].map((n) =>
        signUpUser(t, tenant.projectKey, `${n}@example.com`),
      ),
    );
    await t.dataSource.getRepository(ProjectPermission).save({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      key: 'invoices:read',
      description: '',
    });
    const role = (key: string, permissions: string[]) => ({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      key,
      name: key,
      description: '',
      permissions,
    });
    await t.dataSource
      .getRepository(ProjectRole)
      .save([
        role('manager', ['org:members:read', 'org:members:manage']),
        role('billing', ['invoices:read']),
      ]);
    acme = await org('Acme', 'acme');
    globex = await org('Globex', 'globex');
    await join(acme, owner, 'admin');
    await join(acme, manager, 'manager');
    await join(acme, plain, 'member');
    await join(globex, outsider, 'admin');
  });
  afterAll(async () => {
    await mailQueue.close();
    redis.disconnect();
    await t.close();
  });

  it('lists members with org:members:read; without it 403; for a non-member or another organization 404', async () => {
    const res = await call('get', `${base()}/${acme.id}/members`, manager);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 3 });
    expect(res.body.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual(
      [
        ['owner@example.com', 'admin'],
        ['manager@example.com', 'manager'],
        ['plain@example.com', 'member'],
      ],
    );
    expectProblem(await call('get', `${base()}/${acme.id}/members`, plain), 403, 'forbidden');
    expectProblem(await call('get', `${base()}/${acme.id}/members`, outsider), 404, 'not-found');
    expectProblem(await call('get', `${base()}/not-an-id/members`, owner), 404, 'not-found');
    expectProblem(
      await call('get', `${base()}/${acme.id}/members?limit=0`, owner),
      400,
      'validation-error',
    );
  });

  it('a member without org:members:manage can neither promote themselves nor remove anyone', async () => {
    expectProblem(
      await call('patch', `${base()}/${acme.id}/members/me`, plain, { role: 'admin' }),
      403,
      'forbidden',
    );
    expectProblem(
      await call('delete', `${base()}/${acme.id}/members/${owner.id}`, plain),
      403,
      'forbidden',
    );
    expect(await roleOf(acme, plain)).toBe('member');
    expect(await roleOf(acme, owner)).toBe('admin');
  });

  it('a manager gives roles within their own permissions only: not admin, not a role granting more, not to an admin', async () => {
    expectProblem(
      await call('patch', `${base()}/${acme.id}/members/me`, manager, { role: 'admin' }),
      403,
      'forbidden',
    );
    expectProblem(
      await call('patch', `${base()}/${acme.id}/members/${plain.id}`, manager, { role: 'billing' }),
      403,
      'forbidden',
    );
    expectProblem(
      await call('patch', `${base()}/${acme.id}/members/${owner.id}`, manager, { role: 'member' }),
      403,
      'forbidden',
    );
    expectProblem(
      await call('delete', `${base()}/${acme.id}/members/${owner.id}`, manager),
      403,
      'forbidden',
    );
    const promoted = await call('patch', `${base()}/${acme.id}/members/${plain.id}`, manager, {
      role: 'manager',
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ user_id: plain.id, role: 'manager' });
    expectProblem(
      await call('patch', `${base()}/${acme.id}/members/${plain.id}`, manager, { role: 'ghost' }),
      400,
      'validation-error',
    );
    expect((await call('delete', `${base()}/${acme.id}/members/${plain.id}`, manager)).status).toBe(
      204,
    );
    expect(await roleOf(acme, plain)).toBeNull();
    expect(await roleOf(acme, owner)).toBe('admin');

    const events = await t.dataSource
      .getRepository(AuditEvent)
      .find({ where: { resourceType: 'organization_member' }, order: { createdAt: 'ASC' } });
    expect(events.map((e) => [e.action, e.actorType, e.actorId])).toEqual([
      ['organization.member.updated', 'user', manager.id],
      ['organization.member.removed', 'user', manager.id],
    ]);
    expect(events[0].metadata).toMatchObject({
      member: { user_id: plain.id, role: 'manager' },
      previous_role: 'member',
    });
    expect(
      await t.dataSource
        .getRepository(OutboxEvent)
        .countBy({ type: 'organization.member.removed' }),
    ).toBe(1);
  });

  it('the last admin can neither leave nor be demoted (409); another member leaves with me', async () => {
    expectProblem(
      await call('patch', `${base()}/${acme.id}/members/me`, owner, { role: 'member' }),
      409,
      'conflict',
    );
    expectProblem(await call('delete', `${base()}/${acme.id}/members/me`, owner), 409, 'conflict');
    expect((await call('delete', `${base()}/${acme.id}/members/me`, plain)).status).toBe(204);
    expect(await roleOf(acme, plain)).toBeNull();
    expectProblem(await call('delete', `${base()}/${acme.id}/members/me`, plain), 404, 'not-found');
  });

  it("renames with org:settings:manage (audited as the user); never the application's metadata; slugs stay unique", async () => {
    expectProblem(
      await call('patch', `${base()}/${acme.id}`, manager, { name: 'Mine' }),
      403,
      'forbidden',
    );
    expectProblem(
      await call('patch', `${base()}/${acme.id}`, outsider, { name: 'Mine' }),
      404,
      'not-found',
    );
    expectProblem(
      await call('patch', `${base()}/${acme.id}`, owner, { metadata: { plan: 'platinum' } }),
      400,
      'validation-error',
    );
    expectProblem(
      await call('patch', `${base()}/${acme.id}`, owner, { slug: 'globex' }),
      409,
      'conflict',
    );
    const res = await call('patch', `${base()}/${acme.id}`, owner, {
      name: 'Acme Corp',
      slug: 'acme-corp',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: acme.id,
      name: 'Acme Corp',
      slug: 'acme-corp',
      role: 'admin',
    });
    expectProblem(
      await call('patch', `${base()}/${acme.id}`, manager, { settings: { require_mfa: true } }),
      403,
      'forbidden',
    );
    expectProblem(
      await call('patch', `${base()}/${acme.id}`, owner, { settings: { require_mfa: 'yes' } }),
      400,
      'validation-error',
    );
    expectProblem(
      await call('patch', `${base()}/${acme.id}`, owner, { settings: { other: true } }),
      400,
      'validation-error',
    );
    expect(
      (await call('patch', `${base()}/${acme.id}`, owner, { settings: { require_mfa: true } }))
        .status,
    ).toBe(200);
    const stored = await t.dataSource.getRepository(Organization).findOneByOrFail({ id: acme.id });
    expect(stored.settings).toEqual({ require_mfa: true });
    expect(stored).toMatchObject({
      name: 'Acme Corp',
      slug: 'acme-corp',
      metadata: { plan: 'gold' },
    });
    const [event] = await t.dataSource
      .getRepository(AuditEvent)
      .findBy({ action: 'organization.updated' });
    expect(event).toMatchObject({ actorType: 'user', actorId: owner.id, resourceId: acme.id });
    expect(event.metadata).toMatchObject({
      changes: { name: { from: 'Acme', to: 'Acme Corp' }, slug: { from: 'acme', to: 'acme-corp' } },
    });
  });

  it('deletes with org:delete only; another organization by id is 404 and untouched', async () => {
    expectProblem(await call('delete', `${base()}/${acme.id}`, manager), 403, 'forbidden');
    expectProblem(await call('delete', `${base()}/${globex.id}`, owner), 404, 'not-found');
    expect(await t.dataSource.getRepository(Organization).countBy({ id: globex.id })).toBe(1);
    expect((await call('delete', `${base()}/${acme.id}`, owner)).status).toBe(204);
    expect(await t.dataSource.getRepository(Organization).countBy({ id: acme.id })).toBe(0);
    expect(
      await t.dataSource
        .getRepository(AuditEvent)
        .countBy({ action: 'organization.deleted', actorId: owner.id }),
    ).toBe(1);
  });

  it('an organization of another project is 404 to its own admin through this project’s key', async () => {
    const other = await seedTenant(t.app, 'Other');
    const foreign = await t.dataSource.getRepository(Organization).save({
      tenantId: other.tenantId,
      projectId: other.project.id,
      name: 'Foreign',
      slug: 'foreign',
      metadata: {},
    });
    await t.dataSource.getRepository(OrganizationMember).save({
      organizationId: foreign.id,
      userId: owner.id,
      tenantId: other.tenantId,
      role: 'admin',
    });
    expectProblem(await call('get', `${base()}/${foreign.id}/members`, owner), 404, 'not-found');
    expectProblem(await call('delete', `${base()}/${foreign.id}`, owner), 404, 'not-found');
  });

  it('creates an organization only where the project allows it; the creator is its admin, audited as the user', async () => {
    const create = (body: object) => t.http().post(base()).set(as(plain)).send(body);
    expectProblem(await create({ name: 'Initech' }), 403, 'forbidden');
    expect(await t.dataSource.getRepository(Organization).countBy({ name: 'Initech' })).toBe(0);

    await t.dataSource.query(
      `UPDATE projects SET settings = settings || '{"organizations": {"allow_user_create": true}}'::jsonb WHERE id = $1`,
      [tenant.project.id],
    );
    await t.app.get(ProjectsCache).invalidateProject(tenant.project);
    const res = await create({ name: 'Initech' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Initech',
      slug: 'initech',
      role: 'admin',
      permissions: [
        'org:members:read',
        'org:members:manage',
        'org:settings:manage',
        'org:delete',
        'invoices:read',
      ],
    });
    const made = await t.dataSource
      .getRepository(Organization)
      .findOneByOrFail({ id: res.body.id });
    expect(made).toMatchObject({ projectId: tenant.project.id, metadata: {} });
    expect(await roleOf(made, plain)).toBe('admin');
    const again = await create({ name: 'Initech' });
    expect(again.status).toBe(201);
    expect(again.body.slug).toMatch(/^initech-[a-z0-9]{6}$/);
    expectProblem(await create({ name: 'Taken', slug: 'acme' }), 409, 'conflict');
    for (const body of [
      {},
      { name: ' ' },
      { name: 'X', slug: 'Bad Slug' },
      { name: 'X', metadata: {} },
    ])
      expectProblem(await create(body), 400, 'validation-error');
    const events = await t.dataSource
      .getRepository(AuditEvent)
      .find({ where: { resourceId: res.body.id }, order: { createdAt: 'ASC' } });
    expect(events.map((e) => [e.action, e.actorType, e.actorId])).toEqual([
      ['organization.created', 'user', plain.id],
    ]);
    expect(
      await t.dataSource
        .getRepository(AuditEvent)
        .countBy({ action: 'organization.member.added', actorId: plain.id }),
    ).toBe(2);
  });

  it('invites with org:members:manage a role within the inviter’s own; the invitee accepts the mailed link', async () => {
    const invite = (u: SignedUpUser, body: object, orgId = acme.id) =>
      t.http().post(`${base()}/${orgId}/invitations`).set(as(u)).send(body);
    expectProblem(await invite(plain, { email: 'grace@example.com' }), 403, 'forbidden');
    expectProblem(await invite(outsider, { email: 'grace@example.com' }), 404, 'not-found');
    expectProblem(
      await invite(manager, { email: 'grace@example.com' }, globex.id),
      404,
      'not-found',
    );
    for (const role of ['admin', 'billing'])
      expectProblem(await invite(manager, { email: 'grace@example.com', role }), 403, 'forbidden');
    expectProblem(
      await invite(owner, { email: 'grace@example.com', role: 'ghost' }),
      400,
      'validation-error',
    );
    for (const body of [
      {},
      { email: 'not an email' },
      { email: 'g@example.com', role: 'Bad Role' },
    ])
      expectProblem(await invite(manager, body), 400, 'validation-error');
    expectProblem(await invite(manager, { email: 'plain@example.com' }), 409, 'conflict');
    expect(await mails()).toEqual([]);

    const res = await invite(manager, { email: 'grace@example.com' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      organization_id: acme.id,
      email: 'grace@example.com',
      role: 'member',
      status: 'pending',
      invited_by: manager.id,
      expires_at: expect.any(String),
      accepted_at: null,
      revoked_at: null,
      created_at: expect.any(String),
    });
    expectProblem(await invite(owner, { email: 'grace@example.com' }), 409, 'conflict');
    const byOwner = await invite(owner, { email: 'ada@example.com', role: 'billing' });
    expect(byOwner.status).toBe(201);
    const sent = await mails();
    expect(
      sent.map((m) => [m.template, m.to, m.variables.organization_name, m.variables.role]).sort(),
    ).toEqual([
      ['invitation', 'ada@example.com', 'Acme', 'billing'],
      ['invitation', 'grace@example.com', 'Acme', 'member'],
    ]);
    const events = await t.dataSource
      .getRepository(AuditEvent)
      .find({ where: { action: 'invitation.created' }, order: { createdAt: 'ASC' } });
    expect(events.map((e) => [e.actorType, e.actorId, e.resourceId])).toEqual([
      ['user', manager.id, res.body.id],
      ['user', owner.id, byOwner.body.id],
    ]);

    const grace = await signUpUser(t, tenant.projectKey, 'grace@example.com');
    const link = new URL(sent.find((m) => m.to === 'grace@example.com')!.variables.link);
    const accepted = await t
      .http()
      .post('/v1/auth/invitations/accept')
      .set(as(grace))
      .send({ token: link.searchParams.get('token') });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ organization: { id: acme.id, name: 'Acme' }, role: 'member' });
    expect(await roleOf(acme, grace)).toBe('member');
  });

  it('the same address invited by several managers at once gets one invitation and one mail; the others are 409', async () => {
    const second = await signUpUser(t, tenant.projectKey, 'second@example.com');
    await join(acme, second, 'manager');
    const results = await Promise.all(
      [manager, second, owner, manager, second].map((u) =>
        t
          .http()
          .post(`${base()}/${acme.id}/invitations`)
          .set(as(u))
          .send({ email: 'grace@example.com' }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) expectProblem(r, 409, 'conflict');
    expect(await t.dataSource.getRepository(Invitation).countBy({ organizationId: acme.id })).toBe(
      1,
    );
    expect((await mails()).map((m) => m.to)).toEqual(['grace@example.com']);
  });
});
