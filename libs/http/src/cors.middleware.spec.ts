import type { NextFunction, Request, Response } from 'express';
import { corsMiddleware, type CorsPolicy } from './cors.middleware';

/** A minimal Express response that records what the middleware did. */
function fakeResponse() {
  const headers: Record<string, string> = {};
  const state = { status: 0, ended: false };
  const res = {
    setHeader: (k: string, v: string) => {
      headers[k.toLowerCase()] = v;
      return res;
    },
    vary: (field: string) => {
      headers.vary = headers.vary ? `${headers.vary}, ${field}` : field;
      return res;
    },
    status: (code: number) => {
      state.status = code;
      return res;
    },
    end: () => {
      state.ended = true;
      return res;
    },
  };
  return { res: res as unknown as Response, headers, state };
}

async function run(policy: CorsPolicy, req: Partial<Request>, methods: string[] = []) {
  const { res, headers, state } = fakeResponse();
  let nextArg: unknown = 'not called';
  await new Promise<void>((resolve) => {
    const next: NextFunction = (err?: unknown) => {
      nextArg = err;
      resolve();
    };
    const origEnd = res.end.bind(res);
    (res as unknown as { end: () => Response }).end = () => {
      const r = origEnd();
      resolve();
      return r;
    };
    corsMiddleware(policy, () => methods)(
      { path: '/v1/auth/sign-in', headers: {}, ...req } as Request,
      res,
      next,
    );
  });
  return { headers, state, nextArg };
}

const allowing = (origins: string[], requestOrigins = origins): CorsPolicy => ({
  preflightAllowed: async (o) => origins.includes(o),
  requestAllowed: async (_req, o) => requestOrigins.includes(o),
});

describe('corsMiddleware', () => {
  const origin = 'https://app.example.com';

  it('answers an allowed preflight 204 with the CORS headers', async () => {
    const { headers, state, nextArg } = await run(allowing([origin]), {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST' },
    });
    expect(state).toEqual({ status: 204, ended: true });
    expect(nextArg).toBe('not called');
    expect(headers).toEqual({
      vary: 'Origin',
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, POST, PATCH, DELETE',
      'access-control-allow-headers':
        'Content-Type, Authorization, X-Service-Project-Key, traceparent',
      'access-control-max-age': '600',
    });
  });

  it('answers another preflight 204 without CORS headers, and malformed origins without asking the policy', async () => {
    const asked: string[] = [];
    const policy: CorsPolicy = {
      preflightAllowed: async (o) => (asked.push(o), false),
      requestAllowed: async () => false,
    };
    for (const o of ['https://evil.example.net', 'null', 'javascript:alert(1)']) {
      const { headers, state } = await run(policy, {
        method: 'OPTIONS',
        headers: { origin: o, 'access-control-request-method': 'POST' },
      });
      expect(state.status).toBe(204);
      expect(headers).toEqual({ vary: 'Origin' });
    }
    expect(asked).toEqual(['https://evil.example.net']);
  });

  it('passes a failing policy to the error handler on preflight (503 there), and ignores it on real requests', async () => {
    const failing: CorsPolicy = {
      preflightAllowed: () => Promise.reject(new Error('down')),
      requestAllowed: () => Promise.reject(new Error('down')),
    };
    const pre = await run(failing, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'GET' },
    });
    expect(pre.nextArg).toBeInstanceOf(Error);
    const real = await run(failing, { method: 'GET', headers: { origin } });
    expect(real.nextArg).toBeUndefined();
    expect(real.headers).toEqual({ vary: 'Origin' });
  });

  it('grants real requests per the policy and leaves requests without Origin alone', async () => {
    const granted = await run(allowing([origin]), { method: 'POST', headers: { origin } });
    expect(granted.nextArg).toBeUndefined();
    expect(granted.headers['access-control-allow-origin']).toBe(origin);
    expect(granted.headers['access-control-allow-credentials']).toBe('true');
    expect(granted.headers['access-control-expose-headers']).toMatch(/RateLimit-Remaining/);
    const refused = await run(allowing([origin], []), { method: 'POST', headers: { origin } });
    expect(refused.headers).toEqual({ vary: 'Origin' });
    const none = await run(allowing([origin]), { method: 'POST', headers: {} });
    expect(none.headers).toEqual({});
    expect(none.nextArg).toBeUndefined();
  });

  it('answers a plain OPTIONS on a routed path with Allow and passes unknown paths on', async () => {
    const known = await run(allowing([]), { method: 'OPTIONS', headers: {} }, ['GET', 'HEAD']);
    expect(known.state.status).toBe(204);
    expect(known.headers.allow).toBe('GET, HEAD, OPTIONS');
    const unknown = await run(allowing([]), { method: 'OPTIONS', headers: {} }, []);
    expect(unknown.nextArg).toBeUndefined();
    expect(unknown.state.ended).toBe(false);
  });
});
