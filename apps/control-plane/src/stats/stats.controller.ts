import { Query } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { AdminController, AdminRoute } from '../common/admin-route';
import { QueryReader } from '../common/query-params';
import { StatsResponse } from './stats.response';
import { STATS_DAYS, StatsService } from './stats.service';

@AdminController('stats', 'v1/admin/stats')
export class StatsController {
  constructor(private readonly stats: StatsService) {}

  @AdminRoute.get(
    '',
    {
      summary:
        "The tenant's sign-in activity per UTC day and project, live sessions and webhook delivery outcomes (the console's Overview)",
      description:
        'Our addition, not in the contract (docs/api-contract.md §16). The window is the last `days` UTC days, today (by the server clock) included; ' +
        "the daily counts and the deliveries are of that window, the sessions are those live now. Only the admin's tenant is ever counted.",
    },
    StatsResponse,
    ApiQuery({
      name: 'days',
      required: false,
      schema: {
        type: 'integer',
        minimum: STATS_DAYS.min,
        maximum: STATS_DAYS.max,
        default: STATS_DAYS.default,
      },
      description: `${STATS_DAYS.min}–${STATS_DAYS.max} UTC days, today included; default ${STATS_DAYS.default}`,
    }),
  )
  get(
    @CurrentAdmin() admin: AdminContext,
    @Query() query: Record<string, unknown>,
  ): Promise<StatsResponse> {
    const r = new QueryReader(query);
    const days = r.integer('days', STATS_DAYS.min, STATS_DAYS.max, STATS_DAYS.default);
    r.done();
    return this.stats.stats(admin.tenantId, days);
  }
}
