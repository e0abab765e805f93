import { GatehouseError as JsGatehouseError } from '@gatehouse/js';
import { adminSession, createAdminClient, GatehouseError } from './index';

/** A fake control plane over fetch: `total` users, answering pages as the real one does. */
function fakeControlPlane(total: number) {
  const calls: { url: URL; authorization: string | null }[] = [];
  const fetch = (async (input: Request) => {
    const url = new URL(input.url);
    calls.push({ url, authorization: input.headers.get('authorization') });
    if (url.pathname === '/v1/admin/users') {
      const page = Number(url.searchParams.get('page'));
      const limit = Number(url.searchParams.get('limit'));
      const users = Array.from({ length: total }, (_, i) => ({ id: `u${i + 1}` })).slice(
        (page - 1) * limit,
        page * limit,
      );
      return Response.json({ users, pagination: { page, limit, total } });
    }
    if (url.pathname === '/v1/admin/projects/nope') {
      return new Response(
        JSON.stringify({
          type: 'https://gatehouse.dev/problems/not-found',
          title: 'Not Found',
          status: 404,
          detail: 'No such project.',
          traceId: 'abc',
        }),
        { status: 404, headers: { 'content-type': 'application/problem+json' } },
      );
    }
    if (url.pathname === '/v1/admin/projects' && input.method === 'POST') {
      const problem = {
        type: 'https://gatehouse.dev/problems/validation-error',
        title: 'Bad Request',
        status: 400,
        detail: 'The request is invalid.',
        errors: { 'allowed_origins.0': ['must be an origin'] },
        traceId: 'def',
      };
      return new Response(JSON.stringify(problem), {
        status: 400,
        headers: { 'content-type': 'application/problem+json' },
      });
    }
    if (url.pathname === '/v1/admin/projects') {
      return new Response(
        JSON.stringify({
          type: 'https://gatehouse.dev/problems/rate-limited',
          title: 'Too Many Requests',
          status: 429,
        }),
        { status: 429, headers: { 'retry-after': '7' } },
      );
    }
    return new Response('<html>bad gateway</html>', { status: 502 });
  }) as unknown as typeof globalThis.fetch;
  return { calls, fetch };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('createAdminClient', () => {
  it('paginates lazily across pages and stops at the total', async () => {
    const { calls, fetch } = fakeControlPlane(45);
    const admin = createAdminClient({
      baseUrl: 'http://cp.test/',
      token: 'tok',
      fetch,
      pageSize: 20,
    });
    const users = await collect(admin.paginate('/v1/admin/users', { query: { q: 'a' } }));
    expect(users.map((u) => u.id)).toEqual(Array.from({ length: 45 }, (_, i) => `u${i + 1}`));
    expect(
      calls.map((c) => [
        c.url.searchParams.get('page'),
        c.url.searchParams.get('limit'),
        c.url.searchParams.get('q'),
      ]),
    ).toEqual([
      ['1', '20', 'a'],
      ['2', '20', 'a'],
      ['3', '20', 'a'],
    ]);
  });

  it('fetches a page only when the loop asks for it, and asks once for an exact multiple or an empty list', async () => {
    const { calls, fetch } = fakeControlPlane(40);
    const admin = createAdminClient({
      baseUrl: 'http://cp.test',
      token: 'tok',
      fetch,
      pageSize: 20,
    });
    for await (const user of admin.paginate('/v1/admin/users')) {
      expect(user.id).toBe('u1');
      break;
    }
    expect(calls).toHaveLength(1);
    calls.length = 0;
    expect(await collect(admin.paginate('/v1/admin/users'))).toHaveLength(40);
    expect(calls).toHaveLength(2);
    const empty = fakeControlPlane(0);
    expect(
      await collect(
        createAdminClient({ baseUrl: 'http://cp.test', token: 'tok', fetch: empty.fetch }).paginate(
          '/v1/admin/users',
        ),
      ),
    ).toEqual([]);
    expect(empty.calls).toHaveLength(1);
  });

  it('stops at the total even when the server would keep answering full pages', async () => {
    const calls: string[] = [];
    const fetch = (async (input: Request) => {
      const url = new URL(input.url);
      calls.push(url.searchParams.get('page')!);
      const page = Number(url.searchParams.get('page'));
      return Response.json({
        users: Array.from({ length: 20 }, (_, i) => ({ id: `p${page}-${i}` })),
        pagination: { page, limit: 20, total: 45 },
      });
    }) as unknown as typeof globalThis.fetch;
    const users = await collect(
      createAdminClient({ baseUrl: 'http://cp.test', token: 'tok', fetch, pageSize: 20 }).paginate(
        '/v1/admin/users',
      ),
    );
    expect(calls).toEqual(['1', '2', '3']);
    expect(users).toHaveLength(60);
  });

  it('asks the token function on every request', async () => {
    const { calls, fetch } = fakeControlPlane(3);
    let n = 0;
    const admin = createAdminClient({
      baseUrl: 'http://cp.test',
      token: async () => `t${++n}`,
      fetch,
    });
    await admin.GET('/v1/admin/users');
    await admin.GET('/v1/admin/users');
    expect(calls.map((c) => c.authorization)).toEqual(['Bearer t1', 'Bearer t2']);
  });

  it('throws a GatehouseError carrying the problem: slug, status, detail, field errors, traceId, Retry-After; a non-JSON answer and a network failure too', async () => {
    const { fetch } = fakeControlPlane(0);
    const admin = createAdminClient({ baseUrl: 'http://cp.test', token: 'tok', fetch });
    const notFound = await admin
      .GET('/v1/admin/projects/{id}', { params: { path: { id: 'nope' } } })
      .catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(GatehouseError);
    expect(notFound).toMatchObject({
      slug: 'not-found',
      status: 404,
      detail: 'No such project.',
      traceId: 'abc',
      message: 'No such project.',
    });
    const invalid = await admin
      .POST('/v1/admin/projects', { body: { name: 'x', allowed_origins: ['nope'] } })
      .catch((e: unknown) => e);
    expect(invalid).toMatchObject({
      slug: 'validation-error',
      status: 400,
      title: 'Bad Request',
      errors: { 'allowed_origins.0': ['must be an origin'] },
      traceId: 'def',
      retryAfter: undefined,
    });
    const limited = await admin.GET('/v1/admin/projects').catch((e: unknown) => e);
    expect(limited).toMatchObject({ slug: 'rate-limited', status: 429, retryAfter: 7 });
    const gateway = await admin.GET('/v1/admin/stats').catch((e: unknown) => e);
    expect(gateway).toMatchObject({ slug: 'http-502', status: 502 });
    const offline = createAdminClient({
      baseUrl: 'http://cp.test',
      token: 'tok',
      fetch: async () => Promise.reject(new TypeError('fetch failed')),
    });
    expect(await offline.GET('/v1/admin/stats').catch((e: unknown) => e)).toMatchObject({
      slug: 'network-error',
      status: 0,
    });
  });

  it("is the same error for instanceof as @gatehouse/js's", () => {
    expect(new JsGatehouseError(404, { type: 'x/not-found' })).toBeInstanceOf(GatehouseError);
    expect(new GatehouseError(404, {})).toBeInstanceOf(GatehouseError);
    expect(new Error('plain')).not.toBeInstanceOf(GatehouseError);
    class Special extends GatehouseError {}
    expect(new GatehouseError(500, {})).not.toBeInstanceOf(Special);
    expect(new Special(500, {})).toBeInstanceOf(GatehouseError);
  });

  it('types paginate from the generated paths: list routes only, items of the list, its filters', () => {
    const admin = createAdminClient({
      baseUrl: 'http://cp.test',
      token: 't',
      fetch: fakeControlPlane(0).fetch,
    });
    // Checked by tsc (packages/tsconfig.json covers the specs); nothing is fetched until iterated.
    const users = admin.paginate('/v1/admin/users', { query: { project_id: 'prj_1', q: 'ada' } });
    const deliveries = admin.paginate('/v1/admin/webhooks/{id}/deliveries', {
      path: { id: 'wh_1' },
    });
    type Email = Awaited<ReturnType<typeof users.next>>['value'] extends { email: infer E } | void
      ? E
      : never;
    const email: Email = 'a@b.c';
    // @ts-expect-error -- not a list route
    const notAList = admin.paginate('/v1/admin/webhooks/{id}/test');
    // @ts-expect-error -- page and limit belong to paginate
    const ownPaging = admin.paginate('/v1/admin/users', { query: { page: 2 } });
    expect(
      [users, deliveries, notAList, ownPaging].every(
        (it) => typeof it[Symbol.asyncIterator] === 'function',
      ),
    ).toBe(true);
    expect(email).toBe('a@b.c');
  });

  it('refuses a page size the API would refuse', () => {
    expect(() =>
      createAdminClient({ baseUrl: 'http://cp.test', token: 't', pageSize: 101 }),
    ).toThrow(RangeError);
  });
});

describe('adminSession', () => {
  const jwt = (exp: number) => `h.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.s`;

  it('signs in once, then renews through the refresh cookie with one refresh in flight', async () => {
    const seen: string[] = [];
    let refreshes = 0;
    const now = Math.floor(Date.now() / 1000);
    const fetch = (async (url: string, init: RequestInit) => {
      const path = new URL(url).pathname;
      const headers = new Headers(init.headers);
      seen.push(`${path} ${headers.get('cookie') ?? '-'}`);
      if (path === '/v1/auth/sign-in') {
        // Expires within the renewal margin: the next token() refreshes.
        return new Response(JSON.stringify({ session: { id: 's', access_token: jwt(now + 30) } }), {
          headers: [
            ['set-cookie', 'service_refresh_token=rt1; Path=/v1/auth; HttpOnly'],
            ['content-type', 'application/json'],
          ],
        });
      }
      refreshes += 1;
      await new Promise((r) => setTimeout(r, 20));
      return new Response(JSON.stringify({ access_token: jwt(now + 900), expires_in: 900 }), {
        headers: [
          ['set-cookie', `service_refresh_token=rt${refreshes + 1}; Path=/v1/auth; HttpOnly`],
          ['content-type', 'application/json'],
        ],
      });
    }) as unknown as typeof globalThis.fetch;
    const session = adminSession({
      authUrl: 'http://auth.test',
      projectKey: 'pk',
      email: 'a@b.c',
      password: 'p',
      fetch,
    });
    expect(await session.token()).toBe(jwt(now + 30));
    const tokens = await Promise.all(Array.from({ length: 10 }, () => session.token()));
    expect(new Set(tokens)).toEqual(new Set([jwt(now + 900)]));
    expect(refreshes).toBe(1);
    expect(seen).toEqual(['/v1/auth/sign-in -', '/v1/auth/refresh service_refresh_token=rt1']);
  });

  it('signs in again when the refresh chain has ended, and signs out with a current token', async () => {
    const seen: string[] = [];
    let signIns = 0;
    const now = Math.floor(Date.now() / 1000);
    const fetch = (async (url: string, init: RequestInit) => {
      const path = new URL(url).pathname;
      seen.push(`${path} ${new Headers(init.headers).get('authorization') ?? '-'}`);
      if (path === '/v1/auth/sign-in') {
        signIns += 1;
        return new Response(
          JSON.stringify({ session: { id: 's', access_token: jwt(now + 30 + signIns) } }),
          {
            headers: [
              ['set-cookie', `service_refresh_token=rt${signIns}; Path=/v1/auth`],
              ['content-type', 'application/json'],
            ],
          },
        );
      }
      if (path === '/v1/auth/refresh')
        return new Response(
          JSON.stringify({ type: 'x/unauthenticated', status: 401, title: 'Unauthorized' }),
          {
            status: 401,
            headers: { 'set-cookie': 'service_refresh_token=; Path=/v1/auth; Max-Age=0' },
          },
        );
      return new Response(null, { status: 204 });
    }) as unknown as typeof globalThis.fetch;
    const session = adminSession({
      authUrl: 'http://auth.test',
      projectKey: 'pk',
      email: 'a@b.c',
      password: 'p',
      fetch,
    });
    expect(await session.token()).toBe(jwt(now + 31));
    expect(await session.token()).toBe(jwt(now + 32));
    await session.signOut();
    expect(seen).toEqual([
      '/v1/auth/sign-in -',
      '/v1/auth/refresh -',
      '/v1/auth/sign-in -',
      `/v1/auth/sign-out Bearer ${jwt(now + 32)}`,
    ]);
  });

  it('reports an administrator with MFA as a GatehouseError', async () => {
    const fetch = (async () =>
      Response.json({
        mfa_required: true,
        mfa_token: 'm',
        available_factors: ['totp'],
      })) as unknown as typeof globalThis.fetch;
    const err = await adminSession({
      authUrl: 'http://auth.test',
      projectKey: 'pk',
      email: 'a@b.c',
      password: 'p',
      fetch,
    })
      .token()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatehouseError);
    expect(err).toMatchObject({ slug: 'mfa-required', status: 401 });
    expect((err as GatehouseError).detail).toMatch(/MFA/);
  });
});
