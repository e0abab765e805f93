import { randomToken, sha256Hex } from '@gatehouse/crypto';
import {
  ApiKey,
  AuditEvent,
  Invitation,
  Organization,
  OrganizationMember,
  User,
  type MemberRole,
} from '@gatehouse/entities';
import {
  MAX_ACCESS_TOKEN_TTL_SECONDS,
  ProjectsCache,
  SigningKeysService,
} from '@gatehouse/identity';
import {
  eventually,
  expectProblem,
  nextIp,
  seedTenant,
  signUpUser,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildAuthRuntime } from '../src/app-factory';

describe('runtime: API key secrets as project keys, rotated keys in jwks.json, and invitation acceptance', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  const key = () => tenant.projectKey;

  beforeAll(async () => {
    t = await startTestApp(buildAuthRuntime, { TRUST_PROXY: 'loopback' });
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
  });
  afterAll(() => t.close());

  describe('sk_ API keys', () => {
    async function apiKey(): Promise<{ secret: string; row: ApiKey }> {
      const secret = randomToken(32, 'sk_');
      const row = await t.dataSource.getRepository(ApiKey).save({
        tenantId: tenant.tenantId,
        projectId: tenant.project.id,
        name: 'server',
        keyPrefix: secret.slice(0, 11),
        secretHash: sha256Hex(secret),
      });
      return { secret, row };
    }

    it('a live API key secret works as the project key; a revoked one is refused at once', async () => {
      const { secret, row } = await apiKey();
      const jwks = await t.http().get('/v1/auth/jwks.json').set('X-Service-Project-Key', secret);
      expect(jwks.status).toBe(200);
      expect(jwks.body.keys).toHaveLength(1);
      const signUp = await t
        .http()
        .post('/v1/auth/sign-up')
        .set('X-Service-Project-Key', secret)
        .set('X-Forwarded-For', nextIp())
        .send({ email: 'server-made@example.com', password: 'a sturdy passphrase 42' });
      expect(signUp.status).toBe(201);
      expect(
        (await t.dataSource.getRepository(User).findOneByOrFail({ id: signUp.body.user.id }))
          .projectId,
      ).toBe(tenant.project.id);

      // What the control plane does on DELETE: mark the row revoked, then drop the cached entry by hash.
      await t.dataSource.getRepository(ApiKey).update({ id: row.id }, { revokedAt: new Date() });
      await t.app.get(ProjectsCache).invalidateApiKeyHash(row.secretHash);
      expectProblem(
        await t.http().get('/v1/auth/jwks.json').set('X-Service-Project-Key', secret),
        401,
        'unauthenticated',
        '/v1/auth/jwks.json',
      );
      expectProblem(
        await t
          .http()
          .get('/v1/auth/jwks.json')
          .set('X-Service-Project-Key', randomToken(32, 'sk_')),
        401,
        'unauthenticated',
      );
    });

    it('records when an API key secret was last used, by guarded routes, /me and refresh alike', async () => {
      const lastUsed = async (id: string) =>
        (await t.dataSource.getRepository(ApiKey).findOneByOrFail({ id })).lastUsedAt;
      const u = await signUpUser(t, key(), 'usage@example.com');
      const uses: [string, (secret: string) => Promise<{ status: number }>][] = [
        [
          'jwks',
          (secret) => t.http().get('/v1/auth/jwks.json').set('X-Service-Project-Key', secret),
        ],
        [
          'me',
          (secret) =>
            t
              .http()
              .get('/v1/auth/me')
              .set('X-Service-Project-Key', secret)
              .set('Authorization', `Bearer ${u.accessToken}`),
        ],
        [
          'refresh',
          (secret) =>
            t
              .http()
              .post('/v1/auth/refresh')
              .set('X-Service-Project-Key', secret)
              .set('Cookie', `service_refresh_token=${u.refreshToken}`),
        ],
      ];
      for (const [name, use] of uses) {
        const { secret, row } = await apiKey();
        expect(await lastUsed(row.id)).toBeNull();
        expect([name, (await use(secret)).status]).toEqual([name, 200]);
        await eventually(async () => (await lastUsed(row.id)) !== null);
      }
    });

    it("refreshes with a live API key of the session's project; a revoked key rotates nothing", async () => {
      const { secret, row } = await apiKey();
      const u = await signUpUser(t, key(), 'refresh-by-secret@example.com');
      const refresh = (token: string) =>
        t
          .http()
          .post('/v1/auth/refresh')
          .set('X-Service-Project-Key', secret)
          .set('Cookie', `service_refresh_token=${token}`);
      const first = await refresh(u.refreshToken);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ access_token: expect.any(String), expires_in: 900 });
      const next =
        /service_refresh_token=([^;]+)/.exec(String(first.headers['set-cookie']))?.[1] ?? '';
      await t.dataSource.getRepository(ApiKey).update({ id: row.id }, { revokedAt: new Date() });
      expectProblem(await refresh(next), 401, 'unauthenticated');
      const stillCurrent = await t
        .http()
        .post('/v1/auth/refresh')
        .set('X-Service-Project-Key', key())
        .set('Cookie', `service_refresh_token=${next}`);
      expect(stillCurrent.status).toBe(200);
      // Rotated exactly twice: the revoked key's attempt did not move the chain.
      const chain = await t.dataSource.query(
        `SELECT generation FROM refresh_chains WHERE session_id = $1`,
        [u.sessionId],
      );
      expect(chain).toEqual([{ generation: 2 }]);
    });

    it("/me shows the user for a live API key of the token's project, and null once the key is revoked", async () => {
      const { secret, row } = await apiKey();
      const u = await signUpUser(t, key(), 'me-by-secret@example.com');
      const me = () =>
        t
          .http()
          .get('/v1/auth/me')
          .set('X-Service-Project-Key', secret)
          .set('Authorization', `Bearer ${u.accessToken}`);
      expect((await me()).body).toEqual({
        user: { id: u.id, email: 'me-by-secret@example.com', is_admin: false, mfa_factors: [] },
        active_sessions: 1,
        organizations: [],
        active_organization: null,
      });
      // A key of another project (the console's live secret) never shows this project's user.
      const foreign = randomToken(32, 'sk_');
      await t.dataSource.getRepository(ApiKey).save({
        tenantId: tenant.tenantId,
        projectId: tenant.consoleProjectId,
        name: 'console',
        keyPrefix: foreign.slice(0, 11),
        secretHash: sha256Hex(foreign),
      });
      expect(
        (
          await t
            .http()
            .get('/v1/auth/me')
            .set('X-Service-Project-Key', foreign)
            .set('Authorization', `Bearer ${u.accessToken}`)
        ).body,
      ).toEqual({ user: null });
      await t.dataSource.getRepository(ApiKey).update({ id: row.id }, { revokedAt: new Date() });
      expect((await me()).body).toEqual({ user: null });
    });
  });

  it('serves the active and the retiring key after a rotation; tokens of the old key keep working until it retires', async () => {
    const u = await signUpUser(t, key(), 'rot@example.com');
    const keys = t.app.get(SigningKeysService);
    await t.dataSource.transaction((m) => keys.rotate(m, tenant.tenantId, tenant.project.id));
    const jwks = await t.http().get('/v1/auth/jwks.json').set('X-Service-Project-Key', key());
    expect(jwks.body.keys).toHaveLength(2);
    const sessions = await t
      .http()
      .get('/v1/auth/sessions')
      .set('X-Service-Project-Key', key())
      .set('Authorization', `Bearer ${u.accessToken}`);
    expect(sessions.status).toBe(200);
    t.clock.advance((MAX_ACCESS_TOKEN_TTL_SECONDS + 60) * 1000);
    expect(
      (await t.http().get('/v1/auth/jwks.json').set('X-Service-Project-Key', key())).body.keys,
    ).toHaveLength(1);
  });

  describe('POST /v1/auth/invitations/accept', () => {
    let orgId: string;

    beforeEach(async () => {
      orgId = (
        await t.dataSource.getRepository(Organization).save({
          tenantId: tenant.tenantId,
          projectId: tenant.project.id,
          name: 'Team',
          slug: 'team',
          metadata: {},
        })
      ).id;
    });

    async function invitation(
      email: string,
      role: MemberRole = 'member',
      organizationId = orgId,
    ): Promise<{ token: string; id: string }> {
      const token = randomToken(32);
      const row = await t.dataSource.getRepository(Invitation).save({
        tenantId: tenant.tenantId,
        organizationId,
        email,
        role,
        tokenHash: sha256Hex(token),
        invitedBy: tenant.adminUserId,
        expiresAt: new Date(t.clock.nowMs() + 7 * 86_400_000),
      });
      return { token, id: row.id };
    }

    const accept = (accessToken: string | null, body: object, projectKey = key()) => {
      const req = t
        .http()
        .post('/v1/auth/invitations/accept')
        .set('X-Service-Project-Key', projectKey);
      return (accessToken ? req.set('Authorization', `Bearer ${accessToken}`) : req).send(body);
    };

    it('makes the signed-in invitee a member and records who accepted', async () => {
      const inv = await invitation('Ada@Example.com', 'admin');
      const u = await signUpUser(t, key(), 'ada@example.com');
      const res = await accept(u.accessToken, { token: inv.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ organization: { id: orgId, name: 'Team' }, role: 'admin' });
      expect(
        await t.dataSource
          .getRepository(OrganizationMember)
          .findOneByOrFail({ organizationId: orgId, userId: u.id }),
      ).toMatchObject({ role: 'admin', tenantId: tenant.tenantId });
      expect(
        await t.dataSource.getRepository(Invitation).findOneByOrFail({ id: inv.id }),
      ).toMatchObject({ status: 'accepted', acceptedAt: expect.any(Date) });
      const audit = await t.dataSource.getRepository(AuditEvent).find({ where: { actorId: u.id } });
      expect(
        audit
          .map((e) => [e.action, e.actorType, e.projectId])
          .filter(([a]) => a !== 'user.created' && a !== 'session.created')
          .sort(),
      ).toEqual([
        ['invitation.accepted', 'user', tenant.project.id],
        ['organization.member.added', 'user', tenant.project.id],
      ]);
      const me = await t
        .http()
        .get('/v1/auth/me')
        .set('X-Service-Project-Key', key())
        .set('Authorization', `Bearer ${u.accessToken}`);
      expect(me.body.organizations).toEqual([{ id: orgId, name: 'Team', role: 'admin' }]);
      expectProblem(
        await accept(u.accessToken, { token: inv.token }),
        400,
        'invalid-token',
        '/v1/auth/invitations/accept',
      );
    });

    it('requires a project key and a session', async () => {
      const inv = await invitation('x@example.com');
      expectProblem(await accept(null, { token: inv.token }), 401, 'unauthenticated');
      expectProblem(
        await t.http().post('/v1/auth/invitations/accept').send({ token: inv.token }),
        401,
        'unauthenticated',
      );
      const u = await signUpUser(t, key(), 'x@example.com');
      expectProblem(
        await accept(u.accessToken, { token: inv.token }, tenant.consoleKey),
        401,
        'unauthenticated',
      );
      expect(
        (await t.dataSource.getRepository(Invitation).findOneByOrFail({ id: inv.id })).status,
      ).toBe('pending');
    });

    it('refuses another email with 403 and keeps the invitation usable', async () => {
      const inv = await invitation('invited@example.com');
      const other = await signUpUser(t, key(), 'other@example.com');
      expectProblem(
        await accept(other.accessToken, { token: inv.token }),
        403,
        'forbidden',
        '/v1/auth/invitations/accept',
      );
      expect(
        (await t.dataSource.getRepository(Invitation).findOneByOrFail({ id: inv.id })).status,
      ).toBe('pending');
      expect(
        await t.dataSource.getRepository(OrganizationMember).countBy({ organizationId: orgId }),
      ).toBe(0);
    });

    it("answers invalid-token for unknown, malformed, expired, revoked and other projects' invitations", async () => {
      const u = await signUpUser(t, key(), 'tok@example.com');
      for (const token of [randomToken(32), 'short', 'x'.repeat(43), "' OR 1=1 --"]) {
        expectProblem(await accept(u.accessToken, { token }), 400, 'invalid-token');
      }
      const revoked = await invitation('tok@example.com');
      await t.dataSource
        .getRepository(Invitation)
        .update({ id: revoked.id }, { status: 'revoked', revokedAt: new Date() });
      expectProblem(await accept(u.accessToken, { token: revoked.token }), 400, 'invalid-token');

      const consoleOrg = await t.dataSource.getRepository(Organization).save({
        tenantId: tenant.tenantId,
        projectId: tenant.consoleProjectId,
        name: 'Ops',
        slug: 'ops',
        metadata: {},
      });
      const elsewhere = await invitation('tok@example.com', 'member', consoleOrg.id);
      expectProblem(await accept(u.accessToken, { token: elsewhere.token }), 400, 'invalid-token');

      const expiring = await invitation('tok@example.com');
      t.clock.advance(7 * 86_400_000 + 1000);
      // The invitee's own token was issued before the clock moved; sign in again for a live one.
      const signIn = await t
        .http()
        .post('/v1/auth/sign-in')
        .set('X-Service-Project-Key', key())
        .set('X-Forwarded-For', nextIp())
        .send({ identifier: 'tok@example.com', password: u.password });
      expectProblem(
        await accept(signIn.body.session.access_token, { token: expiring.token }),
        400,
        'invalid-token',
      );
      expect(await t.dataSource.getRepository(OrganizationMember).count()).toBe(0);
    });

    it('validates the body', async () => {
      const u = await signUpUser(t, key(), 'body@example.com');
      for (const body of [
        {},
        { token: 5 },
        { token: '' },
        { token: 'x', organization_id: orgId },
      ]) {
        expectProblem(await accept(u.accessToken, body), 400, 'validation-error');
      }
    });

    it('is single-use under concurrent accepts', async () => {
      const inv = await invitation('race@example.com');
      const u = await signUpUser(t, key(), 'race@example.com');
      const results = await Promise.all(
        Array.from({ length: 8 }, () => accept(u.accessToken, { token: inv.token })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
      expect(
        await t.dataSource.getRepository(OrganizationMember).countBy({ organizationId: orgId }),
      ).toBe(1);
      expect(
        await t.dataSource.getRepository(AuditEvent).countBy({ action: 'invitation.accepted' }),
      ).toBe(1);
    });

    it('never demotes an existing member; an admin invitation promotes one', async () => {
      const admin = await signUpUser(t, key(), 'boss@example.com');
      const member = await signUpUser(t, key(), 'crew@example.com');
      await t.dataSource.getRepository(OrganizationMember).save([
        { organizationId: orgId, userId: admin.id, tenantId: tenant.tenantId, role: 'admin' },
        { organizationId: orgId, userId: member.id, tenantId: tenant.tenantId, role: 'member' },
      ]);
      const down = await invitation('boss@example.com', 'member');
      const up = await invitation('crew@example.com', 'admin');
      expect((await accept(admin.accessToken, { token: down.token })).body).toEqual({
        organization: { id: orgId, name: 'Team' },
        role: 'admin',
      });
      expect((await accept(member.accessToken, { token: up.token })).body).toEqual({
        organization: { id: orgId, name: 'Team' },
        role: 'admin',
      });
      const roles = await t.dataSource
        .getRepository(OrganizationMember)
        .findBy({ organizationId: orgId });
      expect(roles.map((r) => r.role)).toEqual(['admin', 'admin']);
      expect(
        await t.dataSource
          .getRepository(AuditEvent)
          .countBy({ action: 'organization.member.updated' }),
      ).toBe(1);
      expect(
        await t.dataSource
          .getRepository(AuditEvent)
          .countBy({ action: 'organization.member.added' }),
      ).toBe(0);
    });
  });
});
