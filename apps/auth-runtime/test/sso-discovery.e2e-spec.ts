import { Organization, SsoConnection } from '@gatehouse/entities';
import {
  createUser,
  expectProblem,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';

/** Home-realm discovery (docs/api-contract.md §15): the connection of an email's domain. */
describe('POST /v1/auth/sso/discover', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let acme: Organization;
  const discover = (email: unknown, projectKey = tenant.projectKey) =>
    t.http().post('/v1/auth/sso/discover').set('X-Service-Project-Key', projectKey).send({ email });
  const connection = (org: Organization, c: Partial<SsoConnection>) =>
    t.dataSource.getRepository(SsoConnection).save({
      tenantId: org.tenantId,
      projectId: org.projectId,
      organizationId: org.id,
      type: 'oidc',
      name: 'Acme Entra',
      domains: ['acme.example'],
      oidc: { issuer: 'https://login.acme.example', client_id: 'gh', scopes: ['openid'] },
      oidcClientSecretEncrypted: 'sealed',
      ...c,
    });

  beforeAll(async () => {
    t = await startTestApp(buildAuthRuntime);
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    acme = await t.dataSource.getRepository(Organization).save({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      name: 'Acme',
      slug: 'acme',
      metadata: {},
    });
  });
  afterAll(() => t.close());

  it("finds the enabled connection of the email's domain, whatever the case; null for any other domain", async () => {
    const c = await connection(acme, { domains: ['acme.example', 'acme.test'] });
    for (const email of ['ada@acme.example', 'Grace.Hopper@ACME.Example', 'x@acme.test']) {
      const res = await discover(email);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        connection: { id: c.id, type: 'oidc', organization_id: acme.id, name: 'Acme Entra' },
      });
    }
    for (const email of ['ada@sub.acme.example', 'ada@acme.example.evil.com', 'ada@example.com']) {
      const res = await discover(email);
      expect({ email, body: res.body }).toEqual({ email, body: { connection: null } });
    }
  });

  it('answers alike for an email with an account and one without, and leaves out a disabled connection', async () => {
    await createUser(t.app, tenant.project, 'ada@acme.example');
    const c = await connection(acme, {});
    const found = {
      connection: { id: c.id, type: 'oidc', organization_id: acme.id, name: 'Acme Entra' },
    };
    const withAccount = await discover('ada@acme.example');
    const without = await discover('nobody@acme.example');
    expect([withAccount.status, without.status]).toEqual([200, 200]);
    expect(withAccount.body).toEqual(found);
    expect(without.body).toEqual(found);
    await t.dataSource.getRepository(SsoConnection).update({ id: c.id }, { enabled: false });
    for (const email of ['ada@acme.example', 'nobody@acme.example'])
      expect((await discover(email)).body).toEqual({ connection: null });
  });

  it("never answers with another project's connection, and refuses a missing key or a malformed email", async () => {
    const other = await seedTenant(t.app, 'Other');
    const theirs = await t.dataSource.getRepository(Organization).save({
      tenantId: other.tenantId,
      projectId: other.project.id,
      name: 'Theirs',
      slug: 'theirs',
      metadata: {},
    });
    await connection(theirs, {});
    expect((await discover('ada@acme.example')).body).toEqual({ connection: null });
    expect((await discover('ada@acme.example', other.projectKey)).body.connection).toMatchObject({
      organization_id: theirs.id,
    });
    expectProblem(
      await t.http().post('/v1/auth/sso/discover').send({ email: 'a@acme.example' }),
      401,
      'unauthenticated',
    );
    for (const email of ['not-an-email', '', 42, null, 'a@'.repeat(300)])
      expectProblem(await discover(email), 400, 'validation-error');
  });
});
