import { Injectable } from '@nestjs/common';
import {
  AuditEventsRepository,
  ProjectsRepository,
  SessionsRepository,
  type DailyActivityRow,
} from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { WebhookDeliveriesRepository } from '@gatehouse/webhooks';
import type { StatsResponse, StatsTotalsResponse } from './stats.response';

const DAY_MS = 86_400_000;

/** `?days=`: how many UTC days the window spans, today included. */
export const STATS_DAYS = { min: 1, max: 90, default: 30 } as const;

/** The window of `days` UTC days that ends with the day of `now`: its first and last dates, and the instants [`start`, `end`) it covers. */
export function statsWindow(
  now: Date,
  days: number,
): { from: string; to: string; start: Date; end: Date } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const start = new Date(today - (days - 1) * DAY_MS);
  return {
    from: start.toISOString().slice(0, 10),
    to: new Date(today).toISOString().slice(0, 10),
    start,
    end: new Date(today + DAY_MS),
  };
}

/** The sums of the daily rows. */
export function totalsOf(daily: DailyActivityRow[]): StatsTotalsResponse {
  const totals = { sign_ins: 0, sign_ups: 0, failed_sign_ins: 0, lockouts: 0 };
  for (const d of daily) {
    totals.sign_ins += d.sign_ins;
    totals.sign_ups += d.sign_ups;
    totals.failed_sign_ins += d.failed_sign_ins;
    totals.lockouts += d.lockouts;
  }
  return totals;
}

/**
 * The aggregate the console's Overview charts (docs/admin-api.md#stats): one grouped statement per
 * table, each in its owner's repository and scoped to the admin's tenant, run side by side (not one
 * snapshot: a sign-in between two of them may show in one count and not yet in another).
 */
@Injectable()
export class StatsService {
  constructor(
    private readonly events: AuditEventsRepository,
    private readonly sessions: SessionsRepository,
    private readonly projects: ProjectsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly clock: Clock,
  ) {}

  async stats(tenantId: string, days: number): Promise<StatsResponse> {
    const now = this.clock.now();
    const window = statsWindow(now, days);
    const [projects, daily, live, deliveries] = await Promise.all([
      this.projects.namesInTenant(tenantId),
      this.events.dailyActivity(tenantId, window.start, window.end),
      this.sessions.liveCountsByProject(tenantId, now),
      this.deliveries.statusCounts(tenantId, window.start, window.end),
    ]);
    const made = deliveries.succeeded + deliveries.failed;
    return {
      from: window.from,
      to: window.to,
      projects: projects.map((p) => ({ id: p.id, name: p.name })),
      daily: daily.map((d) => ({
        date: d.date,
        project_id: d.project_id,
        sign_ins: d.sign_ins,
        sign_ups: d.sign_ups,
        failed_sign_ins: d.failed_sign_ins,
        lockouts: d.lockouts,
      })),
      totals: totalsOf(daily),
      active_sessions: live.reduce((sum, p) => sum + p.count, 0),
      active_sessions_by_project: live.map((p) => ({ project_id: p.project_id, count: p.count })),
      webhook_deliveries: {
        ...deliveries,
        success_rate: made === 0 ? null : deliveries.succeeded / made,
      },
    };
  }
}
