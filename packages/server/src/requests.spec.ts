import {
  assertRecentAuth,
  GatehouseAuthError,
  problemFor,
  tokenFrom,
  type AccessTokenClaims,
} from './index';

describe('tokenFrom', () => {
  it('reads a bearer token, prefers it over the cookie, and reads the cookie only when allowed', () => {
    expect(tokenFrom({ authorization: 'Bearer abc.def.ghi' })).toBe('abc.def.ghi');
    expect(tokenFrom({ authorization: 'bearer   abc' })).toBe('abc');
    expect(tokenFrom({ authorization: 'Bearer tok', cookie: 'service_session=cookie' }, true)).toBe(
      'tok',
    );
    expect(tokenFrom({ cookie: 'a=1; service_session=c.o.k; b=2' })).toBeNull();
    expect(tokenFrom({ cookie: 'a=1; service_session=c.o.k; b=2' }, true)).toBe('c.o.k');
    expect(tokenFrom({})).toBeNull();
  });

  it('treats a malformed Authorization header as a presented (empty) token, not as none', () => {
    expect(tokenFrom({ authorization: 'Basic dXNlcjpwYXNz' })).toBe('');
    expect(tokenFrom({ authorization: 'Bearer a b' })).toBe('');
  });
});

describe('assertRecentAuth', () => {
  const claims = (authTime: number) => ({ auth_time: authTime }) as AccessTokenClaims;

  it('passes a proof within the window and refuses an older one with reauthentication_required (403)', () => {
    const now = 1_800_000_000_000;
    expect(() => assertRecentAuth(claims(now / 1000 - 299), 300, now)).not.toThrow();
    let err: unknown;
    try {
      assertRecentAuth(claims(now / 1000 - 301), 300, now);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GatehouseAuthError);
    expect((err as GatehouseAuthError).code).toBe('reauthentication_required');
    const { status, body } = problemFor(err as GatehouseAuthError);
    expect([status, body.type]).toEqual([
      403,
      'https://gatehouse.dev/problems/reauthentication-required',
    ]);
  });
});

describe('problemFor', () => {
  it('answers 401 problems with a Bearer challenge naming invalid_token only when a token was presented', () => {
    expect(
      problemFor(new GatehouseAuthError('missing_token', 'x')).headers['www-authenticate'],
    ).toBe('Bearer');
    expect(
      problemFor(new GatehouseAuthError('expired_token', 'x')).headers['www-authenticate'],
    ).toBe('Bearer error="invalid_token"');
    expect(problemFor(new GatehouseAuthError('gatehouse_unavailable', 'x'))).toMatchObject({
      status: 503,
      headers: { 'content-type': 'application/problem+json' },
    });
  });

  it('recognises an error of another copy of the package by its brand', () => {
    const err = new GatehouseAuthError('invalid_token', 'x');
    expect(GatehouseAuthError.is(err)).toBe(true);
    expect(GatehouseAuthError.is(Object.assign(new Error('x'), { code: 'invalid_token' }))).toBe(
      false,
    );
  });
});
