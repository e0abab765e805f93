import { OAUTH_PRIVATE_ADDRESS_MESSAGE } from '@gatehouse/outbound';
import {
  isRegisteredRedirectUrl,
  originProblem,
  providerAddressErrors,
  providerUrlProblem,
  redirectUrlProblem,
} from './url-rules';

describe('originProblem', () => {
  it.each([
    'https://app.example.com',
    'https://app.example.com:8443',
    'http://localhost:3000',
    'http://127.0.0.1:5173',
    'http://[::1]:8080',
  ])('accepts %s', (origin) => expect(originProblem(origin)).toBeNull());

  it.each([
    'https://app.example.com/',
    'https://app.example.com/path',
    'https://*.example.com',
    'https://app.example.com?x=1',
    'http://app.example.com',
    'ftp://app.example.com',
    'javascript:alert(1)',
    'null',
    'app.example.com',
    'https://user:pw@app.example.com',
    'HTTPS://APP.EXAMPLE.COM',
    'https://app.example.com:443',
    ' https://app.example.com',
    '',
  ])('refuses %j', (origin) => expect(originProblem(origin)).toEqual(expect.any(String)));
});

describe('redirectUrlProblem', () => {
  it.each([
    'https://app.example.com/callback',
    'https://app.example.com',
    'https://app.example.com/cb?x=1',
    'http://localhost:3000/cb',
    'http://127.0.0.1/cb',
  ])('accepts %s', (url) => expect(redirectUrlProblem(url)).toBeNull());

  it.each([
    'http://app.example.com/callback',
    'https://*.example.com/cb',
    'https://app.example.com/*',
    '/callback',
    'app.example.com/callback',
    'javascript:alert(1)',
    'https://app.example.com/cb#frag',
    'https://u:p@app.example.com/cb',
    'https://app.example.com/c b',
    'https:/app.example.com',
    'data:text/html,hi',
  ])('refuses %j', (url) => expect(redirectUrlProblem(url)).toEqual(expect.any(String)));
});

describe('providerUrlProblem', () => {
  it('accepts http(s) URLs on any host and refuses the rest', () => {
    expect(providerUrlProblem('http://idp.internal:8080/token')).toBeNull();
    expect(providerUrlProblem('https://accounts.google.com/o/oauth2/v2/auth')).toBeNull();
    expect(providerUrlProblem('file:///etc/passwd')).toEqual(expect.any(String));
    expect(providerUrlProblem('not a url')).toEqual(expect.any(String));
  });
});

describe('providerAddressErrors (OAUTH_ALLOW_PRIVATE_URLS)', () => {
  const refused = [OAUTH_PRIVATE_ADDRESS_MESSAGE];

  it('names every refused server-called URL by its dotted path, for every provider', () => {
    const providers = {
      google: {
        issuer: 'http://169.254.169.254',
        token_url: 'http://10.0.0.1/token',
        userinfo_url: 'https://openidconnect.googleapis.com/v1/userinfo',
      },
      github: {
        emails_url: 'http://metadata.google.internal/',
        authorization_url: 'http://127.0.0.1/authorize',
      },
      microsoft: null,
    };
    expect(providerAddressErrors(providers, 'none')).toEqual({
      'settings.oauth_providers.google.issuer': refused,
      'settings.oauth_providers.google.token_url': refused,
      'settings.oauth_providers.github.emails_url': refused,
    });
  });

  it('applies the mode: loopback allows loopback hosts only, any allows every address but link-local and metadata', () => {
    const at = (url: string) =>
      (['none', 'loopback', 'any'] as const).map(
        (mode) => Object.keys(providerAddressErrors({ google: { token_url: url } }, mode)).length,
      );
    expect(at('http://127.0.0.1:9000/token')).toEqual([1, 0, 0]);
    expect(at('http://localhost:9000/token')).toEqual([1, 0, 0]);
    expect(at('http://[::1]:9000/token')).toEqual([1, 0, 0]);
    expect(at('http://10.0.0.1/token')).toEqual([1, 1, 0]);
    expect(at('http://169.254.169.254/token')).toEqual([1, 1, 1]);
    expect(at('http://[fe80::1]/token')).toEqual([1, 1, 1]);
    expect(at('http://metadata.google.internal/token')).toEqual([1, 1, 1]);
    expect(at('https://idp.example.com/token')).toEqual([0, 0, 0]);
    expect(at('http://vm:8080/token')).toEqual([0, 0, 0]);
  });

  it('leaves absent settings, unparsable values and other fields to the DTO', () => {
    expect(providerAddressErrors(undefined, 'none')).toEqual({});
    expect(providerAddressErrors(null, 'none')).toEqual({});
    expect(
      providerAddressErrors(
        { google: { token_url: 'not a url', scopes: ['http://127.0.0.1'] } },
        'none',
      ),
    ).toEqual({});
  });
});

describe('isRegisteredRedirectUrl', () => {
  const registered = ['https://app.example.com/login', 'http://localhost:3000/cb?x=1'];

  it.each([
    'https://app.example.com/login',
    'HTTPS://APP.EXAMPLE.COM/login',
    'https://app.example.com:443/login',
    'http://localhost:3000/cb?x=1',
  ])('finds %s among the registered URLs after parsing', (url) =>
    expect(isRegisteredRedirectUrl(registered, url)).toBe(true),
  );

  it.each([
    'https://app.example.com/login/',
    'https://app.example.com/LOGIN',
    'https://app.example.com/log',
    'https://app.example.com/login?x=1',
    'http://localhost:3000/cb',
    'not a url',
    '',
  ])('does not find %j (exact match only)', (url) =>
    expect(isRegisteredRedirectUrl(registered, url)).toBe(false),
  );

  it('finds nothing in an empty list', () =>
    expect(isRegisteredRedirectUrl([], 'https://app.example.com/login')).toBe(false));
});
