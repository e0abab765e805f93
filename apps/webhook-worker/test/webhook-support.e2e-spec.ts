import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { AuditEvent, Webhook, WebhookDelivery } from '@gatehouse/entities';
import { EventRecorder } from '@gatehouse/identity';
import {
  expectProblem,
  mintAccessToken,
  seedTenant,
  startTestApp,
  type SeededTenant,
  type TestApp,
} from '@gatehouse/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the admin API rotates the secret and reads the delivery the worker made
import { buildControlPlane } from '../../control-plane/src/app-factory';
import { buildWebhookWorker } from '../src/app-factory';
import { verified, waitFor, WebhookReceiver } from './support/webhook-receiver';

/** 32 s past the console project's default `reauthentication_max_age_seconds` (600 s); the access token (900 s) is still valid. */
const AGED_MS = 632_000;

/**
 * docs/api-contract.md §13, "why a webhook delivery failed" and secret rotation (★): the worker delivers for
 * real to local receivers; the control plane (in process, same database) shows each delivery's
 * request, response and error, filters the list, and rotates the secret, after which for 24 hours
 * every delivery carries both signatures, each accepted by the `standardwebhooks` package.
 */
describe('webhook support: delivery detail, filters, secret rotation with both signatures', () => {
  let worker: TestApp;
  let cp: TestApp;
  let tenant: SeededTenant;
  let token: string;
  const receiver = new WebhookReceiver();
  let bigServer: http.Server;
  let bigUrl: string;
  const as = (bearer = token) => ({ Authorization: `Bearer ${bearer}` });
  const emit = (type: string, data: Record<string, unknown> = {}) =>
    worker.dataSource.transaction((m) =>
      worker.app.get(EventRecorder).record(m, {
        tenantId: tenant.tenantId,
        projectId: tenant.project.id,
        actorType: 'system',
        actorId: null,
        action: type,
        resourceType: 'test',
        resourceId: null,
        data,
      }),
    );
  const deliveriesOf = (webhookId: string) =>
    worker.dataSource
      .getRepository(WebhookDelivery)
      .find({ where: { webhookId }, order: { createdAt: 'ASC', attempt: 'ASC' } });
  const createHook = async (url: string, events = ['*']) => {
    const res = await cp.http().post('/v1/admin/webhooks').set(as()).send({ url, events });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  };
  const allDispatched = async () =>
    (
      await worker.dataSource.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM outbox_events WHERE dispatched_at IS NULL`,
      )
    )[0].n === 0;

  beforeAll(async () => {
    await receiver.start();
    bigServer = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(500, { 'content-type': 'text/plain', 'x-request-trace': 'abc' });
        res.end('E'.repeat(10_000));
      });
    });
    await new Promise<void>((resolve) => bigServer.listen(0, '127.0.0.1', resolve));
    bigUrl = `http://127.0.0.1:${(bigServer.address() as AddressInfo).port}/big`;
    worker = await startTestApp(buildWebhookWorker, {
      WEBHOOK_RETRY_SCHEDULE: '1h',
      WEBHOOK_TIMEOUT_MS: '1500',
    });
    cp = await startTestApp(buildControlPlane);
  }, 60_000);
  beforeEach(async () => {
    receiver.reset();
    await worker.reset();
    cp.clock.reset();
    tenant = await seedTenant(cp.app);
    token = (await mintAccessToken(cp.app, tenant.adminUserId)).token;
    await waitFor('the seed events to be relayed', allDispatched);
  });
  afterAll(async () => {
    await cp?.close();
    await worker?.close();
    await receiver.stop();
    await new Promise((r) => bigServer.close(r));
  });

  it('rotation: 201 {secret}; for 24 h both signatures (new first), each verified by standardwebhooks; then the new one only', async () => {
    const hook = await createHook(receiver.url('/rotating'), ['user.updated']);
    await emit('user.updated', { n: 1 });
    const [before] = await waitFor(
      'the first delivery',
      () => receiver.on('/rotating').length >= 1 && receiver.on('/rotating'),
    );
    expect(before.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verified(hook.secret, before)).toMatchObject({ data: { n: 1 } });

    const rotated = await cp.http().post(`/v1/admin/webhooks/${hook.id}/secret/rotate`).set(as());
    expect(rotated.status).toBe(201);
    expect(rotated.body).toEqual({ secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
    const secret = rotated.body.secret as string;
    expect(secret).not.toBe(hook.secret);
    const [audit] = await cp.dataSource
      .getRepository(AuditEvent)
      .findBy({ action: 'webhook.secret_rotated' });
    expect(audit).toMatchObject({
      actorType: 'admin',
      actorId: tenant.adminUserId,
      resourceType: 'webhook',
      resourceId: hook.id,
    });
    expect(JSON.stringify(audit.metadata)).not.toContain('whsec_');
    expect(audit.metadata).toMatchObject({ changes: { secret: { changed: true } } });

    await emit('user.updated', { n: 2 });
    const during = (
      await waitFor(
        'a delivery during the overlap',
        () => receiver.on('/rotating').length >= 2 && receiver.on('/rotating'),
      )
    )[1];
    const signatures = during.headers['webhook-signature'].split(' ');
    expect(signatures).toHaveLength(2);
    for (const s of signatures) expect(s).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    // Each secret alone verifies the delivery (a receiver on either one keeps working).
    expect(verified(secret, during)).toMatchObject({ data: { n: 2 } });
    expect(verified(hook.secret, during)).toMatchObject({ data: { n: 2 } });
    // The first signature is the new secret's.
    expect(
      verified(secret, {
        ...during,
        headers: { ...during.headers, 'webhook-signature': signatures[0] },
      }),
    ).toMatchObject({ data: { n: 2 } });

    // The old secret signs for 24 hours from the rotation…
    const row = await cp.dataSource.getRepository(Webhook).findOneByOrFail({ id: hook.id });
    const overlapMs =
      row.previousSecretExpiresAt!.getTime() - Date.parse(audit.createdAt.toISOString());
    expect(Math.abs(overlapMs - 24 * 3600_000)).toBeLessThan(5000);
    // …and no more once that instant has passed (moved into the past here: standardwebhooks checks
    // the timestamp against the real clock, so the worker's clock cannot be moved a day ahead).
    await cp.dataSource
      .getRepository(Webhook)
      .update({ id: hook.id }, { previousSecretExpiresAt: new Date(Date.now() - 1000) });
    await emit('user.updated', { n: 3 });
    const after = (
      await waitFor(
        'a delivery after the overlap',
        () => receiver.on('/rotating').length >= 3 && receiver.on('/rotating'),
      )
    )[2];
    expect(after.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verified(secret, after)).toMatchObject({ data: { n: 3 } });
    expect(() =>
      new StandardWebhook(hook.secret).verify(after.body, {
        'webhook-id': after.headers['webhook-id'],
        'webhook-timestamp': after.headers['webhook-timestamp'],
        'webhook-signature': after.headers['webhook-signature'],
      }),
    ).toThrow(/signature/i);
  });

  it('a stale admin token is refused the rotation (403 reauthentication-required) and the secret stays; another tenant gets 404', async () => {
    const hook = await createHook(receiver.url('/stale'));
    const sealed = (await cp.dataSource.getRepository(Webhook).findOneByOrFail({ id: hook.id }))
      .secretEncrypted;
    cp.clock.advance(AGED_MS);
    const path = `/v1/admin/webhooks/${hook.id}/secret/rotate`;
    const stale = await cp.http().post(path).set(as());
    expect(stale.status).toBe(403);
    expect(stale.body).toEqual({
      type: 'https://gatehouse.dev/problems/reauthentication-required',
      title: 'Reauthentication Required',
      status: 403,
      detail:
        'This action needs a recent proof of identity; re-authenticate with POST /v1/auth/reauthenticate and try again.',
      instance: path,
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      max_age_seconds: 600,
    });
    cp.clock.reset();
    const other = await seedTenant(cp.app, 'Other');
    const otherToken = (await mintAccessToken(cp.app, other.adminUserId)).token;
    expectProblem(await cp.http().post(path).set(as(otherToken)), 404, 'not-found', path);
    expectProblem(
      await cp.http().post(path).set(as()).send({ secret: 'whsec_mine' }),
      400,
      'validation-error',
    );
    const row = await cp.dataSource.getRepository(Webhook).findOneByOrFail({ id: hook.id });
    expect(row).toMatchObject({
      secretEncrypted: sealed,
      previousSecretEncrypted: null,
      previousSecretExpiresAt: null,
    });
    expect(
      await cp.dataSource.getRepository(AuditEvent).countBy({ action: 'webhook.secret_rotated' }),
    ).toBe(0);
  });

  it('delivery detail: the request sent (signature, never the secret), the answer (first 4 KiB) and the error; the list filters by status and event type', async () => {
    const ok = await createHook(receiver.url('/ok'), ['user.created']);
    const big = await createHook(bigUrl, ['user.created']);
    // Nothing listens on this port: the connection is refused.
    const closed = await new Promise<number>((resolve) => {
      const s = http.createServer();
      s.listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const refused = await createHook(`http://127.0.0.1:${closed}/gone`, [
      'user.created',
      'user.updated',
    ]);
    const eventId = await emit('user.created', { user: { id: 'u1' } });
    await emit('user.updated', { user: { id: 'u1' } });
    const done = (id: string, n: number) =>
      waitFor(`deliveries of ${id}`, async () => {
        const rows = await deliveriesOf(id);
        return rows.filter((r) => r.status !== 'pending').length >= n && rows;
      });
    const [okRow] = await done(ok.id, 1);
    const [bigRow] = await done(big.id, 1);
    await done(refused.id, 2);

    const detail = async (hookId: string, deliveryId: string) => {
      const res = await cp
        .http()
        .get(`/v1/admin/webhooks/${hookId}/deliveries/${deliveryId}`)
        .set(as());
      expect(res.status).toBe(200);
      return res.body;
    };
    const got = receiver.on('/ok')[0];
    const okDetail = await detail(ok.id, okRow.id);
    expect(okDetail).toEqual({
      id: okRow.id,
      event_id: eventId,
      event_type: 'user.created',
      status: 'succeeded',
      attempt: 1,
      response_status: 200,
      duration_ms: expect.any(Number),
      next_attempt_at: null,
      created_at: expect.any(String),
      request: {
        url: receiver.url('/ok'),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Gatehouse-Webhooks/1.0',
          'webhook-id': eventId,
          'webhook-timestamp': got.headers['webhook-timestamp'],
          'webhook-signature': got.headers['webhook-signature'],
        },
        body: got.body,
      },
      response: {
        status: 200,
        headers: expect.objectContaining({ 'content-type': 'text/plain' }),
        body: 'ok',
      },
      error: null,
    });
    expect(JSON.stringify(okDetail)).not.toContain(ok.secret.slice(6, 20));

    const bigDetail = await detail(big.id, bigRow.id);
    expect(bigDetail).toMatchObject({
      status: 'failed',
      response_status: 500,
      error: 'http_error',
      next_attempt_at: expect.any(String),
    });
    expect(bigDetail.response.body).toBe('E'.repeat(4096));
    expect(bigDetail.response.headers['x-request-trace']).toBe('abc');

    const refusedRows = await deliveriesOf(refused.id);
    const refusedDetail = await detail(
      refused.id,
      refusedRows.find((r) => r.eventType === 'user.created')!.id,
    );
    expect(refusedDetail).toMatchObject({
      status: 'failed',
      response_status: null,
      response: null,
      error: 'connection_refused',
    });
    expect(refusedDetail.request.headers['webhook-signature']).toMatch(/^v1,/);

    const list = (q: string) =>
      cp.http().get(`/v1/admin/webhooks/${refused.id}/deliveries?${q}`).set(as());
    // Each failed first attempt left its retry pending (the schedule's 1 h).
    expect(
      (await list('event_type=user.updated')).body.deliveries.map(
        (d: { event_type: string; status: string }) => [d.event_type, d.status],
      ),
    ).toEqual([
      ['user.updated', 'pending'],
      ['user.updated', 'failed'],
    ]);
    expect(
      (await list('status=failed')).body.deliveries.map((d: { status: string }) => d.status),
    ).toEqual(['failed', 'failed']);
    expect((await list('status=succeeded')).body).toEqual({
      deliveries: [],
      pagination: { page: 1, limit: 20, total: 0 },
    });
    expect((await list('status=pending&event_type=user.created')).body.pagination.total).toBe(1);
    for (const q of [
      'status=done',
      'status=failed&status=pending',
      `event_type=${'x'.repeat(101)}`,
    ]) {
      const problem = expectProblem(
        await list(q),
        400,
        'validation-error',
        `/v1/admin/webhooks/${refused.id}/deliveries`,
      );
      expect(Object.keys(problem.errors as object)).toEqual([
        q.startsWith('status') ? 'status' : 'event_type',
      ]);
    }

    // Another tenant's admin, an unknown or malformed id, a delivery of another webhook: 404.
    const other = await seedTenant(cp.app, 'Other');
    const otherToken = (await mintAccessToken(cp.app, other.adminUserId)).token;
    expectProblem(
      await cp.http().get(`/v1/admin/webhooks/${ok.id}/deliveries/${okRow.id}`).set(as(otherToken)),
      404,
      'not-found',
    );
    expectProblem(
      await cp.http().get(`/v1/admin/webhooks/${big.id}/deliveries/${okRow.id}`).set(as()),
      404,
      'not-found',
    );
    expectProblem(
      await cp.http().get(`/v1/admin/webhooks/${ok.id}/deliveries/not-an-id`).set(as()),
      404,
      'not-found',
    );
    expectProblem(
      await cp
        .http()
        .get(`/v1/admin/webhooks/${ok.id}/deliveries?status=failed`)
        .set(as(otherToken)),
      404,
      'not-found',
    );
  });
});
