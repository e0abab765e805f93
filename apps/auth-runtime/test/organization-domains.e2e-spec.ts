import {
  AuditEvent,
  Organization,
  OrganizationDomain,
  OrganizationMember,
  OutboxEvent,
  ProjectRole,
  User,
  type DomainEnrollment,
} from '@gatehouse/entities';
import { OneTimeTokensRepository } from '@gatehouse/identity';
import {
  expectProblem,
  nextIp,
  seedTenant,
  signUpUser,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';

/**
 * Enrollment by verified domain (docs/api-contract.md §14): a verified email at an organization's
 * verified domain joins it (auto_join) at email verification and at sign-in, or sees it suggested
 * (suggest) and accepts; an unverified email gets neither.
 */
describe('organization domains in the auth runtime: auto-join and suggestions', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let acme: Organization;
  const key = () => tenant.projectKey;
  const bearer = (token: string) => ({
    'X-Service-Project-Key': key(),
    Authorization: `Bearer ${token}`,
  });
  const signIn = (identifier: string, password = 'a sturdy passphrase 42') =>
    t
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', key())
      .set('X-Forwarded-For', nextIp())
      .send({ identifier, password });
  const mine = (token: string) => t.http().get('/v1/auth/organizations').set(bearer(token));
  const suggestions = (token: string) =>
    t.http().get('/v1/auth/organizations/suggestions').set(bearer(token));
  const accept = (token: string, id: string) =>
    t.http().post(`/v1/auth/organizations/suggestions/${id}/accept`).set(bearer(token)).send({});
  const organization = (name: string, slug: string, projectId = tenant.project.id) =>
    t.dataSource
      .getRepository(Organization)
      .save({ tenantId: tenant.tenantId, projectId, name, slug, metadata: {} });
  const domain = (
    org: Organization,
    name: string,
    enrollment: DomainEnrollment,
    status: 'verified' | 'pending' = 'verified',
    defaultRole = 'member',
  ) =>
    t.dataSource.getRepository(OrganizationDomain).save({
      tenantId: org.tenantId,
      projectId: org.projectId,
      organizationId: org.id,
      domain: name,
      status,
      verificationValue: 'gatehouse-verification=x',
      enrollment,
      defaultRole,
      verifiedAt: status === 'verified' ? new Date() : null,
    });
  const markVerified = (userId: string) =>
    t.dataSource.query('UPDATE users SET email_verified = true WHERE id = $1', [userId]);
  const membersOf = (org: Organization) =>
    t.dataSource.getRepository(OrganizationMember).findBy({ organizationId: org.id });
  const addedEvents = () =>
    t.dataSource.getRepository(OutboxEvent).findBy({ type: 'organization.member.added' });

  beforeAll(async () => {
    t = await startTestApp(buildAuthRuntime, { RATE_LIMITS_ENABLED: 'false' });
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    acme = await organization('Acme', 'acme');
    await t.dataSource.getRepository(ProjectRole).save({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      key: 'billing',
      name: 'Billing',
      description: '',
      permissions: [],
    });
  });
  afterAll(() => t.close());

  it('auto_join: an unverified sign-up joins nothing; the email verification makes them a member with the default role, once', async () => {
    await domain(acme, 'acme.com', 'auto_join', 'verified', 'billing');
    const ana = await signUpUser(t, key(), 'Ana@ACME.com');
    expect((await mine(ana.accessToken)).body).toEqual({ organizations: [] });
    expect((await suggestions(ana.accessToken)).body).toEqual({ suggestions: [] });
    // Signing in unverified joins nothing either.
    expect((await signIn('ana@acme.com')).status).toBe(200);
    expect(await membersOf(acme)).toEqual([]);

    const user = await t.dataSource.getRepository(User).findOneByOrFail({ id: ana.id });
    const token = await t.app
      .get(OneTimeTokensRepository)
      .issue(t.dataSource.manager, user, 'verify-email', new Date(Date.now() + 3600_000), {
        email: user.email,
      });
    const confirm = await t
      .http()
      .post('/v1/auth/verify-email/confirm')
      .set('X-Service-Project-Key', key())
      .send({ token });
    expect(confirm.status).toBe(200);
    expect(await membersOf(acme)).toEqual([
      expect.objectContaining({ userId: ana.id, role: 'billing' }),
    ]);
    expect((await mine(ana.accessToken)).body).toEqual({
      organizations: [
        { id: acme.id, name: 'Acme', slug: 'acme', role: 'billing', permissions: [] },
      ],
    });
    const events = await addedEvents();
    expect(events).toHaveLength(1);
    expect(
      await t.dataSource
        .getRepository(AuditEvent)
        .findOneByOrFail({ action: 'organization.member.added' }),
    ).toMatchObject({
      actorType: 'user',
      actorId: ana.id,
      projectId: tenant.project.id,
      resourceType: 'organization_member',
      resourceId: ana.id,
      metadata: {
        organization: { id: acme.id, name: 'Acme' },
        member: { user_id: ana.id, email: 'Ana@ACME.com', role: 'billing' },
        via: 'domain',
        domain: 'acme.com',
      },
    });

    // Signing in again changes nothing: one membership, one event.
    expect((await signIn('ana@acme.com')).status).toBe(200);
    expect(await membersOf(acme)).toHaveLength(1);
    expect(await addedEvents()).toHaveLength(1);
  });

  it('auto_join at sign-in: a verified user joins when the domain auto-joins, keeps a role they already hold, and only at a verified domain of their project', async () => {
    const bob = await signUpUser(t, key(), 'bob@acme.com');
    const cy = await signUpUser(t, key(), 'cy@sub.acme.com');
    const dee = await signUpUser(t, key(), 'dee@acme.com');
    for (const u of [bob, cy, dee]) await markVerified(u.id);
    // Dee is already an admin of Acme.
    await t.dataSource
      .getRepository(OrganizationMember)
      .save({ organizationId: acme.id, userId: dee.id, tenantId: tenant.tenantId, role: 'admin' });
    // A pending auto-join domain gives nothing; nor does a verified one of another project.
    const globex = await organization('Globex', 'globex');
    await domain(globex, 'acme.com', 'auto_join', 'pending');
    const ops = await organization('Ops', 'ops', tenant.consoleProjectId);
    await domain(ops, 'acme.com', 'auto_join');
    expect((await signIn('bob@acme.com')).status).toBe(200);
    expect(await addedEvents()).toHaveLength(0);

    await domain(acme, 'acme.com', 'auto_join');
    for (const email of ['bob@acme.com', 'cy@sub.acme.com', 'dee@acme.com'])
      expect((await signIn(email)).status).toBe(200);
    const members = await membersOf(acme);
    expect(members.map((m) => [m.userId, m.role]).sort()).toEqual(
      [
        [bob.id, 'member'],
        [dee.id, 'admin'],
      ].sort(),
    );
    expect((await addedEvents()).map((e) => e.payload)).toEqual([
      {
        organization: { id: acme.id, name: 'Acme' },
        member: { user_id: bob.id, email: 'bob@acme.com', role: 'member' },
        via: 'domain',
        domain: 'acme.com',
      },
    ]);
    expect(await membersOf(globex)).toEqual([]);
    expect(await membersOf(ops)).toEqual([]);
  });

  it('auto_join under concurrent sign-ins of one user: one membership, one event', async () => {
    await domain(acme, 'acme.com', 'auto_join');
    const ivy = await signUpUser(t, key(), 'ivy@acme.com');
    await markVerified(ivy.id);
    const answers = await Promise.all(Array.from({ length: 6 }, () => signIn('ivy@acme.com')));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await membersOf(acme)).toEqual([
      expect.objectContaining({ userId: ivy.id, role: 'member' }),
    ]);
    expect(await addedEvents()).toHaveLength(1);
  });

  it('suggest: a verified user sees the organization suggested and accepts it; an unverified one sees nothing and cannot accept', async () => {
    const suggested = await domain(acme, 'acme.com', 'suggest', 'verified', 'billing');
    const globex = await organization('Globex', 'globex');
    await domain(globex, 'globex.com', 'suggest');
    const eve = await signUpUser(t, key(), 'eve@acme.com');
    const fay = await signUpUser(t, key(), 'fay@acme.com');
    await markVerified(eve.id);

    // Unverified: nothing suggested, nothing to accept, no join at sign-in.
    expect((await suggestions(fay.accessToken)).body).toEqual({ suggestions: [] });
    expectProblem(await accept(fay.accessToken, suggested.id), 404, 'not-found');
    // A suggest domain does not join at sign-in.
    expect((await signIn('eve@acme.com')).status).toBe(200);
    expect(await membersOf(acme)).toEqual([]);

    const list = await suggestions(eve.accessToken);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      suggestions: [
        {
          id: suggested.id,
          organization: { id: acme.id, name: 'Acme', slug: 'acme' },
          domain: 'acme.com',
          role: 'billing',
        },
      ],
    });
    expectProblem(await accept(eve.accessToken, 'not-an-id'), 404, 'not-found');
    const joined = await accept(eve.accessToken, suggested.id);
    expect(joined.status).toBe(200);
    expect(joined.body).toEqual({
      id: acme.id,
      name: 'Acme',
      slug: 'acme',
      role: 'billing',
      permissions: [],
    });
    expect((await mine(eve.accessToken)).body).toEqual({ organizations: [joined.body] });
    expect((await suggestions(eve.accessToken)).body).toEqual({ suggestions: [] });
    expectProblem(await accept(eve.accessToken, suggested.id), 404, 'not-found');
    const events = await addedEvents();
    expect(events).toHaveLength(1);
    expect(events[0].payload).toEqual({
      organization: { id: acme.id, name: 'Acme' },
      member: { user_id: eve.id, email: 'eve@acme.com', role: 'billing' },
      via: 'domain',
      domain: 'acme.com',
    });

    // A suggestion turned off (enrollment none) is gone.
    const gus = await signUpUser(t, key(), 'gus@acme.com');
    await markVerified(gus.id);
    await t.dataSource
      .getRepository(OrganizationDomain)
      .update({ id: suggested.id }, { enrollment: 'none' });
    expect((await suggestions(gus.accessToken)).body).toEqual({ suggestions: [] });
    expectProblem(await accept(gus.accessToken, suggested.id), 404, 'not-found');
    expect(await membersOf(acme)).toHaveLength(1);
  });

  it('concurrent accepts of one suggestion make one membership and one event; the others are 404', async () => {
    const suggested = await domain(acme, 'acme.com', 'suggest');
    const hal = await signUpUser(t, key(), 'hal@acme.com');
    await markVerified(hal.id);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => accept(hal.accessToken, suggested.id)),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404, 404]);
    for (const r of answers.filter((x) => x.status === 404)) expectProblem(r, 404, 'not-found');
    expect(await membersOf(acme)).toEqual([
      expect.objectContaining({ userId: hal.id, role: 'member' }),
    ]);
    expect(await addedEvents()).toHaveLength(1);
  });

  it('needs a session, and a suggestion of another project is 404', async () => {
    const suggested = await domain(acme, 'acme.com', 'suggest');
    expectProblem(
      await t.http().get('/v1/auth/organizations/suggestions').set('X-Service-Project-Key', key()),
      401,
      'unauthenticated',
    );
    const other = await seedTenant(t.app, 'Beta');
    const res = await t
      .http()
      .post('/v1/auth/sign-up')
      .set('X-Service-Project-Key', other.projectKey)
      .set('X-Forwarded-For', nextIp())
      .send({ email: 'hal@acme.com', password: 'a sturdy passphrase 42' });
    expect(res.status).toBe(201);
    await markVerified(res.body.user.id as string);
    const as = {
      'X-Service-Project-Key': other.projectKey,
      Authorization: `Bearer ${res.body.session.access_token as string}`,
    };
    expect((await t.http().get('/v1/auth/organizations/suggestions').set(as)).body).toEqual({
      suggestions: [],
    });
    expectProblem(
      await t
        .http()
        .post(`/v1/auth/organizations/suggestions/${suggested.id}/accept`)
        .set(as)
        .send({}),
      404,
      'not-found',
    );
    expect(await membersOf(acme)).toEqual([]);
  });
});
