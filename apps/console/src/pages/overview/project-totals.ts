/** Sums of the stats API's counts, and the by-project view of a tenant with many projects. */
import type { components } from '../../api/control-plane';

type Stats = components['schemas']['StatsResponse'];
type Counts = components['schemas']['StatsTotalsResponse'];

export const ZERO: Counts = { sign_ins: 0, sign_ups: 0, failed_sign_ins: 0, lockouts: 0 };

export function add(a: Counts, b: Counts): Counts {
  return {
    sign_ins: a.sign_ins + b.sign_ins,
    sign_ups: a.sign_ups + b.sign_ups,
    failed_sign_ins: a.failed_sign_ins + b.failed_sign_ins,
    lockouts: a.lockouts + b.lockouts,
  };
}

/** How many projects the by-project chart and table name; the others are summed as "Other". */
export const TOP = 10;
export const OTHER = 'other';

/** A project's (or "Other"'s) numbers over the window. */
export interface ProjectRow {
  id: string;
  name: string;
  totals: Counts;
  sessions: number;
  /** Other: how many projects it sums. */
  count?: number;
}

function activity(row: ProjectRow): number {
  return (
    row.totals.sign_ins + row.totals.sign_ups + row.totals.failed_sign_ins + row.totals.lockouts
  );
}

/**
 * The TOP most active projects (sign-ins, sign-ups, failures and lockouts of the window; then
 * live sessions; then name), and the rest summed as one "Other" row: a tenant of 400 projects
 * draws the same short chart and table as one of 10.
 */
export function topProjects(
  stats: Stats,
  top = TOP,
): { rows: ProjectRow[]; other: ProjectRow | null } {
  const totals = new Map<string, Counts>();
  for (const r of stats.daily) totals.set(r.project_id, add(totals.get(r.project_id) ?? ZERO, r));
  const sessions = new Map(stats.active_sessions_by_project.map((s) => [s.project_id, s.count]));
  const all = stats.projects
    .map((p) => ({
      id: p.id,
      name: p.name,
      totals: totals.get(p.id) ?? ZERO,
      sessions: sessions.get(p.id) ?? 0,
    }))
    .sort(
      (a, b) =>
        activity(b) - activity(a) || b.sessions - a.sessions || a.name.localeCompare(b.name),
    );
  const rest = all.slice(top);
  if (rest.length === 0) return { rows: all, other: null };
  return {
    rows: all.slice(0, top),
    other: {
      id: OTHER,
      name: `Other (${rest.length} projects)`,
      totals: rest.reduce((sum, r) => add(sum, r.totals), ZERO),
      sessions: rest.reduce((sum, r) => sum + r.sessions, 0),
      count: rest.length,
    },
  };
}
