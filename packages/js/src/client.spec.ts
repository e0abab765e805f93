import {
  createGatehouse,
  GatehouseError,
  type TabChannel,
  type TabLocks,
  type TabMessage,
} from './index';

const AUTH = 'http://auth.test';

function jwt(claims: Record<string, unknown>): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'ES256', typ: 'JWT' })}.${b64(claims)}.sig`;
}

function token(sid: string, lifetimeS = 900, sub = 'usr_1'): string {
  const now = Math.floor(Date.now() / 1000);
  return jwt({ sub, sid, iat: now, exp: now + lifetimeS, auth_time: now });
}

/** A fake auth runtime: counts refreshes (each answers after `delayMs`), keeps the refresh cookie it set. */
function fakeRuntime(opts: { delayMs?: number; lifetimeS?: number } = {}) {
  const state = {
    refreshes: 0,
    cookieSeen: [] as (string | null)[],
    refreshStatus: 200,
    calls: [] as string[],
    meStatus: 200,
  };
  const fetch = (async (input: URL | string, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const headers = new Headers(init.headers);
    state.calls.push(
      `${init.method} ${url.pathname} ${headers.get('authorization') ? 'bearer' : '-'}`,
    );
    if (url.pathname === '/v1/auth/sign-in') {
      return new Response(
        JSON.stringify({
          user: { id: 'usr_1', email: 'ada@example.com' },
          session: { id: 'ses_1', access_token: token('ses_1', opts.lifetimeS ?? 900) },
        }),
        {
          headers: [
            ['content-type', 'application/json'],
            ['set-cookie', 'service_refresh_token=rt_0; Path=/v1/auth; HttpOnly'],
          ],
        },
      );
    }
    if (url.pathname === '/v1/auth/refresh') {
      state.refreshes += 1;
      state.cookieSeen.push(headers.get('cookie'));
      await new Promise((r) => setTimeout(r, opts.delayMs ?? 0));
      if (state.refreshStatus !== 200)
        return new Response(
          JSON.stringify({ type: 'https://gatehouse.dev/problems/unauthenticated', status: 401 }),
          { status: 401 },
        );
      return new Response(JSON.stringify({ access_token: token('ses_1', 900), expires_in: 900 }), {
        headers: [
          ['content-type', 'application/json'],
          ['set-cookie', `service_refresh_token=rt_${state.refreshes}; Path=/v1/auth; HttpOnly`],
        ],
      });
    }
    if (url.pathname === '/v1/auth/sessions') {
      if (state.meStatus === 401) {
        state.meStatus = 200;
        return new Response(
          JSON.stringify({
            type: 'https://gatehouse.dev/problems/unauthenticated',
            title: 'Unauthenticated',
            status: 401,
          }),
          { status: 401, headers: { 'content-type': 'application/problem+json' } },
        );
      }
      return Response.json({ sessions: [] });
    }
    if (url.pathname === '/v1/auth/me')
      return Response.json({
        user: { id: 'usr_1', email: 'ada@example.com', is_admin: false },
        organizations: [],
        active_sessions: 1,
      });
    if (url.pathname === '/v1/auth/sign-out') {
      state.refreshStatus = 401; // the session ended: its refresh chain with it
      return new Response(null, {
        status: 204,
        headers: {
          'set-cookie':
            'service_refresh_token=; Path=/v1/auth; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
        },
      });
    }
    return new Response('<html>Bad gateway</html>', { status: 502 });
  }) as unknown as typeof globalThis.fetch;
  return { state, fetch };
}

/** Two "tabs": a lock manager and a broadcast channel shared in memory, as navigator.locks and BroadcastChannel are. */
function sharedTabs() {
  let queue: Promise<unknown> = Promise.resolve();
  const locks: TabLocks = {
    request: <T>(_name: string, cb: () => Promise<T>) => {
      const run = queue.then(cb, cb);
      queue = run.catch(() => undefined);
      return run;
    },
  };
  const subscribers: ((m: TabMessage) => void)[] = [];
  const channel = (): TabChannel => {
    let mine: ((m: TabMessage) => void) | null = null;
    return {
      post: (m) => subscribers.filter((s) => s !== mine).forEach((s) => s(m)),
      subscribe: (l) => {
        mine = l;
        subscribers.push(l);
      },
      close: () => undefined,
    };
  };
  return { tab: () => ({ locks, channel: channel() }) };
}

describe('@gatehouse/js renewal', () => {
  it('renews through the refresh cookie, one refresh for many concurrent callers, and sends the rotated cookie next time (memory cookies)', async () => {
    const { state, fetch } = fakeRuntime({ delayMs: 20, lifetimeS: 30 });
    const gh = createGatehouse({
      authUrl: AUTH,
      projectKey: 'pk',
      fetch,
      crossTab: false,
      renewBeforeSeconds: 60,
    });
    await gh.signIn({ identifier: 'ada@example.com', password: 'pw' });
    expect(gh.getState()).toEqual({
      status: 'signed-in',
      user: { id: 'usr_1', email: 'ada@example.com' },
      sessionId: 'ses_1',
    });
    // 30 s of life < the 60 s margin: every caller wants a renewal; one happens.
    const tokens = await Promise.all(Array.from({ length: 25 }, () => gh.getAccessToken()));
    expect(new Set(tokens).size).toBe(1);
    expect(state.refreshes).toBe(1);
    expect(state.cookieSeen).toEqual(['service_refresh_token=rt_0']);
    gh.dispose();
  });

  it('coordinates two tabs: the second waits for the lock and takes the token the first broadcast, without refreshing again', async () => {
    const { state, fetch } = fakeRuntime({ delayMs: 30, lifetimeS: 30 });
    const tabs = sharedTabs();
    const a = createGatehouse({ authUrl: AUTH, projectKey: 'pk', fetch, tabs: tabs.tab() });
    const b = createGatehouse({ authUrl: AUTH, projectKey: 'pk', fetch, tabs: tabs.tab() });
    await a.signIn({ identifier: 'ada@example.com', password: 'pw' });
    // Tab b learnt of the sign-in by broadcast.
    expect(b.getState()).toMatchObject({
      status: 'signed-in',
      user: { id: 'usr_1' },
      sessionId: 'ses_1',
    });
    const [ta, tb] = await Promise.all([a.getAccessToken(), b.getAccessToken()]);
    expect(ta).toBe(tb);
    expect(state.refreshes).toBe(1);
    a.dispose();
    b.dispose();
  });

  it('a sign-out in one tab signs the other out', async () => {
    const { fetch } = fakeRuntime();
    const tabs = sharedTabs();
    const a = createGatehouse({ authUrl: AUTH, projectKey: 'pk', fetch, tabs: tabs.tab() });
    const b = createGatehouse({ authUrl: AUTH, projectKey: 'pk', fetch, tabs: tabs.tab() });
    await a.signIn({ identifier: 'ada@example.com', password: 'pw' });
    const seen: string[] = [];
    b.onChange((s) => seen.push(s.status));
    await a.signOut();
    expect(b.getState().status).toBe('signed-out');
    expect(seen).toEqual(['signed-out']);
    expect(await b.getAccessToken()).toBeNull();
  });

  it('a 401 on a call renews once and retries once; a refused refresh signs out', async () => {
    const { state, fetch } = fakeRuntime();
    const gh = createGatehouse({ authUrl: AUTH, projectKey: 'pk', fetch, crossTab: false });
    await gh.signIn({ identifier: 'ada@example.com', password: 'pw' });
    state.meStatus = 401;
    await expect(gh.listSessions()).resolves.toEqual([]);
    expect(state.refreshes).toBe(1);
    expect(state.calls.filter((c) => c.startsWith('GET /v1/auth/sessions'))).toHaveLength(2);
    state.meStatus = 401;
    state.refreshStatus = 401;
    const err = await gh.listSessions().catch((e: unknown) => e);
    expect(err).toMatchObject({ slug: 'unauthenticated', status: 401 });
    expect(gh.getState().status).toBe('signed-out');
    gh.dispose();
  });

  it('restore() on page load: the refresh cookie → signed in, told once, with the email from me (never signed in without it)', async () => {
    const { state, fetch } = fakeRuntime();
    const gh = createGatehouse({
      authUrl: AUTH,
      projectKey: 'pk',
      fetch,
      crossTab: false,
      cookies: 'browser',
    });
    const seen: unknown[] = [];
    gh.onChange((s) => seen.push(s));
    await expect(gh.restore()).resolves.toEqual({
      status: 'signed-in',
      user: { id: 'usr_1', email: 'ada@example.com' },
      sessionId: 'ses_1',
    });
    expect(seen).toEqual([
      { status: 'signed-in', user: { id: 'usr_1', email: 'ada@example.com' }, sessionId: 'ses_1' },
    ]);
    expect(state.refreshes).toBe(1);
    expect(state.calls).toEqual(['POST /v1/auth/refresh -', 'GET /v1/auth/me bearer']);
    gh.dispose();
  });

  it('restore() on page load: no refresh cookie → signed-out, with no error', async () => {
    const { state, fetch } = fakeRuntime();
    state.refreshStatus = 401;
    const gh = createGatehouse({ authUrl: AUTH, projectKey: 'pk', fetch, crossTab: false });
    expect(gh.getState().status).toBe('loading');
    await expect(gh.restore()).resolves.toMatchObject({ status: 'signed-out', user: null });
  });
});

describe('GatehouseError', () => {
  const problem = (status: number, body: object, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/problem+json', ...headers },
    });

  it('carries the problem: slug, status, detail, field errors, traceId', async () => {
    const err = await GatehouseError.fromResponse(
      problem(400, {
        type: 'https://gatehouse.dev/problems/validation-error',
        title: 'Bad Request',
        status: 400,
        detail: 'Invalid fields.',
        errors: { password: ['is too short'] },
        traceId: '0af7651916cd43dd8448eb211c80319c',
      }),
    );
    expect(err).toMatchObject({
      slug: 'validation-error',
      status: 400,
      detail: 'Invalid fields.',
      errors: { password: ['is too short'] },
      traceId: '0af7651916cd43dd8448eb211c80319c',
      message: 'Invalid fields.',
    });
    expect(err).toBeInstanceOf(Error);
  });

  it('reads Retry-After on 429s and locked_until on account-locked', async () => {
    const limited = await GatehouseError.fromResponse(
      problem(
        429,
        {
          type: 'https://gatehouse.dev/problems/rate-limited',
          title: 'Too Many Requests',
          status: 429,
        },
        { 'retry-after': '42' },
      ),
    );
    expect([limited.slug, limited.retryAfter]).toEqual(['rate-limited', 42]);
    const locked = await GatehouseError.fromResponse(
      problem(
        429,
        {
          type: 'https://gatehouse.dev/problems/account-locked',
          title: 'Too Many Requests',
          status: 429,
          locked_until: '2026-11-29T05:00:00.000Z',
        },
        { 'retry-after': '900' },
      ),
    );
    expect([locked.slug, locked.retryAfter, locked.lockedUntil]).toEqual([
      'account-locked',
      900,
      '2026-11-29T05:00:00.000Z',
    ]);
  });

  it('a passkey prompt that cannot complete (here: no WebAuthn in Node) is a GatehouseError passkey-failed, and nothing is sent to complete', async () => {
    const calls: string[] = [];
    const fetch = (async (input: URL | string) => {
      calls.push(new URL(String(input)).pathname);
      return Response.json({
        challenge: 'Y2hhbGxlbmdl',
        rpId: 'localhost',
        allowCredentials: [],
        userVerification: 'required',
        timeout: 300000,
      });
    }) as unknown as typeof globalThis.fetch;
    const gh = createGatehouse({ authUrl: AUTH, projectKey: 'pk', fetch, crossTab: false });
    const err = await gh.signInWithPasskey().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatehouseError);
    expect(err).toMatchObject({
      slug: 'passkey-failed',
      status: 0,
      detail: expect.stringMatching(/WebAuthn/),
    });
    expect(calls).toEqual(['/v1/auth/passkey/authenticate/begin']);
  });

  it('instanceof holds for an error of another copy (as @gatehouse/admin keeps its own)', () => {
    const foreign = Object.assign(new Error('No such project.'), {
      name: 'GatehouseError',
      slug: 'not-found',
      status: 404,
    });
    expect(foreign).toBeInstanceOf(GatehouseError);
    expect(new Error('plain')).not.toBeInstanceOf(GatehouseError);
  });

  it('maps a non-JSON answer to its status and a failed fetch to network-error', async () => {
    const gh = createGatehouse({
      authUrl: AUTH,
      projectKey: 'pk',
      fetch: fakeRuntime().fetch,
      crossTab: false,
    });
    const gateway = await gh.forgotPassword('ada@example.com').catch((e: unknown) => e);
    expect(gateway).toMatchObject({ slug: 'http-502', status: 502 });
    const offline = createGatehouse({
      authUrl: AUTH,
      projectKey: 'pk',
      fetch: () => Promise.reject(new TypeError('fetch failed')),
      crossTab: false,
    });
    const err = await offline.signIn({ identifier: 'a', password: 'b' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatehouseError);
    expect(err).toMatchObject({ slug: 'network-error', status: 0, detail: 'fetch failed' });
  });
});
