import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import { encryptSecret, selfSignedCertificate } from '@gatehouse/crypto';
import { Organization, SsoConnection } from '@gatehouse/entities';
import {
  expectProblem,
  seedTenant,
  startTestApp,
  TEST_ENCRYPTION_KEY,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';

const select = xpath.useNamespaces({
  md: 'urn:oasis:names:tc:SAML:2.0:metadata',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
});
const text = (expr: string, doc: Node): string => {
  const found = select(`string(${expr})`, doc);
  return typeof found === 'string' ? found : '';
};

/** The service provider's metadata of a SAML connection (docs/api-contract.md §15). */
describe('GET /v1/sso/saml/{connection_id}/metadata', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let org: Organization;
  const PUBLIC = 'https://auth.example.com';
  const save = (c: Partial<SsoConnection>) =>
    t.dataSource.getRepository(SsoConnection).save({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      organizationId: org.id,
      name: 'Acme Okta',
      domains: [],
      ...c,
    });

  beforeAll(async () => {
    t = await startTestApp(buildAuthRuntime, { PUBLIC_AUTH_URL: PUBLIC });
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    org = await t.dataSource.getRepository(Organization).save({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      name: 'Acme',
      slug: 'acme',
      metadata: {},
    });
  });
  afterAll(() => t.close());

  it("serves the connection's entity id, HTTP-POST ACS and signing certificate, asking for signed assertions, without a project key", async () => {
    const sp = await selfSignedCertificate('Gatehouse SSO acme', 30);
    const id = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
    await save({
      id,
      type: 'saml',
      saml: {
        idp_entity_id: 'https://idp.example',
        sso_url: 'https://idp.example/sso',
        certificates: [],
        allow_idp_initiated: false,
        idp_metadata_url: null,
      },
      spCertificate: sp.certificatePem,
      spPrivateKeyEncrypted: encryptSecret(
        Buffer.from(TEST_ENCRYPTION_KEY, 'base64'),
        sp.privateKeyPem,
        `sso:${id}:sp_private_key`,
      ),
    });
    const res = await t
      .http()
      .get(`/v1/sso/saml/${id}/metadata`)
      .buffer(true)
      .parse((r, done) => {
        let body = '';
        r.on('data', (c: Buffer) => (body += c.toString()));
        r.on('end', () => done(null, body));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    const doc = new DOMParser().parseFromString(res.body as string, 'text/xml') as unknown as Node;
    expect(text('/md:EntityDescriptor/@entityID', doc)).toBe(
      `${PUBLIC}/v1/sso/saml/${id}/metadata`,
    );
    const descriptor = '/md:EntityDescriptor/md:SPSSODescriptor';
    expect(text(`${descriptor}/@AuthnRequestsSigned`, doc)).toBe('true');
    expect(text(`${descriptor}/@WantAssertionsSigned`, doc)).toBe('true');
    expect(text(`${descriptor}/md:AssertionConsumerService/@Binding`, doc)).toBe(
      'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
    );
    expect(text(`${descriptor}/md:AssertionConsumerService/@Location`, doc)).toBe(
      `${PUBLIC}/v1/sso/saml/${id}/acs`,
    );
    const published = text(
      `${descriptor}/md:KeyDescriptor[@use='signing']/ds:KeyInfo/ds:X509Data/ds:X509Certificate`,
      doc,
    ).replace(/\s+/g, '');
    expect(new X509Certificate(Buffer.from(published, 'base64')).fingerprint256).toBe(
      new X509Certificate(sp.certificatePem).fingerprint256,
    );
    expect(res.body).not.toContain('PRIVATE KEY');
  });

  it('is 404 for an OpenID Connect connection, an unknown id or a malformed one', async () => {
    const oidc = await save({
      type: 'oidc',
      oidc: { issuer: 'https://idp.example', client_id: 'x', scopes: ['openid'] },
      oidcClientSecretEncrypted: 'sealed',
    });
    for (const id of [oidc.id, '00000000-0000-4000-8000-000000000000', 'not-an-id'])
      expectProblem(await t.http().get(`/v1/sso/saml/${id}/metadata`), 404, 'not-found');
  });
});
