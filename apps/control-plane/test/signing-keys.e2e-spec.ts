import { AuditEvent, SigningKey } from '@gatehouse/entities';
import { AccessTokensService, MAX_ACCESS_TOKEN_TTL_SECONDS, SigningKeysService } from '@gatehouse/identity';
import { expectProblem, mintAccessToken, seedTenant, spawnApp, startTestApp, type AppProcess, type SeededTenant, type TestApp } from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

describe('admin signing keys: list, rotate and revoke', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let token: string;
  const auth = () => ({ Authorization: `Bearer ${token}` });
  const base = () => `/v1/admin/projects/${tenant.project.id}/signing-keys`;

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane);
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
  });
  afterAll(() => t.close());

  it('lists the first key with its public JWK only', async () => {
    const res = await t.http().get(base()).set(auth());
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 1 });
    const [key] = res.body.signing_keys;
    expect(key).toEqual({
      id: expect.any(String),
      algorithm: 'ES256',
      status: 'active',
      public_jwk: expect.objectContaining({ kty: 'EC', crv: 'P-256', kid: expect.any(String), x: expect.any(String), y: expect.any(String) }),
      created_at: expect.any(String),
    });
    expect(key.public_jwk).not.toHaveProperty('d');
    expect(JSON.stringify(res.body)).not.toMatch(/PRIVATE|private_key/);
  });

  it('rotates: 201 with the new key; the old one keeps verifying (and is published) until the longest token lifetime has passed', async () => {
    const tokens = t.app.get(AccessTokensService);
    const appUserToken = await tokens.issue({ tenantId: tenant.tenantId, projectId: tenant.project.id, userId: tenant.adminUserId, sessionId: '00000000-0000-4000-8000-000000000001', isAdmin: false });
    const [oldKey] = (await t.http().get(base()).set(auth())).body.signing_keys;

    const rotated = await t.http().post(`${base()}/rotate`).set(auth());
    expect(rotated.status).toBe(201);
    expect(rotated.body).toEqual({ id: expect.any(String), algorithm: 'ES256', status: 'active', public_jwk: expect.objectContaining({ kty: 'EC' }), created_at: expect.any(String) });
    expect(rotated.body.id).not.toBe(oldKey.id);

    const list = await t.http().get(base()).set(auth());
    expect(list.body.signing_keys.map((k: { id: string; status: string }) => [k.id, k.status])).toEqual([
      [rotated.body.id, 'active'],
      [oldKey.id, 'retiring'],
    ]);
    const published = await t.app.get(SigningKeysService).listVerifying(tenant.project.id);
    expect(published.map((k) => k.publicJwk.kid).sort()).toEqual([oldKey.public_jwk.kid, rotated.body.public_jwk.kid].sort());
    expect(await tokens.verify(appUserToken.token, tenant.project.id)).toMatchObject({ sub: tenant.adminUserId });
    const newToken = await tokens.issue({ tenantId: tenant.tenantId, projectId: tenant.project.id, userId: tenant.adminUserId, sessionId: '00000000-0000-4000-8000-000000000002', isAdmin: false });
    expect(await tokens.verify(newToken.token, tenant.project.id)).not.toBeNull();

    const audit = await t.dataSource.getRepository(AuditEvent).findOneByOrFail({ action: 'signing_key.rotated' });
    expect(audit).toMatchObject({ actorType: 'admin', actorId: tenant.adminUserId, projectId: tenant.project.id, resourceId: rotated.body.id });

    t.clock.advance((MAX_ACCESS_TOKEN_TTL_SECONDS + 60) * 1000);
    expect((await t.app.get(SigningKeysService).listVerifying(tenant.project.id)).map((k) => k.id)).toEqual([rotated.body.id]);
    const later = await t.http().get(base()).set(auth());
    // The admin's own token was minted before the clock moved; mint a fresh one for the later read.
    expect(later.status).toBe(401);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
    const after = await t.http().get(base()).set(auth());
    expect(after.body.signing_keys.map((k: { status: string }) => k.status)).toEqual(['active', 'retired']);
  });

  describe('seen by other runtime processes', () => {
    let runtimes: AppProcess[] = [];
    beforeAll(async () => {
      runtimes = await Promise.all([spawnApp('auth-runtime'), spawnApp('auth-runtime')]);
    });
    afterAll(async () => {
      await Promise.all(runtimes.map((r) => r.stop()));
    });

    const call = async (runtime: AppProcess, method: string, path: string, init: { body?: object; token?: string; cookie?: string } = {}) => {
      const res = await fetch(`http://127.0.0.1:${runtime.port}${path}`, {
        method,
        headers: {
          'X-Service-Project-Key': tenant.projectKey,
          ...(init.body ? { 'Content-Type': 'application/json' } : {}),
          ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
          ...(init.cookie ? { Cookie: init.cookie } : {}),
        },
        body: init.body ? JSON.stringify(init.body) : undefined,
      });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null, setCookie: res.headers.getSetCookie() };
    };
    const kidOf = (token: unknown) => (JSON.parse(Buffer.from(String(token).split('.')[0], 'base64url').toString()) as { kid: string }).kid;
    const jwksKids = async (runtime: AppProcess) => ((await call(runtime, 'GET', '/v1/auth/jwks.json')).body!.keys as { kid: string }[]).map((k) => k.kid).sort();

    it('a rotation signs the next token of every runtime with the new key; a revocation refuses the old key\'s tokens at once and unpublishes it', async () => {
      const [a, b] = runtimes;
      const signUp = await call(a, 'POST', '/v1/auth/sign-up', { body: { email: 'keys@example.com', password: 'a sturdy passphrase 42' } });
      expect(signUp.status).toBe(201);
      const oldToken = (signUp.body!.session as { access_token: string }).access_token;
      const refreshCookie = signUp.setCookie.find((c) => c.startsWith('service_refresh_token='))!.split(';')[0];
      const signedInToken = async () => {
        const res = await call(b, 'POST', '/v1/auth/sign-in', { body: { identifier: 'keys@example.com', password: 'a sturdy passphrase 42' } });
        expect(res.status).toBe(200);
        return (res.body!.session as { access_token: string }).access_token;
      };
      const [oldKey] = (await t.http().get(base()).set(auth())).body.signing_keys as { id: string; public_jwk: { kid: string } }[];
      // Both runtimes have signed or checked tokens of the old key (and keep it in their caches).
      expect(kidOf(await signedInToken())).toBe(oldKey.public_jwk.kid);
      expect((await call(a, 'GET', '/v1/auth/sessions', { token: oldToken })).status).toBe(200);
      expect((await call(b, 'GET', '/v1/auth/sessions', { token: oldToken })).status).toBe(200);

      const rotated = await t.http().post(`${base()}/rotate`).set(auth());
      expect(rotated.status).toBe(201);
      const newKid = rotated.body.public_jwk.kid as string;
      expect(kidOf(await signedInToken())).toBe(newKid);
      const refreshed = await call(a, 'POST', '/v1/auth/refresh', { cookie: refreshCookie });
      expect(refreshed.status).toBe(200);
      expect(kidOf(refreshed.body!.access_token)).toBe(newKid);
      // The old key still verifies (retiring) until it is revoked.
      expect((await call(b, 'GET', '/v1/auth/sessions', { token: oldToken })).status).toBe(200);
      expect(await jwksKids(a)).toEqual([oldKey.public_jwk.kid, newKid].sort());

      expectProblem(await t.http().post(`${base()}/${rotated.body.id}/revoke`).set(auth()), 409, 'conflict');
      const revoked = await t.http().post(`${base()}/${oldKey.id}/revoke`).set(auth());
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({ id: oldKey.id, algorithm: 'ES256', status: 'revoked', public_jwk: oldKey.public_jwk, created_at: expect.any(String) });
      for (const runtime of [a, b]) {
        const sessions = await call(runtime, 'GET', '/v1/auth/sessions', { token: oldToken });
        expect(sessions.status).toBe(401);
        expect(sessions.body!.type).toBe('https://gatehouse.dev/problems/unauthenticated');
        expect((await call(runtime, 'GET', '/v1/auth/me', { token: oldToken })).body).toEqual({ user: null });
        expect(await jwksKids(runtime)).toEqual([newKid]);
        // Tokens of the active key are untouched.
        expect((await call(runtime, 'GET', '/v1/auth/me', { token: refreshed.body!.access_token as string })).body!.user).toEqual(expect.objectContaining({ email: 'keys@example.com' }));
      }
      // Again: the same answer, no second event.
      expect((await t.http().post(`${base()}/${oldKey.id}/revoke`).set(auth())).body.status).toBe('revoked');
      const events = await t.dataSource.getRepository(AuditEvent).findBy({ action: 'signing_key.revoked' });
      expect(events.map((e) => [e.actorId, e.projectId, e.resourceId])).toEqual([[tenant.adminUserId, tenant.project.id, oldKey.id]]);
      expect((await t.http().get(base()).set(auth())).body.signing_keys.map((k: { status: string }) => k.status)).toEqual(['active', 'revoked']);
    });
  });

  it('revokes only keys of the tenant\'s own projects: 404 otherwise, and a body is refused', async () => {
    const other = await seedTenant(t.app, 'Other');
    const [theirs] = await t.dataSource.getRepository(SigningKey).findBy({ projectId: other.project.id });
    await t.http().post(`${base()}/rotate`).set(auth());
    const [, mineOld] = (await t.http().get(base()).set(auth())).body.signing_keys as { id: string }[];
    expectProblem(await t.http().post(`${base()}/${theirs.id}/revoke`).set(auth()), 404, 'not-found');
    expectProblem(await t.http().post(`/v1/admin/projects/${other.project.id}/signing-keys/${theirs.id}/revoke`).set(auth()), 404, 'not-found');
    expectProblem(await t.http().post(`${base()}/not-a-uuid/revoke`).set(auth()), 404, 'not-found');
    expectProblem(await t.http().post(`${base()}/${mineOld.id}/revoke`).set(auth()).send({ force: true }), 400, 'validation-error');
    expect(await t.dataSource.getRepository(SigningKey).countBy({ status: 'revoked' })).toBe(0);
  });

  it('serialises concurrent rotations: one active key at a time, every rotation answered', async () => {
    const results = await Promise.all([1, 2, 3].map(() => t.http().post(`${base()}/rotate`).set(auth())));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    const rows = await t.dataSource.getRepository(SigningKey).find({ where: { projectId: tenant.project.id } });
    expect(rows).toHaveLength(4);
    expect(rows.filter((k) => k.status === 'active')).toHaveLength(1);
  });

  it('answers 404 for another tenant\'s project or a malformed id, changing nothing', async () => {
    const other = await seedTenant(t.app, 'Other');
    for (const id of [other.project.id, 'x']) {
      expectProblem(await t.http().get(`/v1/admin/projects/${id}/signing-keys`).set(auth()), 404, 'not-found');
      expectProblem(await t.http().post(`/v1/admin/projects/${id}/signing-keys/rotate`).set(auth()), 404, 'not-found');
    }
    expect(await t.dataSource.getRepository(SigningKey).countBy({ projectId: other.project.id })).toBe(1);
  });
});
