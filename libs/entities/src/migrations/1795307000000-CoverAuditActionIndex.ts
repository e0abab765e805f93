import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The admin stats (`GET /v1/admin/stats`) count a tenant's sign-in activity per UTC day and
 * project over up to 90 days: hundreds of thousands of audit events. The (tenant, action, time)
 * index now carries `project_id` and `actor_type` too, so those counts read the index alone,
 * never an event's row. With 300,000 events in the last 30 days, the daily statement costs
 * PostgreSQL 48 ms of CPU; with the old index, 398 ms (it fetched every counted row), and the best
 * plan without it, one sequential scan grouped in one pass, 140 ms plus a sort spilled to disk
 * (`npm run bench:admin`, docs/performance.md#admin-stats). Same keys as before, so the audit
 * query's `action` filter uses it as it used the old one, and an event still costs one entry.
 */
export class CoverAuditActionIndex1795307000000 implements MigrationInterface {
  name = 'CoverAuditActionIndex1795307000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX audit_events_tenant_action_created_cover_idx ON audit_events (tenant_id, action, created_at DESC) INCLUDE (project_id, actor_type)`,
    );
    await q.query(`DROP INDEX audit_events_tenant_action_created_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX audit_events_tenant_action_created_idx ON audit_events (tenant_id, action, created_at DESC)`,
    );
    await q.query(`DROP INDEX audit_events_tenant_action_created_cover_idx`);
  }
}
