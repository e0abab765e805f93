import { AuditEvent, OrganizationDomain, OutboxEvent } from '@gatehouse/entities';
import {
  expectProblem,
  mintAccessToken,
  seedTenant,
  startTestApp,
  TxtDnsServer,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

/** Verified domains of organizations (docs/api-contract.md §14), against a real DNS server on loopback. */
describe('admin organization domains: add, verify by DNS TXT or by the admin, enrollment, delete', () => {
  let t: TestApp;
  let dns: TxtDnsServer;
  let tenant: SeededTenant;
  let token: string;
  const auth = () => ({ Authorization: `Bearer ${token}` });
  const post = (path: string, body: object = {}) => t.http().post(path).set(auth()).send(body);
  const patch = (path: string, body: object) => t.http().patch(path).set(auth()).send(body);
  const get = (path: string) => t.http().get(path).set(auth());
  const domains = (orgId: string) => `/v1/admin/organizations/${orgId}/domains`;
  const newOrg = async (name: string, projectId = tenant.project.id) => {
    const res = await post('/v1/admin/organizations', { project_id: projectId, name });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const addDomain = async (orgId: string, domain: string) => {
    const res = await post(domains(orgId), { domain });
    expect(res.status).toBe(201);
    return res.body as {
      id: string;
      domain: string;
      verification: { type: string; name: string; value: string };
    };
  };

  beforeAll(async () => {
    dns = await new TxtDnsServer().start();
    t = await startTestApp(buildControlPlane, { DNS_RESOLVERS: dns.address });
  });
  beforeEach(async () => {
    dns.reset();
    await t.reset();
    tenant = await seedTenant(t.app);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
  });
  afterAll(async () => {
    await t.close();
    await dns.close();
  });

  it('adds a pending domain with its TXT record, lists and gets it; verifies it when the TXT record holds the value', async () => {
    const orgId = await newOrg('Acme');
    const res = await post(domains(orgId), { domain: 'Acme.COM' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      organization_id: orgId,
      domain: 'acme.com',
      status: 'pending',
      verification: {
        type: 'dns_txt',
        name: '_gatehouse-verification.acme.com',
        value: expect.stringMatching(/^gatehouse-verification=[A-Za-z0-9_-]{32}$/),
      },
      enrollment: 'none',
      default_role: 'member',
      verified_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(
      await t.dataSource
        .getRepository(AuditEvent)
        .findOneByOrFail({ action: 'organization.domain.created' }),
    ).toMatchObject({
      actorType: 'admin',
      actorId: tenant.adminUserId,
      projectId: tenant.project.id,
      resourceType: 'organization_domain',
      resourceId: res.body.id,
    });
    expect((await get(domains(orgId))).body).toEqual({
      domains: [res.body],
      pagination: expect.objectContaining({ total: 1 }),
    });
    expect((await get(`${domains(orgId)}/${res.body.id}`)).body).toEqual(res.body);
    expectProblem(await post(domains(orgId), { domain: 'acme.com.' }), 409, 'conflict');

    // An IDN is stored in punycode.
    expect((await post(domains(orgId), { domain: 'Bücher.example' })).body.domain).toBe(
      'xn--bcher-kva.example',
    );

    dns.setTxt('_gatehouse-verification.acme.com', 'v=spf1 -all', res.body.verification.value);
    const verified = await post(`${domains(orgId)}/${res.body.id}/verify`);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      ...res.body,
      status: 'verified',
      verified_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(dns.queries).toContain('_gatehouse-verification.acme.com');
    expect(
      await t.dataSource
        .getRepository(OutboxEvent)
        .countBy({ type: 'organization.domain.verified' }),
    ).toBe(1);
    expect(
      (
        await t.dataSource
          .getRepository(AuditEvent)
          .findOneByOrFail({ action: 'organization.domain.verified' })
      ).metadata,
    ).toMatchObject({ method: 'dns_txt', domain: { domain: 'acme.com', status: 'verified' } });
    // Verifying again changes nothing and records nothing.
    expect((await post(`${domains(orgId)}/${res.body.id}/verify`)).body).toEqual(verified.body);
    expect(
      await t.dataSource
        .getRepository(OutboxEvent)
        .countBy({ type: 'organization.domain.verified' }),
    ).toBe(1);
  });

  it('a TXT record without the value is 409 naming what it holds; none at all says so; a failing or silent server is 503', async () => {
    const orgId = await newOrg('Acme');
    const d = await addDomain(orgId, 'acme.com');
    const verify = () => post(`${domains(orgId)}/${d.id}/verify`);

    const none = expectProblem(await verify(), 409, 'conflict');
    expect(none.detail).toBe('No TXT record found at _gatehouse-verification.acme.com.');
    expect(none.found).toEqual([]);

    dns.setTxt('_gatehouse-verification.acme.com', 'gatehouse-verification=wrong', [
      'split-',
      'record',
    ]);
    const wrong = expectProblem(await verify(), 409, 'conflict');
    expect(wrong.found).toEqual(['gatehouse-verification=wrong', 'split-record']);
    expect(wrong.detail).toContain('"gatehouse-verification=wrong"');
    expect(wrong.detail).toContain('"split-record"');

    dns.fail('_gatehouse-verification.acme.com');
    const failed = expectProblem(await verify(), 503, 'service-unavailable');
    expect(failed.detail).toMatch(/_gatehouse-verification\.acme\.com failed \(ESERVFAIL\)/);

    // A server that never answers: 503 within the 5 s bound, not a hung request or a 500.
    dns.reset();
    dns.ignore('_gatehouse-verification.acme.com');
    const started = Date.now();
    const timedOut = expectProblem(await verify(), 503, 'service-unavailable');
    expect(timedOut.detail).toMatch(/failed \(ETIMEOUT\); try again later\.$/);
    expect(Date.now() - started).toBeLessThan(7000);

    expect((await get(`${domains(orgId)}/${d.id}`)).body.status).toBe('pending');
    expect(
      await t.dataSource
        .getRepository(OutboxEvent)
        .countBy({ type: 'organization.domain.verified' }),
    ).toBe(0);
  }, 20_000);

  it('an admin verifies without DNS with an audited reason, and sets the enrollment and a default role of the project', async () => {
    const orgId = await newOrg('Acme');
    const d = await addDomain(orgId, 'acme.com');
    const path = `${domains(orgId)}/${d.id}`;

    expectProblem(await patch(path, { status: 'verified' }), 400, 'validation-error');
    expectProblem(await patch(path, { reason: 'because' }), 400, 'validation-error');
    expectProblem(
      await patch(path, { status: 'verified', reason: 'x'.repeat(501) }),
      400,
      'validation-error',
    );
    expectProblem(await patch(path, { status: 'pending', reason: 'x' }), 400, 'validation-error');
    expectProblem(await patch(path, { enrollment: 'always' }), 400, 'validation-error');
    const unknownRole = expectProblem(
      await patch(path, { default_role: 'billing' }),
      400,
      'validation-error',
    );
    expect(unknownRole.errors).toEqual({ default_role: ['is not a role of this project'] });

    const res = await patch(path, { status: 'verified', reason: 'Contract signed, ticket #42' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'verified', verified_at: expect.any(String) });
    expect(
      (
        await t.dataSource
          .getRepository(AuditEvent)
          .findOneByOrFail({ action: 'organization.domain.verified' })
      ).metadata,
    ).toMatchObject({ method: 'admin', reason: 'Contract signed, ticket #42' });

    const role = await post(`/v1/admin/projects/${tenant.project.id}/roles`, {
      key: 'billing',
      name: 'Billing',
      permissions: [],
    });
    expect(role.status).toBe(201);
    const enrolled = await patch(path, { enrollment: 'auto_join', default_role: 'billing' });
    expect(enrolled.status).toBe(200);
    expect(enrolled.body).toMatchObject({ enrollment: 'auto_join', default_role: 'billing' });
    expect(
      (
        await t.dataSource
          .getRepository(AuditEvent)
          .findOneByOrFail({ action: 'organization.domain.updated' })
      ).metadata,
    ).toMatchObject({
      changes: {
        enrollment: { from: 'none', to: 'auto_join' },
        default_role: { from: 'member', to: 'billing' },
      },
    });
    // A role a domain gives cannot be deleted.
    const refused = expectProblem(
      await t.http().delete(`/v1/admin/projects/${tenant.project.id}/roles/billing`).set(auth()),
      409,
      'conflict',
    );
    expect(refused.detail).toContain('1 organization domain(s)');

    const deleted = await t.http().delete(path).set(auth());
    expect(deleted.status).toBe(204);
    expectProblem(await get(path), 404, 'not-found');
    expect(
      await t.dataSource
        .getRepository(OutboxEvent)
        .countBy({ type: 'organization.domain.deleted' }),
    ).toBe(1);
    expect(
      (await t.http().delete(`/v1/admin/projects/${tenant.project.id}/roles/billing`).set(auth()))
        .status,
    ).toBe(204);
  });

  it('a domain is verified for at most one organization of the project, also when two verifications race', async () => {
    const a = await newOrg('Alpha');
    const b = await newOrg('Beta');
    const da = await addDomain(a, 'acme.com');
    const db = await addDomain(b, 'acme.com');
    expect(
      (await patch(`${domains(a)}/${da.id}`, { status: 'verified', reason: 'ok' })).status,
    ).toBe(200);
    expectProblem(
      await patch(`${domains(b)}/${db.id}`, { status: 'verified', reason: 'ok' }),
      409,
      'conflict',
    );
    dns.setTxt('_gatehouse-verification.acme.com', db.verification.value);
    const byDns = expectProblem(await post(`${domains(b)}/${db.id}/verify`), 409, 'conflict');
    expect(byDns.detail).toBe('Another organization of the project has this domain verified.');
    // Another project of the tenant may verify the same domain.
    const other = await newOrg('Ops', tenant.consoleProjectId);
    const dOther = await addDomain(other, 'acme.com');
    expect(
      (await patch(`${domains(other)}/${dOther.id}`, { status: 'verified', reason: 'ok' })).status,
    ).toBe(200);

    // Once the first is deleted, racing verifications of two others: exactly one wins.
    expect(
      (
        await t
          .http()
          .delete(`${domains(a)}/${da.id}`)
          .set(auth())
      ).status,
    ).toBe(204);
    const c = await newOrg('Gamma');
    const dc = await addDomain(c, 'acme.com');
    dns.setTxt('_gatehouse-verification.acme.com', db.verification.value, dc.verification.value);
    const raced = await Promise.all([
      post(`${domains(b)}/${db.id}/verify`),
      post(`${domains(c)}/${dc.id}/verify`),
      patch(`${domains(b)}/${db.id}`, { status: 'verified', reason: 'race' }),
      patch(`${domains(c)}/${dc.id}`, { status: 'verified', reason: 'race' }),
    ]);
    const statuses = raced.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    for (const r of raced.filter((x) => x.status === 409)) expectProblem(r, 409, 'conflict');
    const verified = await t.dataSource
      .getRepository(OrganizationDomain)
      .findBy({ projectId: tenant.project.id, status: 'verified' });
    expect(verified).toHaveLength(1);
    const winner = verified[0].organizationId;
    // The winner's two requests are 200, the loser's two are 409.
    expect(statuses).toEqual(winner === b ? [200, 409, 200, 409] : [409, 200, 409, 200]);
  });

  it('refuses a bad domain, an oversized one and unknown fields with problem details', async () => {
    const orgId = await newOrg('Acme');
    for (const domain of [
      'localhost',
      'not a domain.com',
      'https://acme.com',
      'ana@acme.com',
      '10.0.0.1',
      `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`,
      'x'.repeat(2000),
    ]) {
      const p = expectProblem(await post(domains(orgId), { domain }), 400, 'validation-error');
      expect(Object.keys(p.errors as object)).toEqual(['domain']);
    }
    expectProblem(await post(domains(orgId), {}), 400, 'validation-error');
    expectProblem(await post(domains(orgId), { domain: 42 }), 400, 'validation-error');
    expectProblem(
      await post(domains(orgId), { domain: 'acme.com', status: 'verified' }),
      400,
      'validation-error',
    );
    const d = await addDomain(orgId, 'acme.com');
    expectProblem(
      await post(`${domains(orgId)}/${d.id}/verify`, { force: true }),
      400,
      'validation-error',
    );
    expectProblem(await get(`${domains(orgId)}/not-an-id`), 404, 'not-found');
    expectProblem(await get(domains('not-an-id')), 404, 'not-found');
  });

  it("another tenant's admin gets 404 on every domain route", async () => {
    const orgId = await newOrg('Acme');
    const d = await addDomain(orgId, 'acme.com');
    const other = await seedTenant(t.app, 'Beta');
    const otherToken = (await mintAccessToken(t.app, other.adminUserId)).token;
    const as = { Authorization: `Bearer ${otherToken}` };
    dns.setTxt('_gatehouse-verification.acme.com', d.verification.value);
    const answers = [
      await t.http().post(domains(orgId)).set(as).send({ domain: 'beta.com' }),
      await t.http().get(domains(orgId)).set(as),
      await t
        .http()
        .get(`${domains(orgId)}/${d.id}`)
        .set(as),
      await t
        .http()
        .post(`${domains(orgId)}/${d.id}/verify`)
        .set(as)
        .send({}),
      await t
        .http()
        .patch(`${domains(orgId)}/${d.id}`)
        .set(as)
        .send({ status: 'verified', reason: 'mine' }),
      await t
        .http()
        .patch(`${domains(orgId)}/${d.id}`)
        .set(as)
        .send({ enrollment: 'auto_join' }),
      await t
        .http()
        .delete(`${domains(orgId)}/${d.id}`)
        .set(as),
    ];
    for (const res of answers) expectProblem(res, 404, 'not-found');
    expect(dns.queries).toEqual([]);
    expect((await get(`${domains(orgId)}/${d.id}`)).body).toMatchObject({
      status: 'pending',
      enrollment: 'none',
    });
    expect(await t.dataSource.getRepository(OrganizationDomain).count()).toBe(1);
  });
});
