import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { createGatehouse, GatehouseAuthError, type GatehouseOptions } from './index';

const AUTH = 'https://auth.example.test';
const PROJECT = 'prj_1';
const ISS = `${AUTH}/v1/projects/${PROJECT}`;

interface Key {
  kid: string;
  alg: 'ES256' | 'RS256';
  privateKey: CryptoKey;
  jwk: JWK;
}

async function key(kid: string, alg: 'ES256' | 'RS256' = 'ES256'): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

function sign(k: Key, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: ISS,
    aud: PROJECT,
    sub: 'usr_1',
    iat: now,
    exp: now + 900,
    sid: 'ses_1',
    tid: 'ten_1',
    adm: false,
    auth_time: now,
    ...claims,
  })
    .setProtectedHeader({ alg: k.alg, kid: k.kid, typ: 'JWT', ...header })
    .sign(k.privateKey);
}

/** A fake Gatehouse for unit tests: jwks.json from `keys`, /me from `live`; counts the calls. */
function fakeGatehouse(keys: Key[]) {
  const state = {
    keys,
    live: true,
    jwksCalls: 0,
    meCalls: 0,
    down: false,
    meHeaders: [] as Headers[],
  };
  const fakeFetch = (async (
    input: string | URL | Request,
    init?: RequestInit,
  ): Promise<Response> => {
    const url = input instanceof Request ? input.url : input.toString();
    if (state.down) throw new TypeError('fetch failed');
    if (url === `${AUTH}/v1/auth/jwks.json`) {
      state.jwksCalls += 1;
      return Response.json({ keys: state.keys.map((k) => k.jwk) });
    }
    if (url === `${AUTH}/v1/auth/me`) {
      state.meCalls += 1;
      state.meHeaders.push(new Headers(init?.headers));
      return Response.json({ user: state.live ? { id: 'usr_1' } : null });
    }
    return new Response('not found', { status: 404 });
  }) as typeof globalThis.fetch;
  return { state, fetch: fakeFetch };
}

function gatehouse(fetch: typeof globalThis.fetch, extra: Partial<GatehouseOptions> = {}) {
  return createGatehouse({
    authUrl: AUTH,
    projectId: PROJECT,
    projectKey: 'pk_test',
    fetch,
    ...extra,
  });
}

async function refusal(promise: Promise<unknown>): Promise<GatehouseAuthError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatehouseAuthError);
  return err as GatehouseAuthError;
}

describe('verifyAccessToken', () => {
  it('accepts a token of the project and returns its typed claims, fetching the keys once', async () => {
    const k = await key('k1');
    const { state, fetch } = fakeGatehouse([k]);
    const gh = gatehouse(fetch);
    const claims = await gh.verifyAccessToken(await sign(k));
    expect(claims).toMatchObject({
      iss: ISS,
      aud: PROJECT,
      sub: 'usr_1',
      sid: 'ses_1',
      tid: 'ten_1',
      adm: false,
    });
    await gh.verifyAccessToken(await sign(k, { sid: 'ses_2' }));
    expect(state.jwksCalls).toBe(1);
  });

  it('accepts RS256 tokens signed by an RS256 key of the set', async () => {
    const es = await key('es');
    const rs = await key('rs', 'RS256');
    const { fetch } = fakeGatehouse([es, rs]);
    await expect(gatehouse(fetch).verifyAccessToken(await sign(rs))).resolves.toMatchObject({
      sub: 'usr_1',
    });
  });

  it('refuses a forged signature (another key under a published kid), a foreign issuer, another audience and an expired token', async () => {
    const k = await key('k1');
    const forger = await key('k1');
    const { fetch } = fakeGatehouse([k]);
    const gh = gatehouse(fetch);
    expect((await refusal(gh.verifyAccessToken(await sign(forger)))).code).toBe('invalid_token');
    const foreign = await new SignJWT({ sid: 's', tid: 't', adm: false, auth_time: 1 })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(`${AUTH}/v1/projects/prj_other`)
      .setAudience(PROJECT)
      .setSubject('u')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(k.privateKey);
    expect((await refusal(gh.verifyAccessToken(foreign))).code).toBe('invalid_token');
    const otherAudience = await new SignJWT({ sid: 's', tid: 't', adm: false, auth_time: 1 })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(ISS)
      .setAudience('prj_other')
      .setSubject('u')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(k.privateKey);
    expect((await refusal(gh.verifyAccessToken(otherAudience))).code).toBe('invalid_token');
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign(k, { iat: now - 1000, exp: now - 60 });
    const err = await refusal(gh.verifyAccessToken(expired));
    expect([err.code, err.status]).toEqual(['expired_token', 401]);
  });

  it('allows the clock tolerance on exp and no more', async () => {
    const k = await key('k1');
    const { fetch } = fakeGatehouse([k]);
    const gh = gatehouse(fetch, { clockToleranceSeconds: 30 });
    const now = Math.floor(Date.now() / 1000);
    await expect(
      gh.verifyAccessToken(await sign(k, { iat: now - 600, exp: now - 20 })),
    ).resolves.toBeDefined();
    expect(
      (await refusal(gh.verifyAccessToken(await sign(k, { iat: now - 600, exp: now - 40 })))).code,
    ).toBe('expired_token');
  });

  it('refuses alg none, HS256 keyed with the public key, and a token whose alg differs from its key', async () => {
    const k = await key('k1');
    const rs = await key('rs', 'RS256');
    const { fetch } = fakeGatehouse([k, rs]);
    const gh = gatehouse(fetch);
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const payload = b64({
      iss: ISS,
      aud: PROJECT,
      sub: 'usr_1',
      sid: 's',
      tid: 't',
      adm: true,
      auth_time: now,
      iat: now,
      exp: now + 600,
    });
    expect(
      (await refusal(gh.verifyAccessToken(`${b64({ alg: 'none', kid: 'k1' })}.${payload}.`))).code,
    ).toBe('invalid_token');
    const hs = await new SignJWT({ sid: 's', tid: 't', adm: true, auth_time: now })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setIssuer(ISS)
      .setAudience(PROJECT)
      .setSubject('u')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(JSON.stringify(k.jwk)));
    expect((await refusal(gh.verifyAccessToken(hs))).code).toBe('invalid_token');
    // An RS256 token naming the ES256 key's kid.
    expect((await refusal(gh.verifyAccessToken(await sign(rs, {}, { kid: 'k1' })))).code).toBe(
      'invalid_token',
    );
  });

  it('refuses a token without the Gatehouse session claims', async () => {
    const k = await key('k1');
    const { fetch } = fakeGatehouse([k]);
    const token = await new SignJWT({ scope: 'openid' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(ISS)
      .setAudience(PROJECT)
      .setSubject('u')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(k.privateKey);
    expect((await refusal(gatehouse(fetch).verifyAccessToken(token))).code).toBe('invalid_token');
    expect((await refusal(gatehouse(fetch).verifyAccessToken('not.a.jwt'))).code).toBe(
      'invalid_token',
    );
    expect((await refusal(gatehouse(fetch).verifyAccessToken(''))).code).toBe('missing_token');
  });

  it('returns the org claim of a token with an active organization, and refuses a token whose org is malformed', async () => {
    const k = await key('k1');
    const { fetch } = fakeGatehouse([k]);
    const gh = gatehouse(fetch);
    const org = { id: 'org_1', slug: 'acme', role: 'billing', permissions: ['invoices:read'] };
    expect((await gh.verifyAccessToken(await sign(k, { org }))).org).toEqual(org);
    expect((await gh.verifyAccessToken(await sign(k))).org).toBeUndefined();
    const malformed = [
      null,
      'org_1',
      [org],
      { ...org, id: 42 },
      { id: 'org_1', role: 'admin', permissions: [] },
      { ...org, role: undefined },
      { ...org, permissions: 'invoices:read' },
      { ...org, permissions: ['invoices:read', 7] },
    ];
    for (const bad of malformed) {
      const err = await refusal(gh.verifyAccessToken(await sign(k, { org: bad })));
      expect([JSON.stringify(bad), err.code, err.message]).toEqual([
        JSON.stringify(bad),
        'invalid_token',
        'The access token lacks the claims of a Gatehouse session token.',
      ]);
    }
  });

  it('fetches the keys again for a new kid (rotation), but a flood of unknown kids costs one fetch per cooldown', async () => {
    const k1 = await key('k1');
    const k2 = await key('k2');
    const { state, fetch } = fakeGatehouse([k1]);
    let now = Date.now();
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const gh = gatehouse(fetch, { jwksCooldownSeconds: 10 });
      await gh.verifyAccessToken(await sign(k1));
      expect(state.jwksCalls).toBe(1);
      now += 11_000;
      // 50 forged kids at once: one fetch, all refused.
      const forged = await Promise.all(
        Array.from({ length: 50 }, (_, i) => sign(k1, {}, { kid: `forged-${i}` })),
      );
      const errors = await Promise.all(forged.map((t) => refusal(gh.verifyAccessToken(t))));
      expect(new Set(errors.map((e) => e.code))).toEqual(new Set(['invalid_token']));
      expect(state.jwksCalls).toBe(2);
      // Gatehouse rotates; within the cooldown the new kid is not fetched yet, after it it is.
      state.keys = [k1, k2];
      const rotated = await sign(k2);
      expect((await refusal(gh.verifyAccessToken(rotated))).code).toBe('invalid_token');
      expect(state.jwksCalls).toBe(2);
      now += 10_000;
      await expect(gh.verifyAccessToken(rotated)).resolves.toMatchObject({ sub: 'usr_1' });
      expect(state.jwksCalls).toBe(3);
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('drops a key Gatehouse stopped publishing once the set is older than its max age', async () => {
    const k1 = await key('k1');
    const k2 = await key('k2');
    const { state, fetch } = fakeGatehouse([k1, k2]);
    let now = Date.now();
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const gh = gatehouse(fetch, { jwksMaxAgeSeconds: 60 });
      const old = await sign(k1);
      await gh.verifyAccessToken(old);
      state.keys = [k2]; // k1 revoked
      now += 61_000;
      // The stale set still answers this one while the refresh runs in the background…
      await gh.verifyAccessToken(
        await sign(k1, { exp: Math.floor(now / 1000) + 600, iat: Math.floor(now / 1000) }),
      );
      await new Promise((r) => setTimeout(r, 10));
      expect(state.jwksCalls).toBe(2);
      // …and from then on k1 is refused.
      expect(
        (
          await refusal(
            gh.verifyAccessToken(
              await sign(k1, { exp: Math.floor(now / 1000) + 600, iat: Math.floor(now / 1000) }),
            ),
          )
        ).code,
      ).toBe('invalid_token');
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('answers gatehouse_unavailable (503) when the keys cannot be fetched', async () => {
    const k = await key('k1');
    const { state, fetch } = fakeGatehouse([k]);
    state.down = true;
    const err = await refusal(gatehouse(fetch).verifyAccessToken(await sign(k)));
    expect([err.code, err.status]).toEqual(['gatehouse_unavailable', 503]);
  });

  it('never puts the token in an error message', async () => {
    const k = await key('k1');
    const { fetch } = fakeGatehouse([k]);
    const token = await sign(k, { aud: 'elsewhere' });
    const err = await refusal(gatehouse(fetch).verifyAccessToken(token));
    expect(err.message).not.toContain(token.split('.')[1]);
  });
});

describe('revocation-aware mode', () => {
  it('asks Gatehouse once per session within the cache time, and refuses a revoked session after it', async () => {
    const k = await key('k1');
    const { state, fetch } = fakeGatehouse([k]);
    let now = Date.now();
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const gh = gatehouse(fetch, { revocation: { cacheSeconds: 10 } });
      const token = await sign(k);
      await Promise.all(Array.from({ length: 20 }, () => gh.verifyAccessToken(token)));
      expect(state.meCalls).toBe(1);
      expect(state.meHeaders[0].get('authorization')).toBe(`Bearer ${token}`);
      expect(state.meHeaders[0].get('x-service-project-key')).toBe('pk_test');
      state.live = false;
      // Within the cache time the old answer stands (the documented bound)…
      await gh.verifyAccessToken(token);
      now += 10_001;
      const err = await refusal(gh.verifyAccessToken(token));
      expect([err.code, err.status]).toEqual(['revoked_token', 401]);
      expect(state.meCalls).toBe(2);
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('refuses (503) rather than accepts when Gatehouse cannot answer', async () => {
    const k = await key('k1');
    const { state, fetch } = fakeGatehouse([k]);
    const gh = gatehouse(fetch, { revocation: true });
    const token = await sign(k);
    await gh.verifyAccessToken(token); // keys fetched, session cached
    const fresh = await sign(k, { sid: 'ses_new' });
    state.down = true;
    expect((await refusal(gh.verifyAccessToken(fresh))).code).toBe('gatehouse_unavailable');
  });
});

describe('createGatehouse', () => {
  it('refuses options it cannot work with', () => {
    expect(() =>
      createGatehouse({ authUrl: 'not a url', projectId: 'p', projectKey: 'k' }),
    ).toThrow(TypeError);
    expect(() => createGatehouse({ authUrl: 'ftp://x', projectId: 'p', projectKey: 'k' })).toThrow(
      TypeError,
    );
    expect(() => createGatehouse({ authUrl: AUTH, projectId: '', projectKey: 'k' })).toThrow(
      TypeError,
    );
    expect(
      createGatehouse({ authUrl: `${AUTH}/`, projectId: PROJECT, projectKey: 'k' }).issuer,
    ).toBe(ISS);
  });
});
