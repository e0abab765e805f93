import express from 'express';
import request from 'supertest';
import { loadConfig } from '@gatehouse/config';
import { clearSessionCookies, setSessionCookies } from './session-cookies';

const NOW = Date.UTC(2026, 10, 22, 3, 30, 0);
const tokens = {
  accessToken: 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1In0.sig-_',
  accessExpiresAt: new Date(NOW + 900_000),
  refreshToken: 'rt_abc-DEF_123',
  refreshExpiresAt: new Date(NOW + 30 * 86_400_000 + 499),
};

function app(secure: boolean, preset?: string) {
  const config = loadConfig({
    ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
    COOKIE_SECURE: String(secure),
  });
  const a = express();
  a.get('/set', (_req, res) => {
    if (preset) res.cookie('service_oauth_binding', preset, { path: '/v1/auth/oauth' });
    setSessionCookies(res, config, tokens, NOW);
    res.end();
  });
  a.get('/clear', (_req, res) => {
    clearSessionCookies(res, config);
    res.end();
  });
  return a;
}

describe('session cookies (docs/api-contract.md §2)', () => {
  it('sets both cookies with their attributes, Max-Age and Expires from the injected clock', async () => {
    const res = await request(app(true)).get('/set');
    expect(res.headers['set-cookie']).toEqual([
      `service_session=${tokens.accessToken}; Max-Age=900; Path=/; Expires=Sun, 22 Nov 2026 03:45:00 GMT; HttpOnly; Secure; SameSite=Lax`,
      'service_refresh_token=rt_abc-DEF_123; Max-Age=2592000; Path=/v1/auth; Expires=Tue, 22 Dec 2026 03:30:00 GMT; HttpOnly; Secure; SameSite=Strict',
    ]);
  });

  it('leaves Secure out only when COOKIE_SECURE=false, and keeps cookies set earlier on the response', async () => {
    const res = await request(app(false, 'binding-value')).get('/set');
    const lines = res.headers['set-cookie'] as unknown as string[];
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('service_oauth_binding=binding-value; Path=/v1/auth/oauth');
    expect(lines[1]).toBe(
      `service_session=${tokens.accessToken}; Max-Age=900; Path=/; Expires=Sun, 22 Nov 2026 03:45:00 GMT; HttpOnly; SameSite=Lax`,
    );
    expect(lines[2]).toMatch(
      /^service_refresh_token=rt_abc-DEF_123; Max-Age=2592000; Path=\/v1\/auth; Expires=[^;]+; HttpOnly; SameSite=Strict$/,
    );
  });

  it('never writes a negative Max-Age for a token already expired', async () => {
    const config = loadConfig({ ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64') });
    const a = express();
    a.get('/', (_req, res) => {
      setSessionCookies(res, config, { ...tokens, accessExpiresAt: new Date(NOW - 5000) }, NOW);
      res.end();
    });
    const res = await request(a).get('/');
    expect((res.headers['set-cookie'] as unknown as string[])[0]).toContain(
      '; Max-Age=0; Path=/; Expires=Sun, 22 Nov 2026 03:30:00 GMT;',
    );
  });

  it('clears both cookies on their own paths', async () => {
    const res = await request(app(true)).get('/clear');
    expect(res.headers['set-cookie']).toEqual([
      'service_session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
      'service_refresh_token=; Path=/v1/auth; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Strict',
    ]);
  });
});
