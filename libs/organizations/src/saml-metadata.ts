import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';

/** What a SAML connection needs from its identity provider's metadata (docs/api-contract.md §15). */
export interface SamlIdpMetadata {
  /** The IdP's `entityID`: the Issuer its responses must carry. */
  entityId: string;
  /** Where AuthnRequests go: the SingleSignOnService of the HTTP-Redirect binding. */
  ssoUrl: string;
  /** The IdP's signing certificates (base64 DER, no whitespace): a response must be signed by one. */
  certificates: string[];
}

/** Why metadata was refused, in words an admin can act on. */
export class SamlMetadataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SamlMetadataError';
  }
}

/** Larger metadata is refused before parsing (an IdP's own metadata is a few KiB). */
export const MAX_METADATA_BYTES = 256 * 1024;
const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const select = xpath.useNamespaces({ md: MD, ds: DS });
/** The nodes `expression` selects from `context`. */
const nodes = (expression: string, context: Node): Node[] => {
  const found = select(expression, context);
  return Array.isArray(found) ? found : [];
};

const attr = (node: unknown, name: string): string =>
  ((node as Element).getAttribute(name) ?? '').trim();

/**
 * The IdP's entity id, single sign-on URL and signing certificates from its metadata
 * (`EntityDescriptor`, or an `EntitiesDescriptor` holding exactly one identity provider). Refused,
 * with the reason: a document type declaration (no entity is ever expanded), XML that does not
 * parse, metadata of no SAML 2.0 identity provider or of several, no HTTP-Redirect
 * SingleSignOnService with an http(s) Location, no signing certificate, or one that does not parse.
 */
export function parseIdpMetadata(xml: string): SamlIdpMetadata {
  if (Buffer.byteLength(xml, 'utf8') > MAX_METADATA_BYTES)
    throw new SamlMetadataError(`is larger than ${MAX_METADATA_BYTES / 1024} KiB`);
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml))
    throw new SamlMetadataError('must not contain a document type declaration');
  const problems: string[] = [];
  const doc = new DOMParser({
    // xmldom only warns of a mismatched end tag: any warning refuses the document too.
    errorHandler: {
      warning: (message: string) => problems.push(message),
      error: (message: string) => problems.push(message),
      fatalError: (message: string) => problems.push(message),
    },
  }).parseFromString(xml, 'text/xml');
  if (problems.length || !doc?.documentElement)
    throw new SamlMetadataError('is not well-formed XML');
  const idps = nodes(
    "//md:EntityDescriptor[md:IDPSSODescriptor[contains(concat(' ', normalize-space(@protocolSupportEnumeration), ' '), ' " +
      PROTOCOL +
      " ')]]",
    doc,
  );
  if (idps.length === 0)
    throw new SamlMetadataError('describes no SAML 2.0 identity provider (IDPSSODescriptor)');
  if (idps.length > 1)
    throw new SamlMetadataError(
      `describes ${idps.length} identity providers; give the metadata of one`,
    );
  const entity = idps[0];
  const entityId = attr(entity, 'entityID');
  if (!entityId) throw new SamlMetadataError('has no entityID');
  const [descriptor] = nodes('md:IDPSSODescriptor', entity);
  const sso = nodes('md:SingleSignOnService', descriptor).find(
    (n) => attr(n, 'Binding') === REDIRECT_BINDING,
  );
  const ssoUrl = sso ? attr(sso, 'Location') : '';
  if (!ssoUrl)
    throw new SamlMetadataError('has no SingleSignOnService of the HTTP-Redirect binding');
  let url: URL;
  try {
    url = new URL(ssoUrl);
  } catch {
    throw new SamlMetadataError('has a SingleSignOnService Location that is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new SamlMetadataError('has a SingleSignOnService Location that is not http(s)');
  const keys = nodes('md:KeyDescriptor', descriptor).filter((k) => {
    const use = attr(k, 'use');
    return use === '' || use === 'signing';
  });
  const certificates: string[] = [];
  for (const key of keys)
    for (const node of nodes('ds:KeyInfo/ds:X509Data/ds:X509Certificate', key)) {
      const base64 = (node.textContent ?? '').replace(/\s+/g, '');
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64))
        throw new SamlMetadataError('has a signing certificate that is not base64');
      try {
        new X509Certificate(Buffer.from(base64, 'base64'));
      } catch {
        throw new SamlMetadataError('has a signing certificate that does not parse as X.509');
      }
      if (!certificates.includes(base64)) certificates.push(base64);
    }
  if (certificates.length === 0)
    throw new SamlMetadataError('has no signing certificate (KeyDescriptor with X509Certificate)');
  return { entityId, ssoUrl: url.href, certificates };
}

/** A certificate of the metadata as the admin API shows it: its SHA-256 fingerprint and validity. */
export function describeCertificate(base64: string): {
  fingerprint_sha256: string;
  not_before: string;
  not_after: string;
} {
  const cert = new X509Certificate(Buffer.from(base64, 'base64'));
  return {
    fingerprint_sha256: cert.fingerprint256,
    not_before: new Date(cert.validFrom).toISOString(),
    not_after: new Date(cert.validTo).toISOString(),
  };
}
