import { AuditEvent, SigningKey } from '@gatehouse/entities';
import { AccessTokensService, MAX_ACCESS_TOKEN_TTL_SECONDS, SigningKeysService } from '@gatehouse/identity';
import { expectProblem, mintAccessToken, seedTenant, startTestApp, type SeededTenant, type TestApp } from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

describe('admin signing keys: list and rotate', () => {
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
