import {
  Organization,
  OrganizationMember,
  User,
  ProjectPermission,
  ProjectRole,
} from '@gatehouse/entities';
import { ProjectsCache } from '@gatehouse/identity';
import {
  cookiesOf,
  expectProblem,
  seedTenant,
  signUpUser,
  startTestApp,
  type SeededTenant,
  type SignedUpUser,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';
import { oathtool } from './support/totp';

const SYSTEM = ['org:members:read', 'org:members:manage', 'org:settings:manage', 'org:delete'];

/** The claims of a JWT, unverified (the runtime signed it; these tests read what it says). */
const claimsOf = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;

describe('the active organization: the org claim across refreshes, /me, and the user’s organizations (docs/api-contract.md §14)', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let ada: SignedUpUser;
  let acme: Organization;
  let globex: Organization;
  let refreshToken: string;

  const key = () => tenant.projectKey;
  const bearer = (token: string) => ({
    'X-Service-Project-Key': key(),
    Authorization: `Bearer ${token}`,
  });
  const setActive = (token: string, organization_id: unknown) =>
    t.http().post('/v1/auth/organizations/active').set(bearer(token)).send({ organization_id });
  const me = (token: string) => t.http().get('/v1/auth/me').set(bearer(token));
  /** Rotates Ada's refresh token; returns the new access token. */
  const refresh = async (): Promise<string> => {
    const res = await t
      .http()
      .post('/v1/auth/refresh')
      .set('X-Service-Project-Key', key())
      .set('Cookie', `service_refresh_token=${refreshToken}`);
    expect(res.status).toBe(200);
    refreshToken = cookiesOf(res).service_refresh_token.value;
    return res.body.access_token as string;
  };
  const organization = (projectId: string, name: string, slug: string) =>
    t.dataSource.getRepository(Organization).save({
      tenantId: tenant.tenantId,
      projectId,
      name,
      slug,
      metadata: {},
    });
  const join = (org: Organization, userId: string, role: string) =>
    t.dataSource
      .getRepository(OrganizationMember)
      .save({ organizationId: org.id, userId, tenantId: tenant.tenantId, role });

  beforeAll(async () => {
    t = await startTestApp(buildAuthRuntime, { RATE_LIMITS_ENABLED: 'false' });
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    ada = await signUpUser(t, key(), 'ada@example.com');
    refreshToken = ada.refreshToken;
    acme = await organization(tenant.project.id, 'Acme', 'acme');
    globex = await organization(tenant.project.id, 'Globex', 'globex');
    await t.dataSource.getRepository(ProjectPermission).save(
      ['invoices:read', 'invoices:write'].map((k) => ({
        tenantId: tenant.tenantId,
        projectId: tenant.project.id,
        key: k,
        description: '',
      })),
    );
    await t.dataSource.getRepository(ProjectRole).save({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      key: 'billing',
      name: 'Billing',
      description: '',
      permissions: ['org:members:read', 'invoices:read'],
    });
    await join(acme, ada.id, 'billing');
  });
  afterAll(() => t.close());

  it("lists the user's organizations of the project with role and permissions", async () => {
    await join(globex, ada.id, 'admin');
    const res = await t.http().get('/v1/auth/organizations').set(bearer(ada.accessToken));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      organizations: [
        {
          id: acme.id,
          name: 'Acme',
          slug: 'acme',
          role: 'billing',
          permissions: ['org:members:read', 'invoices:read'],
        },
        {
          id: globex.id,
          name: 'Globex',
          slug: 'globex',
          role: 'admin',
          permissions: [...SYSTEM, 'invoices:read', 'invoices:write'],
        },
      ],
    });
    expectProblem(
      await t.http().get('/v1/auth/organizations').set('X-Service-Project-Key', key()),
      401,
      'unauthenticated',
    );
  });

  it('makes a membership active: the token carries org, /me shows it, and every refresh carries it', async () => {
    expect((await me(ada.accessToken)).body.active_organization).toBeNull();
    const res = await setActive(ada.accessToken, acme.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), expires_in: 900 });
    const org = {
      id: acme.id,
      slug: 'acme',
      role: 'billing',
      permissions: ['org:members:read', 'invoices:read'],
    };
    const claims = claimsOf(res.body.access_token);
    expect(claims.org).toEqual(org);
    expect(claims).toMatchObject({ sub: ada.id, sid: ada.sessionId });
    expect(cookiesOf(res).service_session.value).toBe(res.body.access_token);

    expect((await me(res.body.access_token)).body.active_organization).toEqual({
      ...org,
      name: 'Acme',
    });
    // The session keeps it: a token issued before, and every refreshed one, show it too.
    expect((await me(ada.accessToken)).body.active_organization).toEqual({ ...org, name: 'Acme' });
    expect(claimsOf(await refresh()).org).toEqual(org);
    expect(claimsOf(await refresh()).org).toEqual(org);
  });

  it('a role change reaches the next refresh; a membership ended drops the claim there and in /me', async () => {
    await setActive(ada.accessToken, acme.id);
    await t.dataSource
      .getRepository(OrganizationMember)
      .update({ organizationId: acme.id, userId: ada.id }, { role: 'admin' });
    expect(claimsOf(await refresh()).org).toEqual({
      id: acme.id,
      slug: 'acme',
      role: 'admin',
      permissions: [...SYSTEM, 'invoices:read', 'invoices:write'],
    });
    await t.dataSource
      .getRepository(ProjectRole)
      .update(
        { projectId: tenant.project.id, key: 'billing' },
        { permissions: ['invoices:write'] },
      );
    await t.dataSource
      .getRepository(OrganizationMember)
      .update({ organizationId: acme.id, userId: ada.id }, { role: 'billing' });
    expect((claimsOf(await refresh()).org as { permissions: string[] }).permissions).toEqual([
      'invoices:write',
    ]);

    await t.dataSource
      .getRepository(OrganizationMember)
      .delete({ organizationId: acme.id, userId: ada.id });
    const after = await refresh();
    expect(claimsOf(after)).not.toHaveProperty('org');
    expect((await me(after)).body.active_organization).toBeNull();
    // Joining again does not need the user to choose again: the session still names it.
    await join(acme, ada.id, 'member');
    expect(claimsOf(await refresh()).org).toEqual({
      id: acme.id,
      slug: 'acme',
      role: 'member',
      permissions: [],
    });
  });

  it('refuses an organization the user is not a member of (403), of another project (403), and malformed ids (400), changing nothing', async () => {
    expectProblem(await setActive(ada.accessToken, globex.id), 403, 'forbidden');
    const other = await seedTenant(t.app, 'Elsewhere');
    const foreign = await t.dataSource.getRepository(Organization).save({
      tenantId: other.tenantId,
      projectId: other.project.id,
      name: 'Foreign',
      slug: 'foreign',
      metadata: {},
    });
    await t.dataSource.getRepository(OrganizationMember).save({
      organizationId: foreign.id,
      userId: ada.id,
      tenantId: other.tenantId,
      role: 'admin',
    });
    expectProblem(await setActive(ada.accessToken, foreign.id), 403, 'forbidden');
    expectProblem(
      await setActive(ada.accessToken, '00000000-0000-4000-8000-000000000000'),
      403,
      'forbidden',
    );
    for (const bad of ['acme', 42, {}, undefined, ['x']])
      expectProblem(await setActive(ada.accessToken, bad), 400, 'validation-error');
    expect((await me(ada.accessToken)).body.active_organization).toBeNull();
    expect(claimsOf(await refresh())).not.toHaveProperty('org');
    expectProblem(
      await t
        .http()
        .post('/v1/auth/organizations/active')
        .set('X-Service-Project-Key', key())
        .send({ organization_id: acme.id }),
      401,
      'unauthenticated',
    );
  });

  it('null clears it; a revoked session cannot set one (401); another user’s session is untouched', async () => {
    const bob = await signUpUser(t, key(), 'bob@example.com');
    await join(acme, bob.id, 'member');
    await setActive(ada.accessToken, acme.id);
    const cleared = await setActive(ada.accessToken, null);
    expect(cleared.status).toBe(200);
    expect(claimsOf(cleared.body.access_token)).not.toHaveProperty('org');
    expect((await me(ada.accessToken)).body.active_organization).toBeNull();
    expect((await me(bob.accessToken)).body.active_organization).toBeNull();

    await t.http().post('/v1/auth/sign-out').set(bearer(bob.accessToken));
    expectProblem(await setActive(bob.accessToken, acme.id), 401, 'unauthenticated');
  });

  it('re-authentication keeps the active organization in its fresh token', async () => {
    await setActive(ada.accessToken, acme.id);
    const res = await t
      .http()
      .post('/v1/auth/reauthenticate')
      .set(bearer(ada.accessToken))
      .send({ password: ada.password });
    expect(res.status).toBe(200);
    expect((claimsOf(res.body.access_token).org as { id: string }).id).toBe(acme.id);
  });

  it('an organization that requires MFA cannot be made active without a second factor (403 mfa-required), then can', async () => {
    await t.dataSource
      .getRepository(Organization)
      .update({ id: acme.id }, { settings: { require_mfa: true } });
    const refused = expectProblem(await setActive(ada.accessToken, acme.id), 403, 'mfa-required');
    expect(String(refused.detail)).toMatch(/second factor/);
    expect((await me(ada.accessToken)).body.active_organization).toBeNull();
    // Clearing needs no factor; another organization without the policy stays open.
    await join(globex, ada.id, 'member');
    expect((await setActive(ada.accessToken, globex.id)).status).toBe(200);
    expect((await setActive(ada.accessToken, null)).status).toBe(200);

    const post = (path: string, body: object) =>
      t.http().post(path).set(bearer(ada.accessToken)).send(body);
    const setup = await post('/v1/auth/mfa/totp/setup', {});
    expect(setup.status).toBe(200);
    expect(
      (await post('/v1/auth/mfa/totp/verify', { code: oathtool(setup.body.secret as string, t) }))
        .status,
    ).toBe(200);
    const res = await setActive(ada.accessToken, acme.id);
    expect(res.status).toBe(200);
    expect((claimsOf(res.body.access_token).org as { id: string }).id).toBe(acme.id);
  });

  it("renders the project's token_claims into every access token: sign-in, active organization, refresh, re-authentication", async () => {
    await t.dataSource.query(`UPDATE projects SET settings = settings || $2::jsonb WHERE id = $1`, [
      tenant.project.id,
      JSON.stringify({
        token_claims: {
          plan: '{{user.metadata.plan}}',
          seats: '{{user.metadata.seats}}',
          verified: '{{user.email_verified}}',
          tier: '{{org.metadata.tier}}',
          label: '{{user.metadata.plan}} in {{org.metadata.tier}}',
          missing: '{{user.metadata.nothing}}',
        },
      }),
    ]);
    await t.app.get(ProjectsCache).invalidateProject(tenant.project);
    await t.dataSource
      .getRepository(User)
      .update({ id: ada.id }, { metadata: { plan: 'pro', seats: 5 } });
    await t.dataSource
      .getRepository(Organization)
      .update({ id: acme.id }, { metadata: { tier: 'gold' } });
    const custom = (jwt: string) => {
      const { plan, seats, verified, tier, label, missing } = claimsOf(jwt);
      return { plan, seats, verified, tier, label, missing };
    };

    const signIn = await t
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', key())
      .send({ identifier: 'ada@example.com', password: ada.password });
    expect(signIn.status).toBe(200);
    expect(custom(signIn.body.session.access_token)).toEqual({
      plan: 'pro',
      seats: 5,
      verified: false,
      tier: undefined,
      label: undefined,
      missing: undefined,
    });
    const active = await setActive(ada.accessToken, acme.id);
    expect(active.status).toBe(200);
    expect(custom(active.body.access_token)).toEqual({
      plan: 'pro',
      seats: 5,
      verified: false,
      tier: 'gold',
      label: 'pro in gold',
      missing: undefined,
    });
    // A change of the metadata reaches the next refresh.
    await t.dataSource.getRepository(User).update({ id: ada.id }, { metadata: { plan: 'team' } });
    expect(custom(await refresh())).toEqual({
      plan: 'team',
      seats: undefined,
      verified: false,
      tier: 'gold',
      label: 'team in gold',
      missing: undefined,
    });
    const reauth = await t
      .http()
      .post('/v1/auth/reauthenticate')
      .set(bearer(ada.accessToken))
      .send({ password: ada.password });
    expect(reauth.status).toBe(200);
    expect(custom(reauth.body.access_token)).toMatchObject({ plan: 'team', tier: 'gold' });
    // Registered claims are never a template's: the token still says who and where.
    expect(claimsOf(reauth.body.access_token)).toMatchObject({
      sub: ada.id,
      aud: tenant.project.id,
    });
    // Left, the organization's metadata no longer reaches the token.
    await t.dataSource
      .getRepository(OrganizationMember)
      .delete({ organizationId: acme.id, userId: ada.id });
    expect(custom(await refresh())).toEqual({
      plan: 'team',
      seats: undefined,
      verified: false,
      tier: undefined,
      label: undefined,
      missing: undefined,
    });
  });

  it('leaves out the custom claims past 4 KiB of rendered JSON; the rest and the registered claims stay', async () => {
    await t.dataSource.query(`UPDATE projects SET settings = settings || $2::jsonb WHERE id = $1`, [
      tenant.project.id,
      JSON.stringify({
        token_claims: {
          first: '{{user.metadata.first}}',
          second: '{{user.metadata.second}}',
          small: '{{user.metadata.small}}',
        },
      }),
    ]);
    await t.app.get(ProjectsCache).invalidateProject(tenant.project);
    await t.dataSource
      .getRepository(User)
      .update(
        { id: ada.id },
        { metadata: { first: 'a'.repeat(3000), second: 'b'.repeat(3000), small: 'fits' } },
      );
    const signIn = await t
      .http()
      .post('/v1/auth/sign-in')
      .set('X-Service-Project-Key', key())
      .send({ identifier: 'ada@example.com', password: ada.password });
    expect(signIn.status).toBe(200);
    const claims = claimsOf(signIn.body.session.access_token);
    expect([claims.first, claims.second, claims.small]).toEqual([
      'a'.repeat(3000),
      undefined,
      'fits',
    ]);
    expect(claims).toMatchObject({ sub: ada.id, aud: tenant.project.id });
    const custom = JSON.stringify({ first: claims.first, small: claims.small });
    expect(Buffer.byteLength(custom)).toBeLessThanOrEqual(4096);
    // The same cap holds on refresh, where the claims are rendered from the refresh statement.
    const refreshed = claimsOf(await refresh());
    expect([refreshed.first, refreshed.second, refreshed.small]).toEqual([
      'a'.repeat(3000),
      undefined,
      'fits',
    ]);
  });
});
