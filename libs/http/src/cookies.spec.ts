import type { Request } from 'express';
import { requestCookie } from './cookies';

const withCookie = (cookie?: string) =>
  ({ headers: cookie === undefined ? {} : { cookie } }) as unknown as Request;

describe('requestCookie', () => {
  it('reads the named cookie among several, percent-decoded', () => {
    const req = withCookie('a=1; service_refresh_token=rt%2Fabc%3D;b=2');
    expect(requestCookie(req, 'service_refresh_token')).toBe('rt/abc=');
    expect(requestCookie(req, 'a')).toBe('1');
    expect(requestCookie(req, 'b')).toBe('2');
  });

  it('answers null without a Cookie header, for an absent cookie and for an empty value', () => {
    expect(requestCookie(withCookie(), 'service_session')).toBeNull();
    expect(requestCookie(withCookie('other=1'), 'service_session')).toBeNull();
    expect(requestCookie(withCookie('service_session=; other=1'), 'service_session')).toBeNull();
  });

  it('takes the first of repeated names and keeps undecodable values as sent', () => {
    const req = withCookie('service_session=first; service_session=second; bad=%E0%A4%A');
    expect(requestCookie(req, 'service_session')).toBe('first');
    expect(requestCookie(req, 'bad')).toBe('%E0%A4%A');
  });

  it('gives JSON-looking values back as the string sent (no j: cookie parsing)', () => {
    expect(
      requestCookie(withCookie('service_session=j%3A%7B%22a%22%3A1%7D'), 'service_session'),
    ).toBe('j:{"a":1}');
  });

  it('is not fooled by prototype keys', () => {
    const req = withCookie('__proto__=x; constructor=y');
    expect(requestCookie(req, 'service_session')).toBeNull();
    expect(requestCookie(req, 'toString')).toBeNull();
    expect(requestCookie(req, 'hasOwnProperty')).toBeNull();
    expect(requestCookie(req, '__proto__')).toBe('x');
    expect(requestCookie(req, 'constructor')).toBe('y');
  });
});
