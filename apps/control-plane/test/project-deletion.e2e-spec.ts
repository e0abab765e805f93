import { AccessTokensService } from '@gatehouse/identity';
import { AuditEvent, OutboxEvent, Project } from '@gatehouse/entities';
import {
  createUser,
  expectProblem,
  mintAccessToken,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

/** 32 s past the console project's default `reauthentication_max_age_seconds` (600 s); the access token (900 s) is still valid. */
const AGED_MS = 632_000;

/**
 * docs/api-contract.md §13, delete a project (★): 204 with its users, keys, clients and sessions, whose
 * tokens are refused at once; the console project cannot be deleted (409); a stale proof or
 * another tenant's admin changes nothing.
 */
describe('admin: delete a project', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let token: string;
  const as = (bearer = token) => ({ Authorization: `Bearer ${bearer}` });
  const counts = async (projectId: string) => {
    const [row] = await t.dataSource.query<Record<string, number>[]>(
      `SELECT (SELECT count(*)::int FROM projects WHERE id = $1) AS projects,
              (SELECT count(*)::int FROM users WHERE project_id = $1) AS users,
              (SELECT count(*)::int FROM sessions WHERE project_id = $1) AS sessions,
              (SELECT count(*)::int FROM signing_keys WHERE project_id = $1) AS signing_keys,
              (SELECT count(*)::int FROM api_keys WHERE project_id = $1) AS api_keys,
              (SELECT count(*)::int FROM oauth_clients WHERE project_id = $1) AS oauth_clients`,
      [projectId],
    );
    return row;
  };

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane);
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
  });
  afterAll(() => t.close());

  /** The seeded application project with a user and their session, an API key and an OAuth client. */
  async function populated() {
    const user = await createUser(t.app, tenant.project, 'member@example.com');
    const session = await mintAccessToken(t.app, user.id);
    expect(
      (
        await t
          .http()
          .post(`/v1/admin/projects/${tenant.project.id}/api-keys`)
          .set(as())
          .send({ name: 'backend' })
      ).status,
    ).toBe(201);
    expect(
      (
        await t
          .http()
          .post(`/v1/admin/projects/${tenant.project.id}/oauth-clients`)
          .set(as())
          .send({ name: 'RP', redirect_uris: ['https://rp.example.com/cb'] })
      ).status,
    ).toBe(201);
    expect(await counts(tenant.project.id)).toEqual({
      projects: 1,
      users: 1,
      sessions: 1,
      signing_keys: 1,
      api_keys: 1,
      oauth_clients: 1,
    });
    return { user, session };
  }

  it('deletes the project with its users, keys, clients and sessions (204); its tokens are refused at once; project.deleted', async () => {
    const { user, session } = await populated();
    expect(await t.app.get(AccessTokensService).verify(session.token)).not.toBeNull();
    const res = await t.http().delete(`/v1/admin/projects/${tenant.project.id}`).set(as());
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await counts(tenant.project.id)).toEqual({
      projects: 0,
      users: 0,
      sessions: 0,
      signing_keys: 0,
      api_keys: 0,
      oauth_clients: 0,
    });
    expect(await t.app.get(AccessTokensService).verify(session.token)).toBeNull();
    const [event] = await t.dataSource
      .getRepository(AuditEvent)
      .findBy({ action: 'project.deleted' });
    expect(event).toMatchObject({
      tenantId: tenant.tenantId,
      projectId: tenant.project.id,
      actorType: 'admin',
      actorId: tenant.adminUserId,
      resourceType: 'project',
      resourceId: tenant.project.id,
    });
    expect(event.metadata).toEqual({
      project: { id: tenant.project.id, name: 'Acme App' },
      users: 1,
      sessions_revoked: 1,
    });
    expect(await t.dataSource.getRepository(OutboxEvent).countBy({ type: 'project.deleted' })).toBe(
      1,
    );
    expectProblem(
      await t.http().get(`/v1/admin/projects/${tenant.project.id}`).set(as()),
      404,
      'not-found',
    );
    expectProblem(await t.http().get(`/v1/admin/users/${user.id}`).set(as()), 404, 'not-found');
    expectProblem(
      await t.http().delete(`/v1/admin/projects/${tenant.project.id}`).set(as()),
      404,
      'not-found',
    );
    // The console project and the admin are untouched.
    expect(
      (await t.http().get(`/v1/admin/projects/${tenant.consoleProjectId}`).set(as())).status,
    ).toBe(200);
  });

  it("refuses the console project (409 conflict), an unknown or malformed id and another tenant's project (404); nothing is deleted", async () => {
    expectProblem(
      await t.http().delete(`/v1/admin/projects/${tenant.consoleProjectId}`).set(as()),
      409,
      'conflict',
      `/v1/admin/projects/${tenant.consoleProjectId}`,
    );
    expectProblem(
      await t.http().delete('/v1/admin/projects/00000000-0000-0000-0000-000000000000').set(as()),
      404,
      'not-found',
    );
    expectProblem(
      await t.http().delete('/v1/admin/projects/not-an-id').set(as()),
      404,
      'not-found',
    );
    const other = await seedTenant(t.app, 'Other');
    const otherToken = (await mintAccessToken(t.app, other.adminUserId)).token;
    await populated();
    expectProblem(
      await t.http().delete(`/v1/admin/projects/${tenant.project.id}`).set(as(otherToken)),
      404,
      'not-found',
      `/v1/admin/projects/${tenant.project.id}`,
    );
    expect(await counts(tenant.project.id)).toEqual({
      projects: 1,
      users: 1,
      sessions: 1,
      signing_keys: 1,
      api_keys: 1,
      oauth_clients: 1,
    });
    expect(await t.dataSource.getRepository(Project).countBy({ id: tenant.consoleProjectId })).toBe(
      1,
    );
    expect(
      await t.dataSource.getRepository(AuditEvent).countBy({ action: 'project.deleted' }),
    ).toBe(0);
  });

  it('a stale admin token is refused (403 reauthentication-required) and nothing is deleted', async () => {
    const { session } = await populated();
    t.clock.advance(AGED_MS);
    const path = `/v1/admin/projects/${tenant.project.id}`;
    const res = await t.http().delete(path).set(as());
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      type: 'https://gatehouse.dev/problems/reauthentication-required',
      title: 'Reauthentication Required',
      status: 403,
      detail:
        'This action needs a recent proof of identity; re-authenticate with POST /v1/auth/reauthenticate and try again.',
      instance: path,
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      max_age_seconds: 600,
    });
    expect(await counts(tenant.project.id)).toEqual({
      projects: 1,
      users: 1,
      sessions: 1,
      signing_keys: 1,
      api_keys: 1,
      oauth_clients: 1,
    });
    expect(await t.app.get(AccessTokensService).verify(session.token)).not.toBeNull();
    expect(
      await t.dataSource.getRepository(AuditEvent).countBy({ action: 'project.deleted' }),
    ).toBe(0);
  });

  it('project.updated carries data.changes: from/to of plain fields, only "changed" for settings holding secrets', async () => {
    const res = await t
      .http()
      .patch(`/v1/admin/projects/${tenant.project.id}`)
      .set(as())
      .send({
        name: 'Renamed',
        settings: {
          access_token_ttl_seconds: 600,
          oauth_providers: {
            github: { enabled: true, client_id: 'id', client_secret: 'shh-secret' },
          },
        },
      });
    expect(res.status).toBe(200);
    const [event] = await t.dataSource
      .getRepository(AuditEvent)
      .findBy({ action: 'project.updated' });
    expect(event.metadata).toMatchObject({
      changes: {
        name: { from: 'Acme App', to: 'Renamed' },
        'settings.access_token_ttl_seconds': { from: null, to: 600 },
        'settings.oauth_providers': { changed: true },
      },
    });
    expect(JSON.stringify(event.metadata)).not.toContain('shh-secret');
  });
});
