import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { publicJwkMembers, signAccessToken } from '@gatehouse/crypto';
import { SigningKey } from '@gatehouse/entities';
import { SigningKeysService } from '@gatehouse/identity';
import {
  expectProblem,
  seedTenant,
  signUpUser,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'];
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const partsOf = (token: string) =>
  token
    .split('.')
    .map((part, i) =>
      i < 2
        ? (JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>)
        : part,
    );

describe('signing keys of both algorithms: ES256 for our access tokens, RS256 beside it', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let keys: SigningKeysService;
  const key = () => tenant.projectKey;
  const jwks = () => t.http().get('/v1/auth/jwks.json').set('X-Service-Project-Key', key());
  const rows = (algorithm?: 'ES256' | 'RS256') =>
    t.dataSource.getRepository(SigningKey).find({
      where: { projectId: tenant.project.id, ...(algorithm ? { algorithm } : {}) },
      order: { createdAt: 'DESC' },
    });

  beforeAll(async () => {
    t = await startTestApp(buildAuthRuntime);
    keys = t.app.get(SigningKeysService);
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
  });
  afterAll(() => t.close());

  it('serves the ES256 and RS256 keys at jwks.json with their public members only', async () => {
    const rsa = await keys.ensureActive(tenant.project.id, 'RS256');
    const [es256] = await rows('ES256');
    const res = await jwks();
    expect(res.status).toBe(200);
    expect(res.body.keys).toEqual([
      { kty: 'RSA', n: expect.any(String), e: 'AQAB', kid: rsa.kid, alg: 'RS256', use: 'sig' },
      {
        kty: 'EC',
        crv: 'P-256',
        x: expect.any(String),
        y: expect.any(String),
        kid: es256.kid,
        alg: 'ES256',
        use: 'sig',
      },
    ]);
    for (const jwk of res.body.keys as Record<string, string>[]) {
      for (const name of PRIVATE_MEMBERS) expect(jwk).not.toHaveProperty(name);
      // Each published key verifies what the matching private key signs.
      const privateKey =
        jwk.kid === rsa.kid ? rsa.key : (await keys.activeKey(tenant.project.id)).key;
      expect(
        verify(
          'sha256',
          Buffer.from('x'),
          createPublicKey({ key: jwk, format: 'jwk' }),
          sign('sha256', Buffer.from('x'), privateKey),
        ),
      ).toBe(true);
    }
    expect(
      createPublicKey({ key: res.body.keys[0], format: 'jwk' }).asymmetricKeyDetails?.modulusLength,
    ).toBe(2048);
    expect(JSON.stringify(res.body)).not.toMatch(/PRIVATE|private_key/);
  });

  it("refuses a token signed by the project's RS256 key as an access token (401), whatever its header says", async () => {
    const user = await signUpUser(t, key(), 'rs256@example.com');
    const [, claims] = partsOf(user.accessToken) as [
      Record<string, unknown>,
      Record<string, unknown>,
    ];
    const rsa = await keys.ensureActive(tenant.project.id, 'RS256');
    const es256 = await keys.activeKey(tenant.project.id);
    const rs256Token = (header: object) => {
      const input = `${b64(header)}.${b64(claims)}`;
      return `${input}.${sign('sha256', Buffer.from(input), rsa.key).toString('base64url')}`;
    };
    const sessions = (token: string) =>
      t
        .http()
        .get('/v1/auth/sessions')
        .set('X-Service-Project-Key', key())
        .set('Authorization', `Bearer ${token}`);
    const me = (token: string) =>
      t
        .http()
        .get('/v1/auth/me')
        .set('X-Service-Project-Key', key())
        .set('Authorization', `Bearer ${token}`);

    // The same claims signed ES256 with the project's active ES256 key are accepted.
    const genuine = signAccessToken(
      claims as unknown as Parameters<typeof signAccessToken>[0],
      es256.key,
      es256.kid,
    );
    expect((await sessions(genuine)).status).toBe(200);
    expect((await me(genuine)).body.user).toEqual(expect.objectContaining({ id: user.id }));

    for (const header of [
      { alg: 'RS256', typ: 'JWT', kid: rsa.kid },
      { alg: 'ES256', typ: 'JWT', kid: rsa.kid },
      { alg: 'RS256', typ: 'JWT', kid: es256.kid },
      { alg: 'RS256', typ: 'at+jwt', kid: rsa.kid },
    ]) {
      const token = rs256Token(header);
      expectProblem(await sessions(token), 401, 'unauthenticated', '/v1/auth/sessions');
      expect({ header, body: (await me(token)).body }).toEqual({ header, body: { user: null } });
    }
    expect(await keys.verifyingKey(rsa.kid)).toBeNull();
    expect(await keys.verifyingKey(es256.kid)).toEqual(
      expect.objectContaining({ algorithm: 'ES256', projectId: tenant.project.id }),
    );
  });

  it('ensureActive: ten concurrent calls make one RS256 key, in one process or across instances; an existing key is returned as is', async () => {
    const same = await Promise.all(
      Array.from({ length: 10 }, () => keys.ensureActive(tenant.project.id, 'RS256')),
    );
    expect(new Set(same.map((k) => k.kid)).size).toBe(1);
    expect(same.every((k) => k.algorithm === 'RS256' && k.key.asymmetricKeyType === 'rsa')).toBe(
      true,
    );
    expect((await rows('RS256')).map((k) => [k.kid, k.status, k.tenantId])).toEqual([
      [same[0].kid, 'active', tenant.tenantId],
    ]);

    // Ten instances (as ten runtime processes would be): each misses the key, generates one and
    // inserts it; the unique index lets one in and the others read the winner back.
    const other = await seedTenant(t.app, 'Other');
    const instances = Array.from(
      { length: 10 },
      () => new SigningKeysService(t.dataSource, t.clock, t.config),
    );
    const raced = await Promise.all(
      instances.map((instance) => instance.ensureActive(other.project.id, 'RS256')),
    );
    expect(new Set(raced.map((k) => k.kid)).size).toBe(1);
    const stored = await t.dataSource
      .getRepository(SigningKey)
      .findBy({ projectId: other.project.id, algorithm: 'RS256' });
    expect(stored.map((k) => [k.kid, k.status, k.tenantId])).toEqual([
      [raced[0].kid, 'active', other.tenantId],
    ]);
    // Every instance holds the same private key.
    const pems = raced.map((k) => k.key.export({ format: 'pem', type: 'pkcs8' }).toString());
    expect(new Set(pems).size).toBe(1);

    // The ES256 key the project was created with is returned, nothing made.
    const [es256] = await rows('ES256');
    expect((await keys.ensureActive(tenant.project.id, 'ES256')).kid).toBe(es256.kid);
    expect(await rows()).toHaveLength(2);
    await expect(
      keys.ensureActive('00000000-0000-4000-8000-000000000000', 'RS256'),
    ).rejects.toThrow(/has no active RS256 signing key/);
    // Eleven RSA 2048 key pairs are generated: seconds on a loaded machine.
  }, 120_000);

  it('activeKey reads the key of the asked algorithm (ES256 by default) and never opens a key as another algorithm', async () => {
    const [es256] = await rows('ES256');
    await expect(keys.activeKey(tenant.project.id, { algorithm: 'RS256' })).rejects.toThrow(
      /no active RS256 signing key/,
    );
    const rsa = await keys.ensureActive(tenant.project.id, 'RS256');
    expect((await keys.activeKey(tenant.project.id)).kid).toBe(es256.kid);
    expect((await keys.activeKey(tenant.project.id, { algorithm: 'RS256' })).kid).toBe(rsa.kid);
    // A kid read elsewhere must be of the algorithm asked for.
    await expect(keys.activeKey(tenant.project.id, { activeKid: rsa.kid })).rejects.toThrow(
      /is RS256, not ES256/,
    );
    // Sessions still start with ES256 tokens signed by the ES256 key (activeKidSql reads the ES256 one).
    const user = await signUpUser(t, key(), 'still-es256@example.com');
    expect(partsOf(user.accessToken)[0]).toEqual({ alg: 'ES256', typ: 'JWT', kid: es256.kid });
    const refreshed = await t
      .http()
      .post('/v1/auth/refresh')
      .set('X-Service-Project-Key', key())
      .set('Cookie', `service_refresh_token=${user.refreshToken}`);
    expect(refreshed.status).toBe(200);
    expect(partsOf(refreshed.body.access_token as string)[0]).toEqual({
      alg: 'ES256',
      typ: 'JWT',
      kid: es256.kid,
    });
  });

  it('privateJwks: the private JWKs of the active and still-verifying keys of both algorithms, active keys first', async () => {
    const rsa = await keys.ensureActive(tenant.project.id, 'RS256');
    const [firstEs256] = await rows('ES256');
    await t.dataSource.transaction((m) =>
      keys.rotate(m, tenant.tenantId, tenant.project.id, 'ES256'),
    );
    const [newEs256] = await rows('ES256');
    const rsaRow = (await rows('RS256'))[0];
    await t.dataSource.transaction((m) =>
      keys.rotate(m, tenant.tenantId, tenant.project.id, 'RS256'),
    );
    const [newRsa] = await rows('RS256');

    const jwks = await keys.privateJwks(tenant.project.id);
    expect(jwks.map((k) => [k.kid, k.alg])).toEqual([
      [newRsa.kid, 'RS256'],
      [newEs256.kid, 'ES256'],
      [rsa.kid, 'RS256'],
      [firstEs256.kid, 'ES256'],
    ]);
    const stored = await rows();
    for (const jwk of jwks) {
      expect(jwk.use).toBe('sig');
      expect(jwk.d).toEqual(expect.any(String));
      if (jwk.alg === 'RS256') for (const name of PRIVATE_MEMBERS) expect(jwk).toHaveProperty(name);
      // Its public members are exactly the published key; it opens to the stored private key.
      const row = stored.find((k) => k.kid === jwk.kid)!;
      expect(publicJwkMembers(jwk as Record<string, unknown>)).toEqual(row.publicJwk);
      expect(
        createPrivateKey({ key: jwk, format: 'jwk' }).export({ format: 'pem', type: 'pkcs8' }),
      ).toBe(
        (
          await keys.activeKey(tenant.project.id, { activeKid: row.kid, algorithm: row.algorithm })
        ).key.export({ format: 'pem', type: 'pkcs8' }),
      );
    }

    // A revoked key and one past its retirement are gone.
    await t.dataSource
      .getRepository(SigningKey)
      .update({ id: rsaRow.id }, { status: 'revoked', revokedAt: new Date() });
    t.clock.advance(86_400_000 + 60_000);
    expect((await keys.privateJwks(tenant.project.id)).map((k) => k.kid)).toEqual([
      newRsa.kid,
      newEs256.kid,
    ]);
  });
});
