import { topProjects } from './project-totals';

const counts = (sign_ins: number) => ({ sign_ins, sign_ups: 0, failed_sign_ins: 0, lockouts: 0 });

describe('topProjects (the overview of a tenant with many projects)', () => {
  const projects = Array.from({ length: 14 }, (_, i) => ({
    id: `p${i}`,
    name: `Project ${String(i).padStart(2, '0')}`,
  }));
  const stats = {
    from: '2026-11-03',
    to: '2026-12-02',
    projects,
    daily: projects
      .map((p, i) => ({ date: '2026-12-01', project_id: p.id, ...counts(i) }))
      .concat([{ date: '2026-12-02', project_id: 'p1', ...counts(100) }]),
    totals: counts(0),
    active_sessions: 3,
    active_sessions_by_project: [{ project_id: 'p0', count: 3 }],
    webhook_deliveries: { succeeded: 0, failed: 0, pending: 0, success_rate: null },
  };

  it('keeps the 10 most active (activity of the window, then sessions) and sums the rest as Other', () => {
    const { rows, other } = topProjects(stats);
    expect(rows.map((r) => r.id)).toEqual([
      'p1',
      'p13',
      'p12',
      'p11',
      'p10',
      'p9',
      'p8',
      'p7',
      'p6',
      'p5',
    ]);
    expect(rows[0].totals.sign_ins).toBe(101);
    // p4..p2 by activity, then p0 (no activity, 3 sessions).
    expect(other).toEqual({
      id: 'other',
      name: 'Other (4 projects)',
      totals: counts(4 + 3 + 2 + 0),
      sessions: 3,
      count: 4,
    });
  });

  it('has no Other when every project fits', () => {
    const { rows, other } = topProjects({ ...stats, projects: projects.slice(0, 3) });
    expect(rows.map((r) => r.id)).toEqual(['p1', 'p2', 'p0']);
    expect(other).toBeNull();
  });
});
