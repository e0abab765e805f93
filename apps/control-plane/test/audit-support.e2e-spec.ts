import { randomUUID } from 'node:crypto';
import {
  expectProblem,
  mintAccessToken,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

/**
 * docs/api-contract.md §13, "what happened to a user": the audit log filters by `user_id` (actor or resource),
 * `actor_id`, `project_id` and an action prefix (`user.*`); every event carries `data`; the export
 * streams every matching event as CSV or NDJSON without paging. Only the admin's tenant is ever read.
 */
describe('audit: support filters, data, export', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let other: SeededTenant;
  let token: string;
  let otherToken: string;
  const get = (path: string, bearer = token) =>
    t.http().get(path).set('Authorization', `Bearer ${bearer}`);
  const actions = (body: { events: { action: string }[] }) => body.events.map((e) => e.action);

  /** Writes one audit event as the recorder would (only the columns the query reads). */
  async function event(e: {
    tenantId?: string;
    projectId?: string | null;
    actorType?: string;
    actorId?: string | null;
    action: string;
    resourceType?: string;
    resourceId?: string | null;
    data?: object;
    userAgent?: string;
    at?: string;
  }) {
    await t.dataSource.query(
      `INSERT INTO audit_events (tenant_id, project_id, actor_type, actor_id, action, resource_type, resource_id, user_agent, metadata, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, COALESCE($10::timestamptz, now()))`,
      [
        e.tenantId ?? tenant.tenantId,
        e.projectId === undefined ? tenant.project.id : e.projectId,
        e.actorType ?? 'admin',
        e.actorId ?? null,
        e.action,
        e.resourceType ?? 'user',
        e.resourceId ?? null,
        e.userAgent ?? null,
        JSON.stringify(e.data ?? {}),
        e.at ?? null,
      ],
    );
  }

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane);
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    other = await seedTenant(t.app, 'Other');
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
    otherToken = (await mintAccessToken(t.app, other.adminUserId)).token;
    await t.dataSource.query(`DELETE FROM audit_events`);
  });
  afterAll(() => t.close());

  it('filters by user_id (actor or resource), actor_id, project_id and action prefix; each event carries data', async () => {
    const ada = randomUUID();
    const bob = randomUUID();
    await event({
      action: 'user.sign_in_failed',
      actorType: 'user',
      actorId: ada,
      resourceId: ada,
      data: { reason: 'invalid_credentials' },
      at: '2026-11-01T10:00:00Z',
    });
    await event({
      action: 'user.updated',
      actorId: tenant.adminUserId,
      resourceId: ada,
      data: { changes: { email_verified: { from: false, to: true } } },
      at: '2026-11-01T11:00:00Z',
    });
    await event({
      action: 'session.created',
      actorType: 'user',
      actorId: ada,
      resourceType: 'session',
      resourceId: randomUUID(),
      at: '2026-11-01T12:00:00Z',
    });
    await event({
      action: 'user.created',
      actorId: tenant.adminUserId,
      resourceId: bob,
      at: '2026-11-01T13:00:00Z',
    });
    await event({
      action: 'users.imported',
      actorId: tenant.adminUserId,
      resourceType: 'project',
      resourceId: tenant.project.id,
      data: { counts: { created: 2 } },
      at: '2026-11-01T14:00:00Z',
    });
    await event({
      action: 'project.updated',
      projectId: tenant.consoleProjectId,
      actorId: tenant.adminUserId,
      resourceType: 'project',
      resourceId: tenant.consoleProjectId,
      at: '2026-11-01T15:00:00Z',
    });
    // Another tenant's event about the same user id never shows.
    await event({
      tenantId: other.tenantId,
      projectId: other.project.id,
      action: 'user.updated',
      actorId: ada,
      resourceId: ada,
    });

    const byUser = await get(`/v1/admin/audit?user_id=${ada}`);
    expect(byUser.status).toBe(200);
    expect(actions(byUser.body)).toEqual([
      'session.created',
      'user.updated',
      'user.sign_in_failed',
    ]);
    expect(byUser.body.pagination).toEqual({ page: 1, limit: 20, total: 3 });
    expect(byUser.body.events[1]).toEqual({
      id: expect.any(String),
      actor_type: 'admin',
      actor_id: tenant.adminUserId,
      action: 'user.updated',
      resource_type: 'user',
      resource_id: ada,
      project_id: tenant.project.id,
      ip_address: null,
      user_agent: null,
      created_at: '2026-11-01T11:00:00.000Z',
      data: { changes: { email_verified: { from: false, to: true } } },
    });
    expect(byUser.body.events[2].data).toEqual({ reason: 'invalid_credentials' });
    expect(byUser.body.events[0].data).toEqual({});

    expect(actions((await get(`/v1/admin/audit?actor_id=${ada}`)).body)).toEqual([
      'session.created',
      'user.sign_in_failed',
    ]);
    expect(actions((await get(`/v1/admin/audit?actor_id=${tenant.adminUserId}`)).body)).toEqual([
      'project.updated',
      'users.imported',
      'user.created',
      'user.updated',
    ]);
    expect(
      actions((await get(`/v1/admin/audit?project_id=${tenant.consoleProjectId}`)).body),
    ).toEqual(['project.updated']);
    expect(actions((await get('/v1/admin/audit?action=user.*')).body)).toEqual([
      'user.created',
      'user.updated',
      'user.sign_in_failed',
    ]);
    expect(actions((await get('/v1/admin/audit?action=users.*')).body)).toEqual(['users.imported']);
    expect(
      actions(
        (await get(`/v1/admin/audit?action=user.*&user_id=${ada}&end_date=2026-11-01T10:30:00Z`))
          .body,
      ),
    ).toEqual(['user.sign_in_failed']);
    // The prefix is literal (`_` is no wildcard), and another tenant's project is nobody's.
    expect(actions((await get('/v1/admin/audit?action=use_.*')).body)).toEqual([]);
    expect((await get(`/v1/admin/audit?project_id=${other.project.id}`)).body.events).toEqual([]);
    expect((await get('/v1/admin/audit?project_id=not-an-id')).body).toEqual({
      events: [],
      pagination: { page: 1, limit: 20, total: 0 },
    });
    expect(actions((await get(`/v1/admin/audit?user_id=${ada}`, otherToken)).body)).toEqual([
      'user.updated',
    ]);
  });

  it('organization.updated carries data.changes of what changed, shown as the event data', async () => {
    const org = await t
      .http()
      .post('/v1/admin/organizations')
      .set('Authorization', `Bearer ${token}`)
      .send({ project_id: tenant.project.id, name: 'Team', slug: 'team' });
    expect(org.status).toBe(201);
    const res = await t
      .http()
      .patch(`/v1/admin/organizations/${org.body.id}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ name: 'Team B', slug: 'team', metadata: { tier: 'gold' } });
    expect(res.status).toBe(200);
    const list = await get(`/v1/admin/audit?action=organization.*&actor_id=${tenant.adminUserId}`);
    expect(actions(list.body)).toEqual(['organization.updated', 'organization.created']);
    expect(list.body.events[0].data.changes).toEqual({
      name: { from: 'Team', to: 'Team B' },
      metadata: { from: {}, to: { tier: 'gold' } },
    });
  });

  it('refuses malformed filters with 400 validation-error naming each', async () => {
    const cases: [string, string[]][] = [
      ['action=user*', ['action']],
      ['action=*', ['action']],
      ['action=user.*.*', ['action']],
      ['user_id=a&user_id=b', ['user_id']],
      ['actor_id=' + 'x'.repeat(65), ['actor_id']],
      ['project_id=' + 'x'.repeat(65), ['project_id']],
      ['user_id=a&user_id=b&start_date=yesterday', ['start_date', 'user_id']],
    ];
    for (const [q, fields] of cases) {
      for (const path of ['/v1/admin/audit', '/v1/admin/audit/export']) {
        const problem = expectProblem(
          await get(`${path}?format=csv&${q}`),
          400,
          'validation-error',
          path,
        );
        expect({ path, q, fields: Object.keys(problem.errors as object).sort() }).toEqual({
          path,
          q,
          fields,
        });
      }
    }
    for (const q of ['', 'format=xml', 'format=CSV', 'format[]=csv']) {
      const problem = expectProblem(
        await get(`/v1/admin/audit/export?${q}`),
        400,
        'validation-error',
        '/v1/admin/audit/export',
      );
      expect(problem.errors).toEqual({ format: [expect.any(String)] });
    }
    for (const q of ['user_id=%00', "actor_id=' OR 1=1 --", 'action=%25.*', 'user_id=%ED%A0%80']) {
      expect((await get(`/v1/admin/audit?${q}`)).status).toBeLessThan(500);
      expect((await get(`/v1/admin/audit/export?format=ndjson&${q}`)).status).toBeLessThan(500);
    }
  });

  it("exports every matching event as NDJSON, newest first, past any page size (events of one instant included), and only the tenant's", async () => {
    await t.dataSource.query(
      `INSERT INTO audit_events (tenant_id, project_id, actor_type, action, resource_type, metadata, created_at)
       SELECT $1, $2, 'system', 'user.sign_in_failed', 'user', jsonb_build_object('n', i), '2026-11-02T00:00:00Z'::timestamptz + (i / 3) * interval '1 microsecond'
         FROM generate_series(1, 1203) AS i`,
      [tenant.tenantId, tenant.project.id],
    );
    await event({ action: 'session.created', at: '2026-11-03T00:00:00Z' });
    await event({
      tenantId: other.tenantId,
      projectId: other.project.id,
      action: 'user.sign_in_failed',
    });
    const res = await get('/v1/admin/audit/export?format=ndjson&action=user.*');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="audit-${tenant.tenantId}.ndjson"`,
    );
    const lines = res.text
      .trimEnd()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as { id: string; action: string; created_at: string; data: { n: number } },
      );
    expect(lines).toHaveLength(1203);
    expect(new Set(lines.map((l) => l.id)).size).toBe(1203);
    expect(new Set(lines.map((l) => l.data.n)).size).toBe(1203);
    expect(lines.every((l) => l.action === 'user.sign_in_failed')).toBe(true);
    const times = lines.map((l) => l.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(Object.keys(lines[0]).sort()).toEqual([
      'action',
      'actor_id',
      'actor_type',
      'created_at',
      'data',
      'id',
      'ip_address',
      'project_id',
      'resource_id',
      'resource_type',
      'user_agent',
    ]);
    // Another tenant's admin exports only theirs.
    const theirs = await get('/v1/admin/audit/export?format=ndjson', otherToken);
    expect(theirs.text.trimEnd().split('\n')).toHaveLength(1);
    // Nothing matching: an empty body.
    expect((await get('/v1/admin/audit/export?format=ndjson&action=nothing.*')).text).toBe('');
  });

  it('exports CSV with a header, quoted fields and formula-looking values defused', async () => {
    const user = { id: randomUUID() };
    await event({
      action: 'user.updated',
      actorId: tenant.adminUserId,
      resourceId: user.id,
      userAgent: '=HYPERLINK("http://evil.example")',
      data: { changes: { metadata: { from: {}, to: { note: 'a,b\n"c"' } } } },
      at: '2026-11-04T00:00:00Z',
    });
    await event({
      action: 'user.created',
      actorId: tenant.adminUserId,
      resourceId: user.id,
      userAgent: 'curl/8, plain',
      at: '2026-11-03T00:00:00Z',
    });
    const res = await get(`/v1/admin/audit/export?format=csv&user_id=${user.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = res.text.split('\r\n');
    expect(rows[0]).toBe(
      'id,created_at,action,actor_type,actor_id,resource_type,resource_id,project_id,ip_address,user_agent,data',
    );
    expect(rows).toHaveLength(4);
    expect(rows[3]).toBe('');
    expect(rows[1]).toMatch(
      new RegExp(
        `^[0-9a-f-]{36},2026-11-04T00:00:00\\.000Z,user\\.updated,admin,${tenant.adminUserId},user,${user.id},${tenant.project.id},,`,
      ),
    );
    expect(rows[1]).toContain(`,"'=HYPERLINK(""http://evil.example"")",`);
    expect(rows[1]).toContain(
      `"{""changes"":{""metadata"":{""to"":{""note"":""a,b\\n\\""c\\""""},""from"":{}}}}"`,
    );
    expect(rows[2]).toContain(',"curl/8, plain",{}');
  });
});
