import {
  createGatehouse,
  GatehouseError,
  hasPermission,
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
      organization: null,
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
      organization: null,
    });
    expect(seen).toEqual([
      {
        status: 'signed-in',
        user: { id: 'usr_1', email: 'ada@example.com' },
        sessionId: 'ses_1',
        organization: null,
      },
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

type OrgClaim = { id: string; slug: string; role: string; permissions: string[] };

/**
 * A fake auth runtime with organizations: the session keeps the active organization (as
 * `sessions.active_organization_id` does), and every token it issues, from
 * `POST /organizations/active` or a refresh, carries the `org` claim of the membership as it is now.
 */
function orgRuntime(opts: { refreshDelayMs?: number } = {}) {
  const memberships: Record<string, OrgClaim & { name: string }> = {
    org_a: { id: 'org_a', name: 'Acme', slug: 'acme', role: 'member', permissions: [] },
    org_b: {
      id: 'org_b',
      name: 'Globex',
      slug: 'globex',
      role: 'admin',
      permissions: ['org:members:read', 'invoices:read'],
    },
  };
  const state = {
    active: null as string | null,
    calls: [] as string[],
    bodies: [] as unknown[],
    refreshes: 0,
    memberships,
  };
  const claim = () => {
    const m = state.active ? state.memberships[state.active] : undefined;
    return m ? { id: m.id, slug: m.slug, role: m.role, permissions: m.permissions } : undefined;
  };
  const issue = () => {
    const now = Math.floor(Date.now() / 1000);
    const org = claim();
    return jwt({ sub: 'usr_1', sid: 'ses_1', iat: now, exp: now + 900, ...(org ? { org } : {}) });
  };
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = (async (input: URL | string, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const bearer = new Headers(init.headers).get('authorization');
    const sent: unknown = init.body ? JSON.parse(init.body as string) : undefined;
    state.calls.push(`${init.method} ${url.pathname}${url.search}`);
    if (sent !== undefined) state.bodies.push(sent);
    const path = url.pathname;
    if (path === '/v1/auth/sign-in')
      return json({
        user: { id: 'usr_1', email: 'ada@example.com' },
        session: { id: 'ses_1', access_token: issue() },
      });
    if (path === '/v1/auth/refresh') {
      state.refreshes += 1;
      // The runtime reads the session's organization when the refresh arrives.
      const token = issue();
      await new Promise((r) => setTimeout(r, opts.refreshDelayMs ?? 0));
      return json({ access_token: token, expires_in: 900 });
    }
    if (!bearer) return json({ status: 401 }, 401);
    if (path === '/v1/auth/organizations' && init.method === 'GET')
      return json({ organizations: Object.values(state.memberships) });
    if (path === '/v1/auth/organizations' && init.method === 'POST') {
      const { name } = sent as { name: string };
      state.memberships.org_c = {
        id: 'org_c',
        name,
        slug: name.toLowerCase(),
        role: 'admin',
        permissions: ['org:members:read'],
      };
      return json(state.memberships.org_c, 201);
    }
    if (path === '/v1/auth/organizations/active') {
      const id = (sent as { organization_id: string | null }).organization_id;
      if (id !== null && !state.memberships[id])
        return json({ type: 'https://gatehouse.dev/problems/forbidden', status: 403 }, 403);
      state.active = id;
      return json({ access_token: issue(), expires_in: 900 });
    }
    const member = /^\/v1\/auth\/organizations\/([^/]+)\/members\/([^/]+)$/.exec(path);
    if (member && init.method === 'DELETE') {
      if (member[2] === 'me') delete state.memberships[member[1]];
      return new Response(null, { status: 204 });
    }
    if (member && init.method === 'PATCH') {
      const { role } = sent as { role: string };
      if (member[2] === 'usr_1') state.memberships[member[1]].role = role;
      return json({ organization_id: member[1], user_id: member[2], role });
    }
    if (path === '/v1/auth/organizations/suggestions')
      return json({
        suggestions: [
          {
            id: 'dom_1',
            organization: { id: 'org_d', name: 'Dyn', slug: 'dyn' },
            domain: 'dyn.example',
            role: 'member',
          },
        ],
      });
    if (path === '/v1/auth/organizations/suggestions/dom_1/accept')
      return json({ id: 'org_d', name: 'Dyn', slug: 'dyn', role: 'member', permissions: [] });
    if (/^\/v1\/auth\/organizations\/[^/]+\/invitations$/.test(path))
      return json(
        { id: 'inv_1', email: (sent as { email: string }).email, status: 'pending' },
        201,
      );
    if (/^\/v1\/auth\/organizations\/[^/]+\/members$/.test(path))
      return json({ members: [], pagination: { page: 2, limit: 5, total: 0 } });
    if (/^\/v1\/auth\/organizations\/[^/]+$/.test(path)) {
      const id = path.split('/').pop()!;
      if (init.method === 'DELETE') {
        delete state.memberships[id];
        return new Response(null, { status: 204 });
      }
      Object.assign(state.memberships[id], sent);
      return json(state.memberships[id]);
    }
    return json({ status: 404 }, 404);
  }) as unknown as typeof globalThis.fetch;
  return { state, fetch };
}

const claimOf = (token: string | null) =>
  (JSON.parse(Buffer.from(token!.split('.')[1], 'base64url').toString()) as { org?: OrgClaim })
    .org ?? null;

/** What the renewal timer does when it fires (the client's token keeper renews). */
const renewNow = (gh: ReturnType<typeof createGatehouse>) =>
  (gh as unknown as { tokens: { renew(): Promise<unknown> } }).tokens.renew();

describe('@gatehouse/js organizations', () => {
  it('setActiveOrganization: the new token is held at once (getAccessToken, fetch), the state carries the org claim, subscribers are told, and a later refresh keeps it', async () => {
    const { state, fetch } = orgRuntime();
    const gh = createGatehouse({ authUrl: AUTH, projectKey: 'pk', fetch, crossTab: false });
    await gh.signIn({ identifier: 'ada@example.com', password: 'pw' });
    expect(gh.organization).toBeNull();
    expect(gh.has({ permission: 'invoices:read' })).toBe(false);
    const seen: unknown[] = [];
    gh.onChange((s) => seen.push(s.organization));

    const globex = {
      id: 'org_b',
      slug: 'globex',
      role: 'admin',
      permissions: ['org:members:read', 'invoices:read'],
    };
    await expect(gh.setActiveOrganization('org_b')).resolves.toEqual(globex);
    expect(state.bodies.at(-1)).toEqual({ organization_id: 'org_b' });
    expect(gh.getState()).toMatchObject({ status: 'signed-in', organization: globex });
    expect(gh.organization).toEqual(globex);
    expect(claimOf(await gh.getAccessToken())).toEqual(globex);
    expect(gh.has({ permission: 'invoices:read' })).toBe(true);
    expect(gh.has({ permission: 'invoices:pay' })).toBe(false);
    expect(gh.has({ role: 'admin' })).toBe(true);
    expect(seen).toEqual([globex]);

    // A refresh (the renewal timer's, before expiry) carries what the session keeps: no change to tell.
    await expect(renewNow(gh)).resolves.toMatchObject({ organization: globex });
    expect(claimOf(await gh.getAccessToken())).toEqual(globex);
    expect(state.refreshes).toBe(1);
    expect(seen).toEqual([globex]);

    // The role's permissions changed at Gatehouse: the next refresh brings them, and subscribers hear of it.
    state.memberships.org_b.permissions = ['org:members:read'];
    await renewNow(gh);
    expect(gh.has({ permission: 'invoices:read' })).toBe(false);
    expect(seen).toHaveLength(2);

    // None: the claim goes.
    await expect(gh.setActiveOrganization(null)).resolves.toBeNull();
    expect(gh.getState().organization).toBeNull();
    expect(claimOf(await gh.getAccessToken())).toBeNull();
    expect(seen.at(-1)).toBeNull();
    gh.dispose();
  });

  it('a refresh in flight when the organization is made active does not bring the older token back', async () => {
    const { state, fetch } = orgRuntime({ refreshDelayMs: 40 });
    const gh = createGatehouse({ authUrl: AUTH, projectKey: 'pk', fetch, crossTab: false });
    await gh.signIn({ identifier: 'ada@example.com', password: 'pw' });
    const refreshing = renewNow(gh); // read the session (no organization) and answers late
    await new Promise((r) => setTimeout(r, 5));
    await gh.setActiveOrganization('org_a');
    await refreshing;
    expect(state.refreshes).toBe(1);
    expect(gh.organization).toMatchObject({ id: 'org_a', role: 'member' });
    expect(claimOf(await gh.getAccessToken())).toMatchObject({ id: 'org_a' });
    gh.dispose();
  });

  it('another tab follows: the token and its organization reach it over the channel', async () => {
    const { fetch } = orgRuntime();
    const tabs = sharedTabs();
    const a = createGatehouse({ authUrl: AUTH, projectKey: 'pk', fetch, tabs: tabs.tab() });
    const b = createGatehouse({ authUrl: AUTH, projectKey: 'pk', fetch, tabs: tabs.tab() });
    await a.signIn({ identifier: 'ada@example.com', password: 'pw' });
    const seen: unknown[] = [];
    b.onChange((s) => seen.push(s.organization?.id ?? null));
    await a.setActiveOrganization('org_a');
    expect(b.organization).toMatchObject({ id: 'org_a', slug: 'acme' });
    expect(seen).toEqual(['org_a']);
    a.dispose();
    b.dispose();
  });

  it('lists, creates, updates and deletes organizations, pages members and manages them; leaving or losing the active one renews the token without it', async () => {
    const { state, fetch } = orgRuntime();
    const gh = createGatehouse({ authUrl: AUTH, projectKey: 'pk', fetch, crossTab: false });
    await gh.signIn({ identifier: 'ada@example.com', password: 'pw' });
    expect((await gh.listOrganizations()).map((o) => o.name)).toEqual(['Acme', 'Globex']);
    await expect(gh.createOrganization({ name: 'Initech' })).resolves.toMatchObject({
      id: 'org_c',
      role: 'admin',
    });
    await expect(gh.updateOrganization('org_c', { name: 'Initrode' })).resolves.toMatchObject({
      name: 'Initrode',
    });
    await expect(gh.listMembers('org_c', { page: 2, limit: 5 })).resolves.toEqual({
      members: [],
      pagination: { page: 2, limit: 5, total: 0 },
    });
    await gh.updateMember('org_c', 'usr_2', { role: 'billing' });
    await expect(gh.inviteMember('org_c', { email: 'grace@example.com' })).resolves.toMatchObject({
      id: 'inv_1',
      status: 'pending',
    });
    await gh.removeMember('org_c', 'usr_2');
    await expect(gh.listOrganizationSuggestions()).resolves.toEqual([
      expect.objectContaining({ id: 'dom_1', domain: 'dyn.example' }),
    ]);
    await expect(gh.acceptOrganizationSuggestion('dom_1')).resolves.toMatchObject({ id: 'org_d' });
    await gh.deleteOrganization('org_c');
    expect(state.refreshes).toBe(0); // none of these touched the active organization
    expect(state.calls.slice(1)).toEqual([
      'GET /v1/auth/organizations',
      'POST /v1/auth/organizations',
      'PATCH /v1/auth/organizations/org_c',
      'GET /v1/auth/organizations/org_c/members?page=2&limit=5',
      'PATCH /v1/auth/organizations/org_c/members/usr_2',
      'POST /v1/auth/organizations/org_c/invitations',
      'DELETE /v1/auth/organizations/org_c/members/usr_2',
      'GET /v1/auth/organizations/suggestions',
      'POST /v1/auth/organizations/suggestions/dom_1/accept',
      'DELETE /v1/auth/organizations/org_c',
    ]);
    expect(state.bodies.slice(1)).toEqual([
      { name: 'Initech' },
      { name: 'Initrode' },
      { role: 'billing' },
      { email: 'grace@example.com' },
    ]);

    // Your own role in the active organization: the renewed token says it at once.
    await gh.setActiveOrganization('org_b');
    await gh.updateMember('org_b', 'usr_1', { role: 'member' });
    expect(gh.organization).toMatchObject({ id: 'org_b', role: 'member' });
    // Leaving it: the claim goes with the renewal that follows.
    await gh.leaveOrganization('org_b');
    expect(state.calls.at(-2)).toBe('DELETE /v1/auth/organizations/org_b/members/me');
    expect(state.calls.at(-1)).toBe('POST /v1/auth/refresh');
    expect(gh.organization).toBeNull();
    expect(claimOf(await gh.getAccessToken())).toBeNull();
    gh.dispose();
  });

  it('a malformed org claim is no organization', async () => {
    const now = Math.floor(Date.now() / 1000);
    const bad = jwt({
      sub: 'usr_1',
      sid: 'ses_1',
      iat: now,
      exp: now + 900,
      org: { id: 'org_a', slug: 'acme', role: 'admin', permissions: 'invoices:read' },
    });
    const fetch = (async () =>
      Response.json({
        user: { id: 'usr_1', email: 'ada@example.com' },
        session: { id: 'ses_1', access_token: bad },
      })) as unknown as typeof globalThis.fetch;
    const gh = createGatehouse({ authUrl: AUTH, projectKey: 'pk', fetch, crossTab: false });
    await gh.signIn({ identifier: 'ada@example.com', password: 'pw' });
    expect(gh.getState()).toMatchObject({ status: 'signed-in', organization: null });
    expect(hasPermission(gh.organization, { permission: 'invoices:read' })).toBe(false);
    gh.dispose();
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

describe('@gatehouse/js enterprise SSO', () => {
  it("discoverSso posts the email with the project key and gives the domain's connection, or null", async () => {
    const seen: { path: string; key: string | null; body: unknown }[] = [];
    const connection = { id: 'con_1', type: 'saml', organization_id: 'org_1', name: 'Acme Okta' };
    const fetch = (async (input: URL | string, init: RequestInit = {}) => {
      const body = JSON.parse(init.body as string) as { email: string };
      seen.push({
        path: new URL(String(input)).pathname,
        key: new Headers(init.headers).get('x-service-project-key'),
        body,
      });
      return Response.json({
        connection: body.email.endsWith('@acme.example') ? connection : null,
      });
    }) as unknown as typeof globalThis.fetch;
    const gh = createGatehouse({ authUrl: AUTH, projectKey: 'pk', fetch, crossTab: false });
    await expect(gh.discoverSso('ada@acme.example')).resolves.toEqual(connection);
    await expect(gh.discoverSso('ada@example.com')).resolves.toBeNull();
    expect(seen).toEqual([
      { path: '/v1/auth/sso/discover', key: 'pk', body: { email: 'ada@acme.example' } },
      { path: '/v1/auth/sso/discover', key: 'pk', body: { email: 'ada@example.com' } },
    ]);
  });
});
