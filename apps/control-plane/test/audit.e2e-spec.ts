import { AuditEvent } from '@gatehouse/entities';
import {
  expectProblem,
  mintAccessToken,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildControlPlane } from '../src/app-factory';

describe('admin audit log query', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let token: string;
  const auth = () => ({ Authorization: `Bearer ${token}` });
  const query = (qs: string) => t.http().get(`/v1/admin/audit${qs}`).set(auth());
  const actions = (body: { events: { action: string }[] }) => body.events.map((e) => e.action);

  beforeAll(async () => {
    t = await startTestApp(buildControlPlane, { TRUST_PROXY: 'loopback' });
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
    token = (await mintAccessToken(t.app, tenant.adminUserId)).token;
    // Seeding wrote user.created events; start each test from a known log.
    await t.dataSource.getRepository(AuditEvent).clear();
  });
  afterAll(() => t.close());

  async function at(iso: string, action: string, tenantId = tenant.tenantId): Promise<AuditEvent> {
    return t.dataSource.getRepository(AuditEvent).save({
      tenantId,
      projectId: tenant.project.id,
      actorType: 'user',
      actorId: 'u1',
      action,
      resourceType: 'user',
      resourceId: 'u1',
      ipAddress: '198.51.100.1',
      userAgent: 'ua',
      metadata: {},
      createdAt: new Date(iso),
    });
  }

  it('shows an admin mutation with actor, IP and user agent in the documented shape', async () => {
    await t
      .http()
      .post('/v1/admin/projects')
      .set(auth())
      .set('X-Forwarded-For', '203.0.113.9')
      .set('User-Agent', 'console/2')
      .send({ name: 'Audited' });
    const res = await query('');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      events: [
        {
          id: expect.any(String),
          actor_type: 'admin',
          actor_id: tenant.adminUserId,
          action: 'project.created',
          resource_type: 'project',
          resource_id: expect.any(String),
          project_id: expect.any(String),
          ip_address: '203.0.113.9',
          user_agent: 'console/2',
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          data: { project: { id: expect.any(String), name: 'Audited' } },
        },
      ],
      pagination: { page: 1, limit: 20, total: 1 },
    });
  });

  it('filters by date bounds: a date covers the whole UTC day and the end date is inclusive', async () => {
    await at('2025-02-28T23:59:59.999Z', 'e.before');
    await at('2025-03-01T00:00:00.000Z', 'e.first');
    await at('2025-03-01T12:00:00.000Z', 'e.noon');
    await at('2025-03-01T23:59:59.999Z', 'e.last');
    await at('2025-03-02T00:00:00.000Z', 'e.next');

    expect(actions((await query('?start_date=2025-03-01&end_date=2025-03-01')).body)).toEqual([
      'e.last',
      'e.noon',
      'e.first',
    ]);
    expect(actions((await query('?start_date=2025-03-01')).body)).toEqual([
      'e.next',
      'e.last',
      'e.noon',
      'e.first',
    ]);
    expect(actions((await query('?end_date=2025-02-28')).body)).toEqual(['e.before']);
    expect(
      actions((await query('?start_date=2025-03-01T12:00:00Z&end_date=2025-03-02T00:00:00Z')).body),
    ).toEqual(['e.next', 'e.last', 'e.noon']);
    expect(
      actions(
        (
          await query(
            `?start_date=${encodeURIComponent('2025-03-01T13:00:00+01:00')}&end_date=2025-03-01T12:00:00.000Z`,
          )
        ).body,
      ),
    ).toEqual(['e.noon']);
    expect((await query('?start_date=2025-03-03')).body).toEqual({
      events: [],
      pagination: { page: 1, limit: 20, total: 0 },
    });
    // An end instant is inclusive at its own precision: the created_at the API shows (milliseconds)
    // includes an event stored with microseconds.
    const micro = await at('2025-03-04T06:14:07.015Z', 'e.micro');
    await t.dataSource.query(
      `UPDATE audit_events SET created_at = '2025-03-04T06:14:07.015633Z' WHERE id = $1`,
      [micro.id],
    );
    const shown = (await query('?start_date=2025-03-04')).body.events[0].created_at as string;
    expect(shown).toBe('2025-03-04T06:14:07.015Z');
    expect(actions((await query(`?start_date=2025-03-04&end_date=${shown}`)).body)).toEqual([
      'e.micro',
    ]);
    expect(
      actions((await query('?start_date=2025-03-04&end_date=2025-03-04T06:14:07Z')).body),
    ).toEqual(['e.micro']);
    expect(
      actions((await query('?start_date=2025-03-04&end_date=2025-03-04T06:14:07.014Z')).body),
    ).toEqual([]);
  });

  it('filters by action and pages newest first', async () => {
    for (let i = 0; i < 7; i++)
      await at(`2025-04-01T00:00:0${i}.000Z`, i % 2 === 0 ? 'user.created' : 'session.created');
    const created = await query('?action=user.created');
    expect(created.body.pagination).toEqual({ page: 1, limit: 20, total: 4 });
    expect(created.body.events.map((e: { created_at: string }) => e.created_at)).toEqual([
      '2025-04-01T00:00:06.000Z',
      '2025-04-01T00:00:04.000Z',
      '2025-04-01T00:00:02.000Z',
      '2025-04-01T00:00:00.000Z',
    ]);
    const p1 = await query('?limit=3');
    const p2 = await query('?limit=3&page=2');
    const p3 = await query('?limit=3&page=3');
    expect(p1.body.pagination).toEqual({ page: 1, limit: 3, total: 7 });
    expect(
      [...p1.body.events, ...p2.body.events, ...p3.body.events].map((e: { created_at: string }) =>
        e.created_at.slice(17, 19),
      ),
    ).toEqual(['06', '05', '04', '03', '02', '01', '00']);
    expect(
      (await query('?action=user.created&limit=1&page=4')).body.events.map(
        (e: { created_at: string }) => e.created_at,
      ),
    ).toEqual(['2025-04-01T00:00:00.000Z']);
    expect((await query('?action=nothing.here')).body.pagination.total).toBe(0);
    expect(
      (await query(`?action=${encodeURIComponent("user.created' OR '1'='1")}`)).body.pagination
        .total,
    ).toBe(0);
  });

  it("never shows another tenant's events", async () => {
    const other = await seedTenant(t.app, 'Other');
    await at('2025-05-01T00:00:00.000Z', 'mine.event');
    await at('2025-05-01T00:00:01.000Z', 'theirs.event', other.tenantId);
    expect(actions((await query('')).body)).toEqual(['mine.event']);
    expect((await query('?action=theirs.event')).body.pagination.total).toBe(0);
  });

  it('takes instants from 1970 to the end of 9999 only: 400 on the field just past each bound, 200 just inside', async () => {
    await at('9999-12-30T12:00:00.000Z', 'e.late');
    await at('1970-01-01T00:00:00.000Z', 'e.epoch');
    const RANGE = 'must fall in the years 1970 to 9999 (UTC)';
    const END =
      'must end before the year 10000 (UTC); an end date includes its whole day, so the last one is 9999-12-30';
    const FORMAT = 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time';
    const refused: [string, Record<string, string[]>][] = [
      ['end_date=9999-12-31', { end_date: [END] }],
      ['end_date=9999-12-31T23:59:59.999Z', { end_date: [END] }],
      ['end_date=9999-12-31T23:59:59.999999Z', { end_date: [END] }],
      ['end_date=9999-12-31T23:59:59Z', { end_date: [END] }],
      ['end_date=9999-12-31T23:59Z', { end_date: [END] }],
      [`end_date=${encodeURIComponent('9999-12-31T20:00:00-05:00')}`, { end_date: [RANGE] }],
      [`start_date=${encodeURIComponent('9999-12-31T19:00:00-05:00')}`, { start_date: [RANGE] }],
      [`start_date=${encodeURIComponent('1970-01-01T00:00:00+00:01')}`, { start_date: [RANGE] }],
      [`end_date=${encodeURIComponent('1970-01-01T00:00:00+00:01')}`, { end_date: [RANGE] }],
      ['start_date=1969-12-31', { start_date: [FORMAT] }],
      ['start_date=0000-01-01', { start_date: [FORMAT] }],
      ['end_date=275760-09-13', { end_date: [FORMAT] }],
      ['end_date=%2B275760-09-13T00:00:00Z', { end_date: [FORMAT] }],
      ['start_date=9999-12-31&end_date=9999-12-31', { end_date: [END] }],
    ];
    for (const [qs, errors] of refused) {
      const problem = expectProblem(
        await query(`?${qs}`),
        400,
        'validation-error',
        '/v1/admin/audit',
      );
      expect({ qs, errors: problem.errors }).toEqual({ qs, errors });
    }
    const accepted: [string, string[]][] = [
      ['end_date=9999-12-30', ['e.late', 'e.epoch']],
      ['end_date=9999-12-31T23:59:59.998Z', ['e.late', 'e.epoch']],
      ['end_date=9999-12-31T23:59:59.999998Z', ['e.late', 'e.epoch']],
      ['end_date=9999-12-31T23:59:58Z', ['e.late', 'e.epoch']],
      ['end_date=9999-12-31T23:58Z', ['e.late', 'e.epoch']],
      ['start_date=9999-12-31T23:59:59.999Z', []],
      [`start_date=${encodeURIComponent('9999-12-31T18:59:59.999-05:00')}`, []],
      ['start_date=9999-12-30&end_date=9999-12-30', ['e.late']],
      ['start_date=1970-01-01&end_date=1970-01-01', ['e.epoch']],
      ['start_date=1970-01-01T00:00:00Z&end_date=1970-01-01T00:00:00Z', ['e.epoch']],
    ];
    for (const [qs, expected] of accepted) {
      const res = await query(`?${qs}`);
      expect({
        qs,
        status: res.status,
        actions: res.status === 200 ? actions(res.body) : res.body,
      }).toEqual({ qs, status: 200, actions: expected });
    }
  });

  it('refuses malformed dates, an end before the start and out-of-range paging', async () => {
    for (const qs of [
      'start_date=2025-02-30',
      'start_date=yesterday',
      'end_date=2025-13-01',
      'start_date=2025-03-02&end_date=2025-03-01',
      'start_date=1700000000',
      'limit=0',
      'limit=101',
      'page=0',
      'action=a&action=b',
      'start_date=2025-01-01&start_date=2025-01-02',
    ]) {
      const problem = expectProblem(
        await query(`?${qs}`),
        400,
        'validation-error',
        '/v1/admin/audit',
      );
      expect(Object.keys(problem.errors as object).length).toBeGreaterThan(0);
    }
    expect(
      expectProblem(
        await query('?start_date=2025-03-02&end_date=2025-03-01'),
        400,
        'validation-error',
      ).errors,
    ).toEqual({ end_date: [expect.any(String)] });
    expect((await query('?limit=100')).status).toBe(200);
  });
});
