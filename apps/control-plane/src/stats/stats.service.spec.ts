import type {
  AuditEventsRepository,
  DailyActivityRow,
  ProjectsRepository,
  SessionsRepository,
} from '@gatehouse/identity';
import type { Clock } from '@gatehouse/platform';
import type { WebhookDeliveriesRepository } from '@gatehouse/webhooks';
import { StatsService, statsWindow } from './stats.service';

describe('statsWindow', () => {
  it('spans `days` whole UTC days ending with the day of now, whatever the time of day', () => {
    for (const at of [
      '2026-03-10T00:00:00.000Z',
      '2026-03-10T12:34:56.789Z',
      '2026-03-10T23:59:59.999Z',
    ]) {
      expect(statsWindow(new Date(at), 30)).toEqual({
        from: '2026-02-09',
        to: '2026-03-10',
        start: new Date('2026-02-09T00:00:00.000Z'),
        end: new Date('2026-03-11T00:00:00.000Z'),
      });
    }
  });

  it('is today alone for one day, and crosses years and leap days', () => {
    expect(statsWindow(new Date('2026-01-01T05:00:00Z'), 1)).toEqual({
      from: '2026-01-01',
      to: '2026-01-01',
      start: new Date('2026-01-01T00:00:00Z'),
      end: new Date('2026-01-02T00:00:00Z'),
    });
    expect(statsWindow(new Date('2026-01-01T05:00:00Z'), 90).from).toBe('2025-10-04');
    expect(statsWindow(new Date('2024-03-01T05:00:00Z'), 2).from).toBe('2024-02-29');
  });
});

describe('StatsService assembles what the repositories counted', () => {
  const row = (
    date: string,
    project_id: string,
    counts: Partial<DailyActivityRow>,
  ): DailyActivityRow => ({
    date,
    project_id,
    sign_ins: 0,
    sign_ups: 0,
    failed_sign_ins: 0,
    lockouts: 0,
    ...counts,
  });
  const asked: unknown[][] = [];
  const service = (
    daily: DailyActivityRow[],
    live: { project_id: string; count: number }[],
    deliveries: { succeeded: number; failed: number; pending: number },
  ) =>
    new StatsService(
      {
        dailyActivity: async (...args: unknown[]) => (asked.push(['audit', ...args]), daily),
      } as unknown as AuditEventsRepository,
      {
        liveCountsByProject: async (...args: unknown[]) => (
          asked.push(['sessions', ...args]),
          live
        ),
      } as unknown as SessionsRepository,
      {
        namesInTenant: async () => [
          { id: 'p1', name: 'Console' },
          { id: 'p2', name: 'App' },
        ],
      } as unknown as ProjectsRepository,
      {
        statusCounts: async (...args: unknown[]) => (
          asked.push(['deliveries', ...args]),
          deliveries
        ),
      } as unknown as WebhookDeliveriesRepository,
      { now: () => new Date('2026-03-10T08:00:00Z') } as Clock,
    );

  beforeEach(() => (asked.length = 0));

  it('sums the days into totals and the projects into active_sessions; asks every repository for the tenant and the window', async () => {
    const daily = [
      row('2026-03-09', 'p1', { sign_ins: 2, lockouts: 1 }),
      row('2026-03-09', 'p2', { sign_ins: 3, sign_ups: 1 }),
      row('2026-03-10', 'p2', { failed_sign_ins: 4 }),
    ];
    const out = await service(
      daily,
      [
        { project_id: 'p1', count: 2 },
        { project_id: 'p2', count: 5 },
      ],
      { succeeded: 9, failed: 3, pending: 1 },
    ).stats('t1', 7);
    expect(out).toEqual({
      from: '2026-03-04',
      to: '2026-03-10',
      projects: [
        { id: 'p1', name: 'Console' },
        { id: 'p2', name: 'App' },
      ],
      daily,
      totals: { sign_ins: 5, sign_ups: 1, failed_sign_ins: 4, lockouts: 1 },
      active_sessions: 7,
      active_sessions_by_project: [
        { project_id: 'p1', count: 2 },
        { project_id: 'p2', count: 5 },
      ],
      webhook_deliveries: { succeeded: 9, failed: 3, pending: 1, success_rate: 0.75 },
    });
    const window = [new Date('2026-03-04T00:00:00Z'), new Date('2026-03-11T00:00:00Z')];
    expect(asked).toEqual(
      expect.arrayContaining([
        ['audit', 't1', ...window],
        ['sessions', 't1', new Date('2026-03-10T08:00:00Z')],
        ['deliveries', 't1', ...window],
      ]),
    );
  });

  it('has no success rate until an attempt was made: pending ones do not count', async () => {
    expect(
      (await service([], [], { succeeded: 0, failed: 0, pending: 4 }).stats('t1', 30))
        .webhook_deliveries,
    ).toEqual({ succeeded: 0, failed: 0, pending: 4, success_rate: null });
    expect(
      (await service([], [], { succeeded: 0, failed: 2, pending: 0 }).stats('t1', 30))
        .webhook_deliveries.success_rate,
    ).toBe(0);
    const empty = await service([], [], { succeeded: 0, failed: 0, pending: 0 }).stats('t1', 30);
    expect(empty).toMatchObject({
      daily: [],
      totals: { sign_ins: 0, sign_ups: 0, failed_sign_ins: 0, lockouts: 0 },
      active_sessions: 0,
      active_sessions_by_project: [],
    });
  });
});
