import {
  arrivalOf,
  cleanSearch,
  describeScope,
  errorDescription,
  errorHint,
  errorTitle,
  pageOf,
  providerLabel,
  returnErrorMessage,
  signInPageUrl,
} from './pages';

describe('hosted pages: rules of the URL', () => {
  it('picks the screen from the last path segment, and nothing else', () => {
    expect(pageOf('/v1/projects/0b6b3c8e-8a57-4a57-9d59-1b2b3c4d5e6f/pages/sign-in')).toBe(
      'sign-in',
    );
    expect(pageOf('/v1/projects/p/pages/consent/')).toBe('consent');
    expect(pageOf('/v1/projects/p/pages/signed-out')).toBe('signed-out');
    expect(pageOf('/v1/projects/p/pages/error')).toBe('error');
    expect(pageOf('/v1/projects/p/pages/admin')).toBeNull();
    expect(pageOf('/')).toBeNull();
  });

  it("names the page's own URL as a project registers it (no query, no trailing slash)", () => {
    expect(signInPageUrl('https://auth.example.com/', 'abc')).toBe(
      'https://auth.example.com/v1/projects/abc/pages/sign-in',
    );
    expect(signInPageUrl('http://localhost:4000', 'a/b')).toBe(
      'http://localhost:4000/v1/projects/a%2Fb/pages/sign-in',
    );
  });

  it('takes the interaction from the URL first, else from what the tab kept; refuses malformed uids', () => {
    expect(
      arrivalOf('?interaction=abc_DEF-123', { interaction: 'old', pending: null }).interaction,
    ).toBe('abc_DEF-123');
    expect(arrivalOf('', { interaction: 'kept', pending: null }).interaction).toBe('kept');
    expect(
      arrivalOf('?interaction=%3Cscript%3E', { interaction: null, pending: null }).interaction,
    ).toBeNull();
    expect(
      arrivalOf(`?interaction=${'a'.repeat(129)}`, { interaction: 'kept', pending: null })
        .interaction,
    ).toBe('kept');
    expect(arrivalOf('', { interaction: 'not valid!', pending: null }).interaction).toBeNull();
  });

  it('reads what a social sign-in or a magic link came back with', () => {
    expect(
      arrivalOf('?mfa_required=true&mfa_token=tok', { interaction: 'i', pending: 'social' }),
    ).toEqual({
      interaction: 'i',
      mfaToken: 'tok',
      error: null,
      pending: 'social',
      resetToken: null,
    });
    expect(arrivalOf('?mfa_token=tok', { interaction: 'i', pending: null }).mfaToken).toBeNull();
    expect(arrivalOf('?error=account_exists', { interaction: 'i', pending: 'magic-link' })).toEqual(
      {
        interaction: 'i',
        mfaToken: null,
        error: 'account_exists',
        pending: 'magic-link',
        resetToken: null,
      },
    );
    expect(arrivalOf('', { interaction: 'i', pending: 'something' }).pending).toBeNull();
    // A mailed reset link comes back with ?token= (and is dropped from the address bar like every one-time value).
    expect(arrivalOf('?token=reset-tok', { interaction: null, pending: null }).resetToken).toBe(
      'reset-tok',
    );
    expect(
      arrivalOf(`?token=${'t'.repeat(513)}`, { interaction: null, pending: null }).resetToken,
    ).toBeNull();
  });

  it('keeps only the interaction in the address bar', () => {
    expect(cleanSearch('a b')).toBe('?interaction=a%20b');
    expect(cleanSearch(null)).toBe('');
  });
});

describe('hosted pages: words', () => {
  it('describes the standard scopes in plain language and names the others', () => {
    expect(describeScope('email')).toEqual({
      scope: 'email',
      label: 'Your email address',
      description: 'Your email address and whether it is verified.',
    });
    expect(describeScope('offline_access').label).toBe('Stay connected');
    expect(describeScope('openid').label).toBe('Sign you in');
    expect(describeScope('profile').label).toBe('Your profile');
    expect(describeScope('billing:read')).toEqual({
      scope: 'billing:read',
      label: 'billing:read',
      description: 'A permission this application defines.',
    });
    expect(describeScope('constructor').label).toBe('constructor');
    const resources = [
      {
        name: 'MCP server',
        scopes: [
          { name: 'mcp:tools', description: 'Use the tools' },
          { name: 'mcp:read', description: '' },
        ],
      },
    ];
    expect(describeScope('mcp:tools', resources)).toEqual({
      scope: 'mcp:tools',
      label: 'Use the tools',
      description: 'mcp:tools · MCP server',
    });
    expect(describeScope('mcp:read', resources)).toEqual({
      scope: 'mcp:read',
      label: 'mcp:read',
      description: 'A permission of MCP server.',
    });
    expect(describeScope('email', resources).label).toBe('Your email address');
  });

  it('explains return errors and provider errors', () => {
    expect(returnErrorMessage('account_exists')).toMatch(/already exists/);
    expect(returnErrorMessage('invalid_token')).toMatch(/link/);
    expect(returnErrorMessage('weird')).toBe('The sign-in did not complete (weird).');
    expect(errorTitle('access_denied')).toBe('Access was denied');
    expect(errorTitle('invalid_request')).toBe('The application sent an invalid request');
    expect(errorTitle(null)).toBe('Something went wrong');
    // The standard's fixed words for a code and the fixed hints; anything else (a link's own text) gives nothing.
    expect(errorDescription('invalid_scope')).toBe(
      'The requested scope is invalid, unknown, or malformed.',
    );
    expect(errorDescription('call +1 555 0100')).toBeNull();
    expect(errorDescription('toString')).toBeNull();
    expect(errorHint('redirect_uris')).toMatch(/redirect_uris/);
    expect(errorHint('Your account is locked')).toBeNull();
  });

  it('labels providers as people know them', () => {
    expect(providerLabel('github')).toBe('GitHub');
    expect(providerLabel('gitlab')).toBe('Gitlab');
  });
});
