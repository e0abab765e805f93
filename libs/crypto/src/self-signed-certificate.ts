import { randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as Crypto);

/** A key pair and its self-signed certificate, in PEM. */
export interface SelfSignedCertificate {
  certificatePem: string;
  privateKeyPem: string;
}

/**
 * An RSA 2048 key and a self-signed X.509 certificate for it (SHA-256 with RSA), valid from a minute
 * ago for `days`: what a SAML service provider signs its AuthnRequests with and publishes in its
 * metadata (a SAML peer trusts the key it is given, not a certificate authority; docs/api-contract.md §15).
 */
export async function selfSignedCertificate(
  commonName: string,
  days: number,
  now: Date = new Date(),
): Promise<SelfSignedCertificate> {
  const algorithm = {
    name: 'RSASSA-PKCS1-v1_5',
    hash: 'SHA-256',
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 2048,
  };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(16)
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    name: `CN=${commonName.replace(/[,=+<>#;"\\]/g, ' ')}`,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + days * 86_400_000),
    signingAlgorithm: algorithm,
    keys,
    extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  const body = Buffer.from(pkcs8).toString('base64').replace(/.{64}/g, '$&\n');
  return {
    certificatePem: cert.toString('pem'),
    privateKeyPem: `-----BEGIN PRIVATE KEY-----\n${body}${body.endsWith('\n') ? '' : '\n'}-----END PRIVATE KEY-----\n`,
  };
}
