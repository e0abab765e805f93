import { X509Certificate } from 'node:crypto';
import { selfSignedCertificate } from '@gatehouse/crypto';
import { AuditEvent, OutboxEvent, SsoConnection } from '@gatehouse/entities';
import {
  expectProblem,
  HttpReceiver,
  mintAccessToken,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

const base64Of = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

/** An IdP's metadata as SimpleSAMLphp publishes it. */
const metadata = (cert: string, entityId = 'http://127.0.0.1:8080/saml2/idp/metadata.php') =>
  `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${cert}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="http://127.0.0.1:8080/saml2/idp/SSOService.php"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

/** Enterprise SSO connections of organizations (docs/api-contract.md §15): the admin routes. */
describe('admin SSO connections: SAML and OpenID Connect, domains, roles, write-only secrets', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let token: string;
  let cert: string;
  let cert2: string;
  let idp: HttpReceiver;
  const auth = () => ({ Authorization: `Bearer ${token}` });
  const post = (path: string, body: object = {}) => t.http().post(path).set(auth()).send(body);
  const patch = (path: string, body: object) => t.http().patch(path).set(auth()).send(body);
  const get = (path: string) => t.http().get(path).set(auth());
  const del = (path: string) => t.http().delete(path).set(auth());
  const connections = (orgId: string) => `/v1/admin/organizations/${orgId}/sso-connections`;
  const newOrg = async (name: string) => {
    const res = await post('/v1/admin/organizations', { project_id: tenant.project.id, name });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const verifiedDomain = async (orgId: string, domain: string) => {
    const added = await post(`/v1/admin/organizations/${orgId}/domains`, { domain });
    expect(added.status).toBe(201);
    const verified = await patch(`/v1/admin/organizations/${orgId}/domains/${added.body.id}`, {
      status: 'verified',
      reason: 'checked by phone',
    });
    expect(verified.status).toBe(200);
  };
  const rows = () => t.dataSource.getRepository(SsoConnection).find();
  const oidcBody = {
    type: 'oidc',
    name: 'Acme Entra',
    oidc: {
      issuer: 'https://login.acme.example/v2.0',
      client_id: 'gatehouse',
      client_secret: 'entra-secret-1',
    },
  };

  beforeAll(async () => {
    cert = base64Of((await selfSignedCertificate('idp.acme.example', 30)).certificatePem);
    cert2 = base64Of((await selfSignedCertificate('idp2.acme.example', 30)).certificatePem);
    idp = new HttpReceiver();
    await idp.start();
    t = await startTestApp(buildControlPlane, { PUBLIC_AUTH_URL: 'https://auth.example.com' });
  });
  beforeEach(async () => {
    await t.reset();
    idp.requests.length = 0;
    tenant = await seedTenant(t.app);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
  });
  afterAll(async () => {
    await t.close();
    await idp.stop();
  });

  it('creates a SAML connection from IdP metadata: 201 with the service provider values, its own sealed signing key, audited, an event', async () => {
    const orgId = await newOrg('Acme');
    await verifiedDomain(orgId, 'acme.example');
    const res = await post(connections(orgId), {
      type: 'saml',
      name: 'Acme Okta',
      domains: ['ACME.example'],
      saml: { idp_metadata_xml: metadata(cert) },
      group_roles: { 'acme-admins': 'admin' },
    });
    expect(res.status).toBe(201);
    const id = res.body.id as string;
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      organization_id: orgId,
      type: 'saml',
      name: 'Acme Okta',
      domains: ['acme.example'],
      enabled: true,
      enforce: false,
      jit: { enabled: true, default_role: 'member' },
      attribute_mapping: {},
      group_roles: { 'acme-admins': 'admin' },
      saml: {
        idp_entity_id: 'http://127.0.0.1:8080/saml2/idp/metadata.php',
        sso_url: 'http://127.0.0.1:8080/saml2/idp/SSOService.php',
        certificates: [
          {
            fingerprint_sha256: new X509Certificate(Buffer.from(cert, 'base64')).fingerprint256,
            not_before: expect.any(String),
            not_after: expect.any(String),
          },
        ],
        allow_idp_initiated: false,
        idp_metadata_url: null,
      },
      sp: {
        entity_id: `https://auth.example.com/v1/sso/saml/${id}/metadata`,
        acs_url: `https://auth.example.com/v1/sso/saml/${id}/acs`,
        metadata_url: `https://auth.example.com/v1/sso/saml/${id}/metadata`,
      },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const [row] = await rows();
    expect(new X509Certificate(row.spCertificate!).subject).toBe('CN=Gatehouse SSO acme');
    expect(row.spPrivateKeyEncrypted).toBeTruthy();
    expect(row.spPrivateKeyEncrypted).not.toContain('PRIVATE KEY');
    expect(
      await t.dataSource
        .getRepository(AuditEvent)
        .findOneByOrFail({ action: 'sso_connection.created' }),
    ).toMatchObject({
      actorType: 'admin',
      actorId: tenant.adminUserId,
      resourceType: 'sso_connection',
      resourceId: id,
      metadata: {
        organization: { id: orgId, name: 'Acme' },
        connection: { id, type: 'saml', name: 'Acme Okta', domains: ['acme.example'] },
      },
    });
    expect(
      await t.dataSource.getRepository(OutboxEvent).countBy({ type: 'sso_connection.created' }),
    ).toBe(1);
    expect((await get(`${connections(orgId)}/${id}`)).body).toEqual(res.body);
    const list = await get(connections(orgId));
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      sso_connections: [res.body],
      pagination: expect.objectContaining({ total: 1 }),
    });
  });

  it('creates an OpenID Connect connection whose client secret is write-only and sealed at rest, with the redirect URI to register', async () => {
    const orgId = await newOrg('Acme');
    const res = await post(connections(orgId), oidcBody);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'oidc',
      domains: [],
      oidc: {
        issuer: 'https://login.acme.example/v2.0',
        client_id: 'gatehouse',
        scopes: ['openid', 'email', 'profile'],
      },
      redirect_uri: `https://auth.example.com/v1/auth/sso/${res.body.id}/callback`,
    });
    expect(res.body).not.toHaveProperty('sp');
    expect(res.body).not.toHaveProperty('saml');
    expect(JSON.stringify(res.body)).not.toContain('entra-secret-1');
    const [row] = await rows();
    expect(row.oidcClientSecretEncrypted).toBeTruthy();
    expect(row.oidcClientSecretEncrypted).not.toContain('entra-secret-1');
    expect(row.spCertificate).toBeNull();
    const audit = await t.dataSource.getRepository(AuditEvent).find();
    expect(JSON.stringify(audit)).not.toContain('entra-secret-1');
    const scoped = await post(connections(orgId), {
      ...oidcBody,
      oidc: { ...oidcBody.oidc, scopes: ['email', 'groups'] },
    });
    expect(scoped.body.oidc.scopes).toEqual(['openid', 'email', 'groups']);
  });

  it('fetches the metadata from a URL, and refuses a URL that answers no metadata or is at a refused address', async () => {
    const orgId = await newOrg('Acme');
    idp.respond = (req) =>
      req.path === '/metadata'
        ? { status: 200, body: metadata(cert), headers: { 'content-type': 'application/xml' } }
        : { status: 404, body: 'no' };
    const res = await post(connections(orgId), {
      type: 'saml',
      name: 'By URL',
      saml: { idp_metadata_url: `${idp.url}/metadata`, allow_idp_initiated: true },
    });
    expect(res.status).toBe(201);
    expect(res.body.saml).toMatchObject({
      idp_metadata_url: `${idp.url}/metadata`,
      allow_idp_initiated: true,
    });
    expect(idp.requests.map((r) => r.method + ' ' + r.path)).toEqual(['GET /metadata']);
    const missing = await post(connections(orgId), {
      type: 'saml',
      name: 'Missing',
      saml: { idp_metadata_url: `${idp.url}/nowhere` },
    });
    expectProblem(missing, 400, 'validation-error');
    expect(missing.body.errors).toEqual({
      'saml.idp_metadata_url': ['answered 404, not the metadata'],
    });
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/metadata']) {
      const refused = await post(connections(orgId), {
        type: 'saml',
        name: 'Internal',
        saml: { idp_metadata_url: url },
      });
      expectProblem(refused, 400, 'validation-error');
      expect(refused.body.errors['saml.idp_metadata_url'][0]).toContain('OAUTH_ALLOW_PRIVATE_URLS');
    }
    expect(await rows()).toHaveLength(1);
  });

  it('refuses bad bodies with the field that is wrong, and writes nothing', async () => {
    const orgId = await newOrg('Acme');
    await verifiedDomain(orgId, 'acme.example');
    await newOrg('Other');
    const cases: [object, Record<string, string[]>][] = [
      [{ type: 'saml', name: 'x' }, { saml: ['is required with type saml'] }],
      [{ type: 'oidc', name: 'x' }, { oidc: ['is required with type oidc'] }],
      [
        {
          type: 'saml',
          name: 'x',
          saml: { idp_metadata_xml: metadata(cert) },
          oidc: oidcBody.oidc,
        },
        { oidc: ['is only taken with type oidc'] },
      ],
      [
        { type: 'saml', name: 'x', saml: {} },
        { saml: ['must have exactly one of idp_metadata_xml and idp_metadata_url'] },
      ],
      [
        {
          type: 'saml',
          name: 'x',
          saml: { idp_metadata_xml: `<!DOCTYPE x [<!ENTITY a "b">]>${metadata(cert)}` },
        },
        { 'saml.idp_metadata_xml': ['the metadata must not contain a document type declaration'] },
      ],
      [
        { type: 'saml', name: 'x', saml: { idp_metadata_xml: metadata('AAAA') } },
        {
          'saml.idp_metadata_xml': [
            'the metadata has a signing certificate that does not parse as X.509',
          ],
        },
      ],
      [
        { ...oidcBody, domains: ['other.example'] },
        { domains: ['"other.example" is not a verified domain of this organization'] },
      ],
      [
        { ...oidcBody, jit: { default_role: 'billing' } },
        { 'jit.default_role': ['is not a role of this project'] },
      ],
      [
        { ...oidcBody, group_roles: { finance: 'billing' } },
        { group_roles: ['the role of "finance" is not a role of this project'] },
      ],
      [
        { ...oidcBody, oidc: { client_id: 'x', client_secret: 'y' } },
        { 'oidc.issuer': ['is required'] },
      ],
      [
        { ...oidcBody, oidc: { ...oidcBody.oidc, issuer: 'ftp://idp.example' } },
        { 'oidc.issuer': ['must be an absolute http or https URL'] },
      ],
      [
        { ...oidcBody, oidc: { issuer: 'https://idp.example', client_id: 'x' } },
        { 'oidc.client_secret': ['is required'] },
      ],
    ];
    for (const [body, errors] of cases) {
      const res = await post(connections(orgId), body);
      expectProblem(res, 400, 'validation-error');
      expect({ body, errors: res.body.errors }).toEqual({ body, errors });
    }
    for (const body of [
      { ...oidcBody, type: 'ldap' },
      { ...oidcBody, name: '   ' },
      { ...oidcBody, enabled: null },
      { ...oidcBody, group_roles: { g: 'Not A Role' } },
      { ...oidcBody, oidc: { ...oidcBody.oidc, scopes: 'openid' } },
      { ...oidcBody, is_admin: true },
    ]) {
      const res = await post(connections(orgId), body);
      expectProblem(res, 400, 'validation-error');
    }
    const refused = await post(connections(orgId), {
      ...oidcBody,
      oidc: { ...oidcBody.oidc, issuer: 'http://169.254.169.254' },
    });
    expect(refused.body.errors['oidc.issuer'][0]).toContain('OAUTH_ALLOW_PRIVATE_URLS');
    expect(await rows()).toEqual([]);
    expect(
      await t.dataSource.getRepository(AuditEvent).countBy({ resourceType: 'sso_connection' }),
    ).toBe(0);
  });

  it('keeps a domain in one connection of the organization (409), and 404s for an unknown organization or connection', async () => {
    const orgId = await newOrg('Acme');
    await verifiedDomain(orgId, 'acme.example');
    await verifiedDomain(orgId, 'acme.test');
    const first = await post(connections(orgId), { ...oidcBody, domains: ['acme.example'] });
    expect(first.status).toBe(201);
    const clash = await post(connections(orgId), {
      ...oidcBody,
      domains: ['acme.test', 'acme.example'],
    });
    expectProblem(clash, 409, 'conflict');
    expect(clash.body.errors).toEqual({ domains: ['acme.example is in another connection'] });
    const second = await post(connections(orgId), { ...oidcBody, domains: ['acme.test'] });
    expect(second.status).toBe(201);
    const moved = await patch(`${connections(orgId)}/${second.body.id}`, {
      domains: ['acme.test', 'acme.example'],
    });
    expectProblem(moved, 409, 'conflict');
    const nobody = '00000000-0000-4000-8000-000000000000';
    expectProblem(await get(connections(nobody)), 404, 'not-found');
    expectProblem(await post(connections('not-a-uuid'), oidcBody), 404, 'not-found');
    expectProblem(await get(`${connections(orgId)}/${nobody}`), 404, 'not-found');
    expectProblem(await patch(`${connections(orgId)}/x`, { name: 'y' }), 404, 'not-found');
    expectProblem(await del(`${connections(orgId)}/${nobody}`), 404, 'not-found');
    const otherOrg = await newOrg('Other');
    expectProblem(await get(`${connections(otherOrg)}/${first.body.id}`), 404, 'not-found');
  });

  it('gives a domain to one of several connections created at once (one 201, the others 409, one event)', async () => {
    const orgId = await newOrg('Acme');
    await verifiedDomain(orgId, 'acme.example');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        post(connections(orgId), { ...oidcBody, name: `Race ${i}`, domains: ['acme.example'] }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((a) => a.status === 409)) expectProblem(r, 409, 'conflict');
    const saved = await rows();
    expect(saved.map((r) => r.domains)).toEqual([['acme.example']]);
    expect(
      await t.dataSource.getRepository(OutboxEvent).countBy({ type: 'sso_connection.created' }),
    ).toBe(1);
  });

  it('updates member by member with data.changes, replaces the IdP settings with new metadata, rotates the OIDC secret; refuses a type change', async () => {
    const orgId = await newOrg('Acme');
    const saml = await post(connections(orgId), {
      type: 'saml',
      name: 'Acme Okta',
      saml: { idp_metadata_xml: metadata(cert) },
    });
    const path = `${connections(orgId)}/${saml.body.id}`;
    const res = await patch(path, {
      name: 'Acme Okta (prod)',
      enforce: true,
      jit: { enabled: false },
      attribute_mapping: { groups: 'memberOf' },
      group_roles: { staff: 'member' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Acme Okta (prod)',
      enforce: true,
      jit: { enabled: false, default_role: 'member' },
      attribute_mapping: { groups: 'memberOf' },
      group_roles: { staff: 'member' },
      sp: saml.body.sp,
    });
    const updated = await t.dataSource
      .getRepository(AuditEvent)
      .findOneByOrFail({ action: 'sso_connection.updated' });
    expect(updated.metadata.changes).toEqual({
      name: { from: 'Acme Okta', to: 'Acme Okta (prod)' },
      enforce: { from: false, to: true },
      'jit.enabled': { from: true, to: false },
      attribute_mapping: { from: {}, to: { groups: 'memberOf' } },
      group_roles: { from: {}, to: { staff: 'member' } },
    });
    const replaced = await patch(path, {
      saml: { idp_metadata_xml: metadata(cert2, 'https://idp2.acme.example') },
    });
    expect(replaced.body.saml).toMatchObject({
      idp_entity_id: 'https://idp2.acme.example',
      certificates: [
        expect.objectContaining({
          fingerprint_sha256: new X509Certificate(Buffer.from(cert2, 'base64')).fingerprint256,
        }),
      ],
    });
    const unchanged = await patch(path, { name: 'Acme Okta (prod)' });
    expect(unchanged.status).toBe(200);
    expect(
      await t.dataSource.getRepository(AuditEvent).countBy({ action: 'sso_connection.updated' }),
    ).toBe(2);
    expectProblem(await patch(path, { type: 'oidc' }), 400, 'validation-error');
    const wrong = await patch(path, { oidc: { client_id: 'x' } });
    expectProblem(wrong, 400, 'validation-error');
    expect(wrong.body.errors).toEqual({ oidc: ['is only taken by a oidc connection'] });

    const oidc = await post(connections(orgId), oidcBody);
    const before = (await rows()).find((r) => r.id === oidc.body.id)!.oidcClientSecretEncrypted;
    const rotated = await patch(`${connections(orgId)}/${oidc.body.id}`, {
      oidc: { client_secret: 'entra-secret-2' },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.oidc).toEqual(oidc.body.oidc);
    const after = (await rows()).find((r) => r.id === oidc.body.id)!.oidcClientSecretEncrypted;
    expect(after).not.toBe(before);
    const events = await t.dataSource
      .getRepository(AuditEvent)
      .findBy({ action: 'sso_connection.updated', resourceId: oidc.body.id });
    expect(events.map((e) => e.metadata.changes)).toEqual([
      { 'oidc.client_secret': { from: '(sealed)', to: '(replaced)' } },
    ]);
    expect(JSON.stringify(events)).not.toContain('entra-secret-2');
  });

  it('deletes a connection (204, an event); a role a connection gives cannot be deleted meanwhile', async () => {
    const orgId = await newOrg('Acme');
    const role = await post(`/v1/admin/projects/${tenant.project.id}/roles`, {
      key: 'billing',
      name: 'Billing',
      permissions: [],
    });
    expect(role.status).toBe(201);
    const c = await post(connections(orgId), { ...oidcBody, group_roles: { finance: 'billing' } });
    expect(c.status).toBe(201);
    const held = await del(`/v1/admin/projects/${tenant.project.id}/roles/billing`);
    expectProblem(held, 409, 'conflict');
    expect(held.body.detail).toContain('given by 1 SSO connection(s)');
    const gone = await del(`${connections(orgId)}/${c.body.id}`);
    expect(gone.status).toBe(204);
    expectProblem(await get(`${connections(orgId)}/${c.body.id}`), 404, 'not-found');
    expect(
      await t.dataSource.getRepository(OutboxEvent).countBy({ type: 'sso_connection.deleted' }),
    ).toBe(1);
    expect((await del(`/v1/admin/projects/${tenant.project.id}/roles/billing`)).status).toBe(204);
  });
});
