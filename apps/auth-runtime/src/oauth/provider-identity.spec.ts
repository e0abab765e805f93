import { identityFromClaims, identityFromGitHub, providerEmail } from './provider-identity';

describe('provider identities', () => {
  it('reads subject, email and the verified assertion from ID token claims', () => {
    expect(
      identityFromClaims('google', { sub: 's', email: ' a@example.com ', email_verified: true }),
    ).toEqual({ provider: 'google', subject: 's', email: 'a@example.com', emailVerified: true });
    expect(
      identityFromClaims('apple', { sub: 's', email: 'a@example.com', email_verified: 'true' })
        .emailVerified,
    ).toBe(true);
    expect(
      identityFromClaims('apple', { sub: 's', email: 'a@example.com', email_verified: 'false' })
        .emailVerified,
    ).toBe(false);
    // Only Apple's string counts: Google and Microsoft assert with a boolean.
    expect(
      identityFromClaims('google', { sub: 's', email: 'a@example.com', email_verified: 'true' })
        .emailVerified,
    ).toBe(false);
    expect(
      identityFromClaims('microsoft', { sub: 's', email: 'a@example.com', email_verified: 'true' })
        .emailVerified,
    ).toBe(false);
    expect(
      identityFromClaims('microsoft', { sub: 's', email: 'a@example.com' }).emailVerified,
    ).toBe(false);
    expect(
      identityFromClaims('microsoft', { sub: 's', email: 'a@example.com', xms_edov: true })
        .emailVerified,
    ).toBe(true);
    expect(
      identityFromClaims('google', { sub: 's', email: 'a@example.com', xms_edov: true })
        .emailVerified,
    ).toBe(false);
  });

  it('completes a token without email from userinfo about the same subject only', () => {
    expect(
      identityFromClaims(
        'microsoft',
        { sub: 's' },
        { sub: 's', email: 'u@example.com', email_verified: true },
      ),
    ).toMatchObject({ email: 'u@example.com', emailVerified: true });
    expect(() =>
      identityFromClaims(
        'google',
        { sub: 's', email: 'a@example.com' },
        { sub: 'other', email: 'u@example.com' },
      ),
    ).toThrow(/another subject/);
  });

  it('takes GitHub’s primary address with its own verified flag', () => {
    const emails = [
      { email: 'other@example.com', primary: false, verified: true },
      { email: 'main@example.com', primary: true, verified: false },
    ];
    expect(identityFromGitHub({ user: { id: 42 }, emails })).toEqual({
      provider: 'github',
      subject: '42',
      email: 'main@example.com',
      emailVerified: false,
    });
    expect(identityFromGitHub({ user: { id: 42 }, emails: [] })).toMatchObject({
      email: null,
      emailVerified: false,
    });
    for (const docs of [
      { user: null, emails: [] },
      { user: { id: -1 }, emails: [] },
      { user: { id: 'abc' }, emails: [] },
      { user: { id: 1 }, emails: { a: 1 } },
    ]) {
      expect(() => identityFromGitHub(docs)).toThrow();
    }
  });

  it('treats implausible addresses as no email', () => {
    for (const v of [
      undefined,
      42,
      '',
      'nobody',
      'a b@example.com',
      'x@\u0000.com',
      `${'a'.repeat(320)}@example.com`,
      '\ud800@example.com',
    ]) {
      expect(providerEmail(v)).toBeNull();
    }
  });
});
