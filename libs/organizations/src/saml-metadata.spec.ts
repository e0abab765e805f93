import { X509Certificate } from 'node:crypto';
import { selfSignedCertificate } from '@gatehouse/crypto';
import {
  describeCertificate,
  MAX_METADATA_BYTES,
  parseIdpMetadata,
  SamlMetadataError,
} from './saml-metadata';

const base64Of = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

/** Metadata in the shape SimpleSAMLphp's saml20-idp-hosted publishes (wrapped certificate included). */
function idpMetadata(o: {
  cert: string;
  entityId?: string;
  sso?: string;
  keyUse?: string;
  extra?: string;
  protocol?: string;
}) {
  const wrapped = o.cert.replace(/.{64}/g, '$&\n          ');
  return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${o.entityId ?? 'http://127.0.0.1:8080/saml2/idp/metadata.php'}">
  <md:IDPSSODescriptor protocolSupportEnumeration="${o.protocol ?? 'urn:oasis:names:tc:SAML:2.0:protocol'}">
    <md:KeyDescriptor${o.keyUse === undefined ? ' use="signing"' : o.keyUse}>
      <ds:KeyInfo>
        <ds:X509Data>
          <ds:X509Certificate>
          ${wrapped}
          </ds:X509Certificate>
        </ds:X509Data>
      </ds:KeyInfo>
    </md:KeyDescriptor>
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="http://127.0.0.1:8080/saml2/idp/SingleLogoutService.php"/>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="http://127.0.0.1:8080/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${o.sso ?? 'http://127.0.0.1:8080/saml2/idp/SSOService.php'}"/>
  </md:IDPSSODescriptor>${o.extra ?? ''}
</md:EntityDescriptor>`;
}

describe('parseIdpMetadata', () => {
  let cert: string;
  let other: string;
  beforeAll(async () => {
    cert = base64Of((await selfSignedCertificate('idp.example', 30)).certificatePem);
    other = base64Of((await selfSignedCertificate('idp2.example', 30)).certificatePem);
  });

  const refusal = (xml: string) => {
    try {
      parseIdpMetadata(xml);
    } catch (err) {
      expect(err).toBeInstanceOf(SamlMetadataError);
      return (err as Error).message;
    }
    throw new Error('the metadata was accepted');
  };

  it("reads the entity id, the HTTP-Redirect SSO URL and the signing certificate (whitespace removed) of SimpleSAMLphp's metadata", () => {
    expect(parseIdpMetadata(idpMetadata({ cert }))).toEqual({
      entityId: 'http://127.0.0.1:8080/saml2/idp/metadata.php',
      ssoUrl: 'http://127.0.0.1:8080/saml2/idp/SSOService.php',
      certificates: [cert],
    });
  });

  it('keeps a key without `use` and every distinct signing certificate, leaves encryption keys out', () => {
    const xml = idpMetadata({ cert, keyUse: '' }).replace(
      '<md:SingleLogoutService',
      `<md:KeyDescriptor use="encryption"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${other}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
       <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${cert}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
       <md:SingleLogoutService`,
    );
    expect(parseIdpMetadata(xml).certificates).toEqual([cert]);
  });

  it('takes the one identity provider of an EntitiesDescriptor, and refuses two', () => {
    const one = idpMetadata({ cert }).replace('<?xml version="1.0"?>', '');
    const spOnly = `<md:EntityDescriptor entityID="sp"><md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/></md:EntityDescriptor>`;
    const wrap = (...entities: string[]) =>
      `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${entities.join('')}</md:EntitiesDescriptor>`;
    expect(parseIdpMetadata(wrap(spOnly, one)).entityId).toBe(
      'http://127.0.0.1:8080/saml2/idp/metadata.php',
    );
    expect(refusal(wrap(one, one.replace('metadata.php', 'other.php')))).toBe(
      'describes 2 identity providers; give the metadata of one',
    );
  });

  it('refuses what is not the metadata of a SAML 2.0 identity provider, saying why', () => {
    expect(refusal('not xml at all <')).toBe('is not well-formed XML');
    expect(refusal(idpMetadata({ cert }).replace('</md:IDPSSODescriptor>', '</md:Other>'))).toBe(
      'is not well-formed XML',
    );
    expect(
      refusal(
        `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="sp"><md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/></md:EntityDescriptor>`,
      ),
    ).toBe('describes no SAML 2.0 identity provider (IDPSSODescriptor)');
    expect(refusal(idpMetadata({ cert, protocol: 'urn:oasis:names:tc:SAML:1.1:protocol' }))).toBe(
      'describes no SAML 2.0 identity provider (IDPSSODescriptor)',
    );
    expect(refusal(idpMetadata({ cert, entityId: '' }))).toBe('has no entityID');
    expect(
      refusal(
        idpMetadata({ cert }).replace(
          'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="http://127.0.0.1:8080/saml2/idp/SSOService.php',
          'urn:oasis:names:tc:SAML:2.0:bindings:SOAP" Location="http://127.0.0.1:8080/saml2/idp/SSOService.php',
        ),
      ),
    ).toBe('has no SingleSignOnService of the HTTP-Redirect binding');
    expect(refusal(idpMetadata({ cert, sso: 'javascript:alert(1)' }))).toBe(
      'has a SingleSignOnService Location that is not http(s)',
    );
    expect(refusal(idpMetadata({ cert, sso: 'not a url' }))).toBe(
      'has a SingleSignOnService Location that is not a URL',
    );
    expect(refusal(idpMetadata({ cert, keyUse: ' use="encryption"' }))).toBe(
      'has no signing certificate (KeyDescriptor with X509Certificate)',
    );
    expect(refusal(idpMetadata({ cert: 'bm90IGEgY2VydGlmaWNhdGU=' }))).toBe(
      'has a signing certificate that does not parse as X.509',
    );
    expect(refusal(idpMetadata({ cert: 'not*base64' }))).toBe(
      'has a signing certificate that is not base64',
    );
  });

  it('refuses a document type declaration (no entity is expanded) and metadata over the size cap', () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>${idpMetadata({ cert }).replace('<?xml version="1.0"?>', '')}`;
    expect(refusal(bomb)).toBe('must not contain a document type declaration');
    const external = idpMetadata({ cert }).replace(
      '<?xml version="1.0"?>',
      '<?xml version="1.0"?><!doctype x SYSTEM "file:///etc/passwd">',
    );
    expect(refusal(external)).toBe('must not contain a document type declaration');
    const big = idpMetadata({ cert, extra: `<!--${'x'.repeat(MAX_METADATA_BYTES)}-->` });
    expect(refusal(big)).toBe('is larger than 256 KiB');
  });
});

describe('describeCertificate', () => {
  it("gives the certificate's SHA-256 fingerprint and validity", async () => {
    const now = new Date('2026-12-04T12:00:00Z');
    const pem = (await selfSignedCertificate('idp.example', 10, now)).certificatePem;
    const d = describeCertificate(base64Of(pem));
    expect(d).toEqual({
      fingerprint_sha256: new X509Certificate(pem).fingerprint256,
      not_before: '2026-12-04T11:59:00.000Z',
      not_after: '2026-12-14T12:00:00.000Z',
    });
  });
});
