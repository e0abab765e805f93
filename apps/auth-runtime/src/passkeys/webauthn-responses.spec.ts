import { ProblemError } from '@gatehouse/problem-details';
import {
  assertAuthenticationResponseJson,
  attestationFormatAccepted,
  authenticationResponseTypeErrors,
  challengeOf,
  cleanTransports,
  parseAuthenticationResponse,
  parseRegistrationResponse,
  relyingPartyOf,
  userHandleMatches,
  userHandleOf,
} from './webauthn-responses';

const b64 = (v: string | Buffer) => Buffer.from(v).toString('base64url');
/** CBOR: map(3) {"fmt": fmt, "attStmt": attStmt, "authData": h''} with attStmt given pre-encoded. */
const attestation = (fmt: string, attStmt: Buffer) =>
  Buffer.concat([
    Buffer.from([0xa3, 0x63]),
    Buffer.from('fmt'),
    Buffer.from([0x60 + fmt.length]),
    Buffer.from(fmt),
    Buffer.from([0x67]),
    Buffer.from('attStmt'),
    attStmt,
    Buffer.from([0x68]),
    Buffer.from('authData'),
    Buffer.from([0x40]),
  ]);

describe('webauthn responses', () => {
  it('takes the RP from settings, else from the first origin, else none', () => {
    const base = { name: 'Shop', allowedOrigins: ['https://shop.example.com:8443'], settings: {} };
    expect(
      relyingPartyOf({ ...base, settings: { rp_id: 'example.com', rp_name: 'Example' } }),
    ).toEqual({ id: 'example.com', name: 'Example', origins: ['https://shop.example.com:8443'] });
    expect(relyingPartyOf(base)).toEqual({
      id: 'shop.example.com',
      name: 'Shop',
      origins: ['https://shop.example.com:8443'],
    });
    expect(relyingPartyOf({ ...base, allowedOrigins: [] })).toBeNull();
    expect(relyingPartyOf({ ...base, allowedOrigins: ['not a url'] })).toBeNull();
    // An OIDC project's hosted sign-in page uses passkeys from the auth runtime's origin; the RP ID stays the application's.
    expect(
      relyingPartyOf(
        { ...base, settings: { rp_id: 'example.com', oidc: { enabled: true } } },
        'https://auth.example.com',
      ),
    ).toEqual({
      id: 'example.com',
      name: 'Shop',
      origins: ['https://shop.example.com:8443', 'https://auth.example.com'],
    });
    expect(relyingPartyOf(base, 'https://auth.example.com')?.origins).toEqual([
      'https://shop.example.com:8443',
    ]);
  });

  it('reads the challenge of clientDataJSON only when it has our form', () => {
    const challenge = 'A'.repeat(43);
    expect(challengeOf(b64(JSON.stringify({ type: 'webauthn.get', challenge })))).toBe(challenge);
    expect(challengeOf(b64(JSON.stringify({ challenge: 'short' })))).toBeNull();
    expect(challengeOf(b64(JSON.stringify({ challenge: { $gt: '' } })))).toBeNull();
    expect(challengeOf(b64('[1]'))).toBeNull();
    expect(challengeOf(b64('not json'))).toBeNull();
  });

  it('rebuilds responses from known fields and refuses wrong shapes', () => {
    const response = {
      clientDataJSON: 'YQ',
      authenticatorData: 'Yg',
      signature: 'Yw',
      userHandle: 'ZA',
      extra: 'dropped',
    };
    expect(
      parseAuthenticationResponse({ id: 'aa', rawId: 'aa', type: 'public-key', response, evil: 1 }),
    ).toEqual({
      id: 'aa',
      rawId: 'aa',
      type: 'public-key',
      response: {
        clientDataJSON: 'YQ',
        authenticatorData: 'Yg',
        signature: 'Yw',
        userHandle: 'ZA',
      },
      clientExtensionResults: {},
    });
    expect(
      parseAuthenticationResponse({
        id: 'aa',
        rawId: 'aa',
        type: 'public-key',
        response: { ...response, userHandle: null },
      })?.response.userHandle,
    ).toBeUndefined();
    expect(
      parseAuthenticationResponse({
        id: 'aa',
        rawId: 'aa',
        type: 'public-key',
        response: { ...response, userHandle: 5 },
      }),
    ).toBeNull();
    expect(
      parseAuthenticationResponse({ id: 'a a', rawId: 'aa', type: 'public-key', response }),
    ).toBeNull();
    expect(
      parseAuthenticationResponse({ id: 'aa', rawId: 'aa', type: 'public-key', response: [] }),
    ).toBeNull();
    expect(
      parseRegistrationResponse({
        id: 'aa',
        rawId: 'aa',
        type: 'public-key',
        response: {
          clientDataJSON: 'YQ',
          attestationObject: 'Yg',
          transports: ['usb', 'telepathy', 'usb', 7],
        },
      })?.response.transports,
    ).toEqual(['usb']);
    expect(
      parseRegistrationResponse({
        id: 'aa',
        rawId: 'aa',
        type: 'public-key',
        response: { clientDataJSON: 'YQ' },
      }),
    ).toBeNull();
    expect(cleanTransports('internal')).toEqual([]);
  });

  describe('AuthenticationResponseJSON types', () => {
    const good = {
      id: 'aa',
      rawId: 'aa',
      type: 'public-key',
      response: { clientDataJSON: 'YQ', authenticatorData: 'Yg', signature: 'Yw' },
    };

    it('accepts well-typed responses, whatever their values; optional members may be absent or null where WebAuthn allows', () => {
      const typed: unknown[] = [
        good,
        { ...good, id: '', rawId: 'not base64url!', type: 'password' },
        { ...good, response: { ...good.response, userHandle: 'ZA' } },
        { ...good, response: { ...good.response, userHandle: null, extra: 5 } },
        { ...good, response: { ...good.response, userHandle: undefined } },
        { ...good, clientExtensionResults: {}, authenticatorAttachment: 'platform', unknown: [1] },
        { ...good, authenticatorAttachment: null },
      ];
      for (const value of typed) expect(authenticationResponseTypeErrors(value)).toEqual({});
      expect(() => assertAuthenticationResponseJson(good)).not.toThrow();
    });

    it('names every missing or mistyped member by its dotted path', () => {
      expect(authenticationResponseTypeErrors({})).toEqual({
        'credential.id': ['is required (a string)'],
        'credential.rawId': ['is required (a string)'],
        'credential.type': ['is required (a string)'],
        'credential.response': ['is required (an object)'],
      });
      expect(
        authenticationResponseTypeErrors({
          ...good,
          id: 42,
          rawId: ['aa'],
          type: { a: 1 },
          clientExtensionResults: [],
          authenticatorAttachment: 1,
        }),
      ).toEqual({
        'credential.id': ['must be a string'],
        'credential.rawId': ['must be a string'],
        'credential.type': ['must be a string'],
        'credential.clientExtensionResults': ['must be an object'],
        'credential.authenticatorAttachment': ['must be a string or null'],
      });
      for (const response of [null, [], 'YQ', 7, true]) {
        expect(authenticationResponseTypeErrors({ ...good, response })).toEqual({
          'credential.response': ['must be an object'],
        });
      }
      expect(
        authenticationResponseTypeErrors(
          { ...good, response: { clientDataJSON: 1, authenticatorData: null, userHandle: 12 } },
          'assertion',
        ),
      ).toEqual({
        'assertion.response.clientDataJSON': ['must be a string'],
        'assertion.response.authenticatorData': ['must be a string'],
        'assertion.response.signature': ['is required (a string)'],
        'assertion.response.userHandle': ['must be a string or null'],
      });
      for (const value of [null, [], 'x', 3])
        expect(authenticationResponseTypeErrors(value)).toEqual({
          credential: ['must be an object'],
        });
    });

    it('throws a validation problem with those paths', () => {
      let thrown: unknown;
      try {
        assertAuthenticationResponseJson({ ...good, response: { ...good.response, signature: 5 } });
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(ProblemError);
      expect((thrown as ProblemError).slug).toBe('validation-error');
      expect((thrown as ProblemError).options.errors).toEqual({
        'credential.response.signature': ['must be a string'],
      });
    });
  });

  it('accepts none and self-attested packed attestations only', () => {
    expect(attestationFormatAccepted(b64(attestation('none', Buffer.from([0xa0]))))).toBe(true);
    // packed with {alg: -7, sig: h''} (self attestation)
    const self = Buffer.concat([
      Buffer.from([0xa2, 0x63]),
      Buffer.from('alg'),
      Buffer.from([0x26, 0x63]),
      Buffer.from('sig'),
      Buffer.from([0x40]),
    ]);
    expect(attestationFormatAccepted(b64(attestation('packed', self)))).toBe(true);
    // packed with x5c: [h''] (certificate chain → would fetch CRLs)
    const withCert = Buffer.concat([
      Buffer.from([0xa1, 0x63]),
      Buffer.from('x5c'),
      Buffer.from([0x81, 0x40]),
    ]);
    expect(attestationFormatAccepted(b64(attestation('packed', withCert)))).toBe(false);
    expect(attestationFormatAccepted(b64(attestation('tpm', Buffer.from([0xa0]))))).toBe(false);
    expect(attestationFormatAccepted(b64(Buffer.from([0xff, 0x00])))).toBe(false);
  });

  it('matches user handles by their bytes', () => {
    const id = '0b7c6a1e-2f44-4c1b-9d0e-6f1f0e3a9b11';
    const handle = Buffer.from(userHandleOf(id)).toString('base64url');
    expect(userHandleMatches(handle, id)).toBe(true);
    expect(userHandleMatches(`${handle}==`, id)).toBe(true);
    expect(userHandleMatches(handle, '0b7c6a1e-2f44-4c1b-9d0e-6f1f0e3a9b12')).toBe(false);
  });
});
