import { originProblem, providerUrlProblem, redirectUrlProblem } from './url-rules';

describe('originProblem', () => {
  it.each(['https://app.example.com', 'https://app.example.com:8443', 'http://localhost:3000', 'http://127.0.0.1:5173', 'http://[::1]:8080'])(
    'accepts %s',
    (origin) => expect(originProblem(origin)).toBeNull(),
  );

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
  it.each(['https://app.example.com/callback', 'https://app.example.com', 'https://app.example.com/cb?x=1', 'http://localhost:3000/cb', 'http://127.0.0.1/cb'])(
    'accepts %s',
    (url) => expect(redirectUrlProblem(url)).toBeNull(),
  );

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
