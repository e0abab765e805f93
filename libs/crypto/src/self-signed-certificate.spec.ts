import { createPrivateKey, createSign, createVerify, X509Certificate } from 'node:crypto';
import { selfSignedCertificate } from './self-signed-certificate';

describe('selfSignedCertificate', () => {
  it('makes an RSA 2048 certificate for its name, valid for the days asked, whose key signs what the certificate verifies', async () => {
    const now = new Date('2026-12-04T12:00:00Z');
    const { certificatePem, privateKeyPem } = await selfSignedCertificate(
      'sp.example, evil=1',
      365,
      now,
    );
    const cert = new X509Certificate(certificatePem);
    expect(cert.subject).toBe('CN=sp.example  evil 1');
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(new Date(cert.validFrom).getTime()).toBe(now.getTime() - 60_000);
    expect(new Date(cert.validTo).getTime()).toBe(now.getTime() + 365 * 86_400_000);
    expect(cert.verify(cert.publicKey)).toBe(true);
    const signature = createSign('sha256')
      .update('AuthnRequest')
      .sign(createPrivateKey(privateKeyPem));
    expect(createVerify('sha256').update('AuthnRequest').verify(cert.publicKey, signature)).toBe(
      true,
    );
    expect(createVerify('sha256').update('another').verify(cert.publicKey, signature)).toBe(false);
  });

  it('gives every certificate its own key and serial number', async () => {
    const [a, b] = await Promise.all([
      selfSignedCertificate('a', 1),
      selfSignedCertificate('a', 1),
    ]);
    const [ca, cb] = [new X509Certificate(a.certificatePem), new X509Certificate(b.certificatePem)];
    expect(ca.serialNumber).not.toBe(cb.serialNumber);
    expect(ca.publicKey.export({ format: 'der', type: 'spki' })).not.toEqual(
      cb.publicKey.export({ format: 'der', type: 'spki' }),
    );
  });
});
