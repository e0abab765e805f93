import { AuditEvent, SigningKey } from '@gatehouse/entities';
import {
  AccessTokensService,
  MAX_ACCESS_TOKEN_TTL_SECONDS,
  SigningKeysService,
} from '@gatehouse/identity';
import {
  expectProblem,
  mintAccessToken,
  seedTenant,
  spawnApp,
  startTestApp,
  type AppProcess,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
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
      public_jwk: expect.objectContaining({
        kty: 'EC',
        crv: 'P-256',
        kid: expect.any(String),
        x: expect.any(String),
        y: expect.any(String),
      }),
      created_at: expect.any(String),
    });
    expect(key.public_jwk).not.toHaveProperty('d');
    expect(JSON.stringify(res.body)).not.toMatch(/PRIVATE|private_key/);
  });

  it('rotates: 201 with the new key; the old one keeps verifying (and is published) until the longest token lifetime has passed', async () => {
    const tokens = t.app.get(AccessTokensService);
    const appUserToken = await tokens.issue({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      userId: tenant.adminUserId,
      sessionId: '00000000-0000-4000-8000-000000000001',
      isAdmin: false,
    });
    const [oldKey] = (await t.http().get(base()).set(auth())).body.signing_keys;

    const rotated = await t.http().post(`${base()}/rotate`).set(auth());
    expect(rotated.status).toBe(201);
    expect(rotated.body).toEqual({
      id: expect.any(String),
      algorithm: 'ES256',
      status: 'active',
      public_jwk: expect.objectContaining({ kty: 'EC' }),
      created_at: expect.any(String),
    });
    expect(rotated.body.id).not.toBe(oldKey.id);

    const list = await t.http().get(base()).set(auth());
    expect(
      list.body.signing_keys.map((k: { id: string; status: string }) => [k.id, k.status]),
    ).toEqual([
      [rotated.body.id, 'active'],
      [oldKey.id, 'retiring'],
    ]);
    const published = await t.app.get(SigningKeysService).listVerifying(tenant.project.id);
    expect(published.map((k) => k.publicJwk.kid).sort()).toEqual(
      [oldKey.public_jwk.kid, rotated.body.public_jwk.kid].sort(),
    );
    expect(await tokens.verify(appUserToken.token, tenant.project.id)).toMatchObject({
      sub: tenant.adminUserId,
    });
    const newToken = await tokens.issue({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      userId: tenant.adminUserId,
      sessionId: '00000000-0000-4000-8000-000000000002',
      isAdmin: false,
    });
    expect(await tokens.verify(newToken.token, tenant.project.id)).not.toBeNull();

    const audit = await t.dataSource
      .getRepository(AuditEvent)
      .findOneByOrFail({ action: 'signing_key.rotated' });
    expect(audit).toMatchObject({
      actorType: 'admin',
      actorId: tenant.adminUserId,
      projectId: tenant.project.id,
      resourceId: rotated.body.id,
    });

    t.clock.advance((MAX_ACCESS_TOKEN_TTL_SECONDS + 60) * 1000);
    expect(
      (await t.app.get(SigningKeysService).listVerifying(tenant.project.id)).map((k) => k.id),
    ).toEqual([rotated.body.id]);
    const later = await t.http().get(base()).set(auth());
    // The admin's own token was minted before the clock moved; mint a fresh one for the later read.
    expect(later.status).toBe(401);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
    const after = await t.http().get(base()).set(auth());
    expect(after.body.signing_keys.map((k: { status: string }) => k.status)).toEqual([
      'active',
      'retired',
    ]);
  });

  describe('RS256 keys beside ES256 (OpenID Connect ID tokens)', () => {
    type KeyBody = {
      id: string;
      algorithm: string;
      status: string;
      public_jwk: Record<string, string>;
      created_at: string;
    };
    const rotate = (body?: object) => {
      const req = t.http().post(`${base()}/rotate`).set(auth());
      return body === undefined ? req : req.send(body);
    };
    const listed = async () =>
      ((await t.http().get(base()).set(auth())).body.signing_keys as KeyBody[]).map((k) => [
        k.algorithm,
        k.status,
        k.id,
      ]);

    it('rotate {algorithm: RS256} makes an active RS256 key and leaves the active ES256 key (and the tokens it signs) alone', async () => {
      const [es256] = (await t.http().get(base()).set(auth())).body.signing_keys as KeyBody[];
      const res = await rotate({ algorithm: 'RS256' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        algorithm: 'RS256',
        status: 'active',
        public_jwk: {
          kty: 'RSA',
          n: expect.any(String),
          e: 'AQAB',
          kid: expect.any(String),
          alg: 'RS256',
          use: 'sig',
        },
        created_at: expect.any(String),
      });
      expect(Buffer.from(res.body.public_jwk.n as string, 'base64url')).toHaveLength(256);
      expect(await listed()).toEqual([
        ['RS256', 'active', res.body.id],
        ['ES256', 'active', es256.id],
      ]);
      // Our access tokens stay ES256, signed by the same active ES256 key.
      const keys = t.app.get(SigningKeysService);
      expect((await keys.activeKey(tenant.project.id)).kid).toBe(es256.public_jwk.kid);
      expect((await keys.activeKey(tenant.project.id, { algorithm: 'RS256' })).kid).toBe(
        res.body.public_jwk.kid,
      );
      const issued = await t.app.get(AccessTokensService).issue({
        tenantId: tenant.tenantId,
        projectId: tenant.project.id,
        userId: tenant.adminUserId,
        sessionId: '00000000-0000-4000-8000-000000000003',
        isAdmin: false,
      });
      expect(JSON.parse(Buffer.from(issued.token.split('.')[0], 'base64url').toString())).toEqual({
        alg: 'ES256',
        typ: 'JWT',
        kid: es256.public_jwk.kid,
      });
      expect((await t.http().get(base()).set(auth())).status).toBe(200);

      const audit = await t.dataSource
        .getRepository(AuditEvent)
        .findOneByOrFail({ action: 'signing_key.rotated' });
      expect(audit).toMatchObject({
        actorId: tenant.adminUserId,
        resourceId: res.body.id,
        metadata: {
          signing_key: {
            id: res.body.id,
            kid: res.body.public_jwk.kid,
            algorithm: 'RS256',
            project_id: tenant.project.id,
          },
        },
      });
    });

    it('rotating RS256 again retires only the previous RS256 key; RS256 keys are revoked as the others (the active one is 409)', async () => {
      const first = (await rotate({ algorithm: 'RS256' })).body as KeyBody;
      const es256Rotated = (await rotate({ algorithm: 'ES256' })).body as KeyBody;
      const second = await rotate({ algorithm: 'RS256' });
      expect(second.status).toBe(201);
      const all = (await t.http().get(base()).set(auth())).body.signing_keys as KeyBody[];
      expect(all.map((k) => [k.algorithm, k.status])).toEqual([
        ['RS256', 'active'],
        ['ES256', 'active'],
        ['RS256', 'retiring'],
        ['ES256', 'retiring'],
      ]);
      expect(all.map((k) => k.id).slice(0, 3)).toEqual([second.body.id, es256Rotated.id, first.id]);
      const verifying = await t.app.get(SigningKeysService).listVerifying(tenant.project.id);
      expect(verifying.map((k) => k.algorithm).sort()).toEqual([
        'ES256',
        'ES256',
        'RS256',
        'RS256',
      ]);

      expectProblem(
        await t.http().post(`${base()}/${second.body.id}/revoke`).set(auth()),
        409,
        'conflict',
      );
      const revoked = await t.http().post(`${base()}/${first.id}/revoke`).set(auth());
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({ ...first, status: 'revoked' });
      const after = await t.app.get(SigningKeysService).listVerifying(tenant.project.id);
      expect(after.map((k) => k.id)).not.toContain(first.id);
      expect(after.filter((k) => k.algorithm === 'RS256').map((k) => k.id)).toEqual([
        second.body.id,
      ]);
      const events = await t.dataSource
        .getRepository(AuditEvent)
        .findBy({ action: 'signing_key.revoked' });
      expect(
        events.map((e) => [
          e.resourceId,
          (e.metadata as { signing_key: { algorithm: string } }).signing_key.algorithm,
        ]),
      ).toEqual([[first.id, 'RS256']]);
    });

    it('refuses any other algorithm with 400 validation-error and changes nothing; no body, {} and ES256 rotate the ES256 key', async () => {
      const before = await listed();
      for (const algorithm of ['HS256', 'rs256', 'ES384', 'none', '', null, 256, ['RS256']]) {
        const res = await rotate({ algorithm });
        const problem = expectProblem(res, 400, 'validation-error', `${base()}/rotate`);
        expect(problem.errors).toEqual({ algorithm: ['must be "ES256" or "RS256"'] });
      }
      expect(await listed()).toEqual(before);
      for (const body of [undefined, {}, { algorithm: 'ES256' }]) {
        const res = await rotate(body);
        expect(res.status).toBe(201);
        expect(res.body.algorithm).toBe('ES256');
      }
      const rows = await t.dataSource
        .getRepository(SigningKey)
        .findBy({ projectId: tenant.project.id });
      expect(rows.map((k) => k.algorithm)).toEqual(['ES256', 'ES256', 'ES256', 'ES256']);
      expect(rows.filter((k) => k.status === 'active')).toHaveLength(1);
    });

    it('serialises concurrent rotations of both algorithms: one active key of each', async () => {
      const results = await Promise.all(
        ['RS256', 'ES256', 'RS256', 'ES256', 'RS256'].map((algorithm) => rotate({ algorithm })),
      );
      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
      const rows = await t.dataSource
        .getRepository(SigningKey)
        .findBy({ projectId: tenant.project.id, status: 'active' });
      expect(rows.map((k) => k.algorithm).sort()).toEqual(['ES256', 'RS256']);
    });

    it('refuses a second active key of one algorithm in the database; the algorithm is ES256 or RS256', async () => {
      const [es256] = await t.dataSource
        .getRepository(SigningKey)
        .findBy({ projectId: tenant.project.id });
      const copy = (algorithm: string, kid: string) =>
        t.dataSource.query(
          `INSERT INTO signing_keys (tenant_id, project_id, kid, algorithm, status, public_jwk, private_key_encrypted) VALUES ($1, $2, $3, $4, 'active', '{}', 'x')`,
          [tenant.tenantId, tenant.project.id, kid, algorithm],
        );
      await expect(copy('ES256', 'dup-es256')).rejects.toMatchObject({
        driverError: { code: '23505', constraint: 'signing_keys_one_active_per_algorithm' },
      });
      await expect(copy('HS256', 'hs256')).rejects.toMatchObject({
        driverError: { code: '23514', constraint: 'signing_keys_algorithm_check' },
      });
      await copy('RS256', 'rs256-copy');
      await expect(copy('RS256', 'rs256-copy-2')).rejects.toMatchObject({
        driverError: { code: '23505' },
      });
      expect(es256.algorithm).toBe('ES256');
    });
  });

  describe('seen by other runtime processes', () => {
    let runtimes: AppProcess[] = [];
    beforeAll(async () => {
      runtimes = await Promise.all([spawnApp('auth-runtime'), spawnApp('auth-runtime')]);
    });
    afterAll(async () => {
      await Promise.all(runtimes.map((r) => r.stop()));
    });

    const call = async (
      runtime: AppProcess,
      method: string,
      path: string,
      init: { body?: object; token?: string; cookie?: string } = {},
    ) => {
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
      return {
        status: res.status,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
        setCookie: res.headers.getSetCookie(),
      };
    };
    const kidOf = (token: unknown) =>
      (
        JSON.parse(Buffer.from(String(token).split('.')[0], 'base64url').toString()) as {
          kid: string;
        }
      ).kid;
    const jwksKids = async (runtime: AppProcess) =>
      ((await call(runtime, 'GET', '/v1/auth/jwks.json')).body!.keys as { kid: string }[])
        .map((k) => k.kid)
        .sort();

    it("a rotation signs the next token of every runtime with the new key; a revocation refuses the old key's tokens at once and unpublishes it", async () => {
      const [a, b] = runtimes;
      const signUp = await call(a, 'POST', '/v1/auth/sign-up', {
        body: { email: 'keys@example.com', password: 'a sturdy passphrase 42' },
      });
      expect(signUp.status).toBe(201);
      const oldToken = (signUp.body!.session as { access_token: string }).access_token;
      const refreshCookie = signUp.setCookie
        .find((c) => c.startsWith('service_refresh_token='))!
        .split(';')[0];
      const signedInToken = async () => {
        const res = await call(b, 'POST', '/v1/auth/sign-in', {
          body: { identifier: 'keys@example.com', password: 'a sturdy passphrase 42' },
        });
        expect(res.status).toBe(200);
        return (res.body!.session as { access_token: string }).access_token;
      };
      const [oldKey] = (await t.http().get(base()).set(auth())).body.signing_keys as {
        id: string;
        public_jwk: { kid: string };
      }[];
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

      expectProblem(
        await t.http().post(`${base()}/${rotated.body.id}/revoke`).set(auth()),
        409,
        'conflict',
      );
      const revoked = await t.http().post(`${base()}/${oldKey.id}/revoke`).set(auth());
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({
        id: oldKey.id,
        algorithm: 'ES256',
        status: 'revoked',
        public_jwk: oldKey.public_jwk,
        created_at: expect.any(String),
      });
      for (const runtime of [a, b]) {
        const sessions = await call(runtime, 'GET', '/v1/auth/sessions', { token: oldToken });
        expect(sessions.status).toBe(401);
        expect(sessions.body!.type).toBe('https://gatehouse.dev/problems/unauthenticated');
        expect((await call(runtime, 'GET', '/v1/auth/me', { token: oldToken })).body).toEqual({
          user: null,
        });
        expect(await jwksKids(runtime)).toEqual([newKid]);
        // Tokens of the active key are untouched.
        expect(
          (
            await call(runtime, 'GET', '/v1/auth/me', {
              token: refreshed.body!.access_token as string,
            })
          ).body!.user,
        ).toEqual(expect.objectContaining({ email: 'keys@example.com' }));
      }
      // Again: the same answer, no second event.
      expect((await t.http().post(`${base()}/${oldKey.id}/revoke`).set(auth())).body.status).toBe(
        'revoked',
      );
      const events = await t.dataSource
        .getRepository(AuditEvent)
        .findBy({ action: 'signing_key.revoked' });
      expect(events.map((e) => [e.actorId, e.projectId, e.resourceId])).toEqual([
        [tenant.adminUserId, tenant.project.id, oldKey.id],
      ]);
      expect(
        (await t.http().get(base()).set(auth())).body.signing_keys.map(
          (k: { status: string }) => k.status,
        ),
      ).toEqual(['active', 'revoked']);
    });

    it('every runtime publishes the RS256 key beside the ES256 one (public members only) and keeps signing access tokens ES256', async () => {
      const [a, b] = runtimes;
      const rotated = await t
        .http()
        .post(`${base()}/rotate`)
        .set(auth())
        .send({ algorithm: 'RS256' });
      expect(rotated.status).toBe(201);
      const [es256] = (
        (await t.http().get(base()).set(auth())).body.signing_keys as {
          algorithm: string;
          public_jwk: Record<string, string>;
        }[]
      ).filter((k) => k.algorithm === 'ES256');
      for (const runtime of [a, b]) {
        const jwks = await call(runtime, 'GET', '/v1/auth/jwks.json');
        expect(jwks.status).toBe(200);
        expect(jwks.body!.keys).toEqual(
          expect.arrayContaining([rotated.body.public_jwk, es256.public_jwk]),
        );
        expect(jwks.body!.keys).toHaveLength(2);
      }
      const signUp = await call(a, 'POST', '/v1/auth/sign-up', {
        body: { email: 'rs256@example.com', password: 'a sturdy passphrase 42' },
      });
      expect(signUp.status).toBe(201);
      expect(kidOf((signUp.body!.session as { access_token: string }).access_token)).toBe(
        es256.public_jwk.kid,
      );
    });
  });

  it("revokes only keys of the tenant's own projects: 404 otherwise, and a body is refused", async () => {
    const other = await seedTenant(t.app, 'Other');
    const [theirs] = await t.dataSource
      .getRepository(SigningKey)
      .findBy({ projectId: other.project.id });
    await t.http().post(`${base()}/rotate`).set(auth());
    const [, mineOld] = (await t.http().get(base()).set(auth())).body.signing_keys as {
      id: string;
    }[];
    expectProblem(
      await t.http().post(`${base()}/${theirs.id}/revoke`).set(auth()),
      404,
      'not-found',
    );
    expectProblem(
      await t
        .http()
        .post(`/v1/admin/projects/${other.project.id}/signing-keys/${theirs.id}/revoke`)
        .set(auth()),
      404,
      'not-found',
    );
    expectProblem(await t.http().post(`${base()}/not-a-uuid/revoke`).set(auth()), 404, 'not-found');
    expectProblem(
      await t.http().post(`${base()}/${mineOld.id}/revoke`).set(auth()).send({ force: true }),
      400,
      'validation-error',
    );
    expect(await t.dataSource.getRepository(SigningKey).countBy({ status: 'revoked' })).toBe(0);
  });

  it('serialises concurrent rotations: one active key at a time, every rotation answered', async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() => t.http().post(`${base()}/rotate`).set(auth())),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    const rows = await t.dataSource
      .getRepository(SigningKey)
      .find({ where: { projectId: tenant.project.id } });
    expect(rows).toHaveLength(4);
    expect(rows.filter((k) => k.status === 'active')).toHaveLength(1);
  });

  it("answers 404 for another tenant's project or a malformed id, changing nothing", async () => {
    const other = await seedTenant(t.app, 'Other');
    for (const id of [other.project.id, 'x']) {
      expectProblem(
        await t.http().get(`/v1/admin/projects/${id}/signing-keys`).set(auth()),
        404,
        'not-found',
      );
      expectProblem(
        await t.http().post(`/v1/admin/projects/${id}/signing-keys/rotate`).set(auth()),
        404,
        'not-found',
      );
    }
    expect(
      await t.dataSource.getRepository(SigningKey).countBy({ projectId: other.project.id }),
    ).toBe(1);
  });
});
