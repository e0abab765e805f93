import { DataSource } from 'typeorm';
import {
  createUser,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
import { buildWebhookWorker } from '../src/app-factory';
import { RetentionService } from '../src/retention/retention.service';

describe('retention: what the worker deletes, and what it keeps', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  const ds = () => t.app.get(DataSource);

  beforeAll(async () => {
    t = await startTestApp(buildWebhookWorker);
  });
  beforeEach(async () => {
    await t.reset();
    tenant = await seedTenant(t.app);
  });
  afterAll(() => t.close());

  async function event(
    ageDays: number,
    deliveryStatus: 'succeeded' | 'failed' | 'pending',
  ): Promise<string> {
    // Inserted already dispatched, so the worker's relay never takes it.
    const [{ id }] = await ds().query(
      `INSERT INTO outbox_events (tenant_id, type, payload, created_at, dispatched_at)
       VALUES ($1, 'retention.probe', '{}', now() - ($2 || ' days')::interval, now() - ($2 || ' days')::interval) RETURNING id`,
      [tenant.tenantId, String(ageDays)],
    );
    {
      const [{ id: webhookId }] = await ds().query(
        `INSERT INTO webhooks (tenant_id, url, events, secret_encrypted) VALUES ($1, 'https://hooks.example.com/x', '["*"]', 'v1.x.y.z') RETURNING id`,
        [tenant.tenantId],
      );
      await ds().query(
        `INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, event_type, status, attempt) VALUES ($1, $2, $3, 'user.updated', $4, 1)`,
        [tenant.tenantId, webhookId, id, deliveryStatus],
      );
    }
    return id as string;
  }

  it('deletes delivered events older than 30 days with their delivery records, keeps recent or still pending ones', async () => {
    const oldDone = await event(31, 'succeeded');
    const oldFailed = await event(31, 'failed');
    const oldPending = await event(31, 'pending');
    const recent = await event(29, 'succeeded');
    await t.app.get(RetentionService).purgeOnce();
    const left: { id: string }[] = await ds().query(
      `SELECT id FROM outbox_events WHERE type = 'retention.probe'`,
    );
    expect(left.map((r) => r.id).sort()).toEqual([oldPending, recent].sort());
    const deliveries: { event_id: string }[] = await ds().query(
      `SELECT event_id FROM webhook_deliveries WHERE event_id = ANY($1)`,
      [[oldDone, oldFailed, oldPending, recent]],
    );
    expect(deliveries.map((d) => d.event_id).sort()).toEqual([oldPending, recent].sort());
  });

  it('deletes sessions expired or revoked more than 7 days ago and expired one-time tokens, keeps the rest', async () => {
    const user = await createUser(t.app, tenant.project, 'keep@example.com');
    const rows: { id: string }[] = await ds().query(
      `INSERT INTO sessions (tenant_id, project_id, user_id, expires_at, revoked_at) VALUES
         ($1, $2, $3, now() - interval '8 days', NULL),
         ($1, $2, $3, now() + interval '20 days', now() - interval '8 days'),
         ($1, $2, $3, now() - interval '6 days', NULL),
         ($1, $2, $3, now() + interval '20 days', NULL)
       RETURNING id`,
      [tenant.tenantId, tenant.project.id, user.id],
    );
    await ds().query(
      `INSERT INTO one_time_tokens (tenant_id, project_id, user_id, purpose, token_hash, expires_at) VALUES
         ($1, $2, $3, 'password-reset', 'old', now() - interval '8 days'),
         ($1, $2, $3, 'password-reset', 'fresh', now() + interval '1 hour')`,
      [tenant.tenantId, tenant.project.id, user.id],
    );
    await t.app.get(RetentionService).purgeOnce();
    const sessions: { id: string }[] = await ds().query(
      `SELECT id FROM sessions WHERE user_id = $1`,
      [user.id],
    );
    expect(sessions.map((s) => s.id).sort()).toEqual([rows[2].id, rows[3].id].sort());
    expect(await ds().query(`SELECT token_hash FROM one_time_tokens`)).toEqual([
      { token_hash: 'fresh' },
    ]);
  });
});
