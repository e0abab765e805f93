import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { isId, uniqueViolation } from '@gatehouse/entities';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import type { Webhook, WebhookDelivery } from '@gatehouse/entities';
import { EventRecorder, type RequestMeta } from '@gatehouse/identity';
import {
  checkWebhookUrl,
  newWebhookSecret,
  sealWebhookSecret,
  WEBHOOK_TEST_EVENT,
  webhookBody,
  WebhookDeliveriesRepository,
  WebhookDeliveryQueue,
  WebhooksRepository,
} from '@gatehouse/webhooks';
import { Clock } from '@gatehouse/platform';
import { ProblemError } from '@gatehouse/problem-details';
import type { AdminContext } from '../auth/admin.guard';
import { assertRecentProof } from '../auth/recent-proof';
import { paginated, type Page } from '@gatehouse/http';
import type { CreateWebhookDto } from './dto/create-webhook.dto';
import type { UpdateWebhookDto } from './dto/update-webhook.dto';
import {
  deliveryError,
  toWebhookDeliveryResponse,
  type WebhookDeliveryDetailResponse,
  type WebhookDeliveryResponse,
} from './webhook-delivery.response';
import { toWebhookResponse, type WebhookResponse } from './webhook.response';

const NOT_FOUND = 'No such webhook.';
/** After a rotation the old secret signs beside the new one this long (docs/api-contract.md §13). */
export const SECRET_OVERLAP_MS = 24 * 3600_000;

/** Unique, in the order given. */
function dedupe(events: string[]): string[] {
  return [...new Set(events)];
}

/** What a webhook event's `data` says about a webhook (never its secret). */
function webhookData(w: Webhook) {
  return {
    webhook: {
      id: w.id,
      url: w.url,
      events: w.events,
      description: w.description,
      enabled: w.enabled,
      disabled_reason: w.disabledReason,
    },
  };
}

/**
 * Webhooks of the admin's tenant (docs/api-contract.md §7, §10): the secret is shown once and stored sealed;
 * every change writes its audit + outbox event in the same transaction; test events and
 * redeliveries are rows in PostgreSQL first and jobs in Redis second (docs/webhooks.md).
 */
@Injectable()
export class WebhooksService {
  private readonly logger = new Logger('WebhooksService');

  constructor(
    private readonly dataSource: DataSource,
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly events: EventRecorder,
    private readonly queue: WebhookDeliveryQueue,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private async checkedUrl(raw: string): Promise<string> {
    const check = await checkWebhookUrl(raw, { mode: this.config.webhooks.allowPrivateUrls });
    if (!check.ok) throw ProblemError.validation({ url: [check.message] });
    return check.url;
  }

  private event(
    admin: AdminContext,
    meta: RequestMeta,
    action: string,
    w: Webhook,
    data: Record<string, unknown>,
  ) {
    return {
      tenantId: admin.tenantId,
      projectId: null,
      actorType: 'admin' as const,
      actorId: admin.userId,
      meta,
      action,
      resourceType: 'webhook',
      resourceId: w.id,
      data,
    };
  }

  async create(
    admin: AdminContext,
    dto: CreateWebhookDto,
    meta: RequestMeta,
  ): Promise<WebhookResponse & { secret: string }> {
    const url = await this.checkedUrl(dto.url);
    const id = randomUUID();
    const secret = newWebhookSecret();
    const webhook = await this.dataSource.transaction(async (manager) => {
      const w = await this.webhooks.insert(manager, {
        id,
        tenantId: admin.tenantId,
        url,
        events: dedupe(dto.events),
        description: dto.description ?? null,
        enabled: dto.enabled ?? true,
        secretEncrypted: sealWebhookSecret(this.config, id, secret),
      });
      await this.events.record(
        manager,
        this.event(admin, meta, 'webhook.created', w, webhookData(w)),
      );
      return w;
    });
    return { ...toWebhookResponse(webhook), secret };
  }

  async list(admin: AdminContext, page: Page) {
    const [rows, total] = await this.webhooks.list(admin.tenantId, page);
    return paginated('webhooks', rows.map(toWebhookResponse), page, total);
  }

  private async find(admin: AdminContext, id: string): Promise<Webhook> {
    const webhook = isId(id) ? await this.webhooks.findInTenant(admin.tenantId, id) : null;
    if (!webhook) throw new ProblemError('not-found', { detail: NOT_FOUND });
    return webhook;
  }

  private async lock(manager: EntityManager, admin: AdminContext, id: string): Promise<Webhook> {
    const webhook = isId(id) ? await this.webhooks.lockInTenant(manager, admin.tenantId, id) : null;
    if (!webhook) throw new ProblemError('not-found', { detail: NOT_FOUND });
    return webhook;
  }

  async get(admin: AdminContext, id: string): Promise<WebhookResponse> {
    return toWebhookResponse(await this.find(admin, id));
  }

  async update(
    admin: AdminContext,
    id: string,
    dto: UpdateWebhookDto,
    meta: RequestMeta,
  ): Promise<WebhookResponse> {
    await this.find(admin, id);
    const url = dto.url !== undefined ? await this.checkedUrl(dto.url) : undefined;
    const updated = await this.dataSource.transaction(async (manager) => {
      const w = await this.lock(manager, admin, id);
      const before = {
        url: w.url,
        events: w.events,
        description: w.description,
        enabled: w.enabled,
      };
      const changed: (keyof typeof before)[] = [];
      if (url !== undefined && url !== w.url) {
        w.url = url;
        changed.push('url');
      }
      if (dto.events !== undefined) {
        const events = dedupe(dto.events);
        if (JSON.stringify(events) !== JSON.stringify(w.events)) {
          w.events = events;
          changed.push('events');
        }
      }
      if (dto.description !== undefined && (dto.description ?? null) !== w.description) {
        w.description = dto.description ?? null;
        changed.push('description');
      }
      if (dto.enabled !== undefined && dto.enabled !== w.enabled) {
        w.enabled = dto.enabled;
        w.disabledReason = null;
        changed.push('enabled');
      }
      if (changed.length === 0) return w;
      const saved = await this.webhooks.save(manager, w);
      // `data.changes` (docs/api-contract.md §13): each changed field's `{from, to}`.
      const changes = Object.fromEntries(
        changed.map((f) => [f, { from: before[f], to: saved[f] }]),
      );
      await this.events.record(
        manager,
        this.event(admin, meta, 'webhook.updated', saved, { ...webhookData(saved), changes }),
      );
      return saved;
    });
    return toWebhookResponse(updated);
  }

  async remove(admin: AdminContext, id: string, meta: RequestMeta): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const w = await this.lock(manager, admin, id);
      await this.webhooks.delete(manager, admin.tenantId, w.id);
      await this.events.record(
        manager,
        this.event(admin, meta, 'webhook.deleted', w, webhookData(w)),
      );
    });
  }

  /** Queues a `webhook.test` event through the outbox; the relay sends it to this webhook only. */
  async test(
    admin: AdminContext,
    id: string,
    meta: RequestMeta,
  ): Promise<{ event_id: string; type: string }> {
    const eventId = await this.dataSource.transaction(async (manager) => {
      const w = await this.lock(manager, admin, id);
      return this.events.record(
        manager,
        this.event(admin, meta, WEBHOOK_TEST_EVENT, w, { webhook: { id: w.id, url: w.url } }),
      );
    });
    return { event_id: eventId, type: WEBHOOK_TEST_EVENT };
  }

  async listDeliveries(
    admin: AdminContext,
    id: string,
    page: Page,
    filter: { status?: WebhookDelivery['status']; eventType?: string } = {},
  ) {
    const webhook = await this.find(admin, id);
    const [rows, total] = await this.deliveries.list(admin.tenantId, webhook.id, page, filter);
    return paginated('deliveries', rows.map(toWebhookDeliveryResponse), page, total);
  }

  /** `GET /v1/admin/webhooks/{id}/deliveries/{delivery_id}`: the record plus what was sent and received. */
  async getDelivery(
    admin: AdminContext,
    id: string,
    deliveryId: string,
  ): Promise<WebhookDeliveryDetailResponse> {
    const webhook = await this.find(admin, id);
    const d = isId(deliveryId)
      ? await this.deliveries.findOfWebhook(
          this.dataSource.manager,
          admin.tenantId,
          webhook.id,
          deliveryId,
        )
      : null;
    if (!d) throw new ProblemError('not-found', { detail: 'No such delivery.' });
    const event = await this.deliveries.eventOf(admin.tenantId, d.eventId);
    return {
      ...toWebhookDeliveryResponse(d),
      request: {
        url: webhook.url,
        headers: d.requestHeaders ?? {},
        body: event ? webhookBody(event) : null,
      },
      response:
        d.responseStatus !== null && d.responseHeaders
          ? { status: d.responseStatus, headers: d.responseHeaders, body: d.responseBody ?? '' }
          : null,
      error: deliveryError(d),
    };
  }

  /**
   * `POST /v1/admin/webhooks/{id}/secret/rotate` ★: a new secret, shown once; the current one keeps
   * signing beside it for SECRET_OVERLAP_MS (an earlier overlap still running is cut short: only
   * the secret being replaced stays). Audited `webhook.secret_rotated`, never with a secret.
   */
  async rotateSecret(
    admin: AdminContext,
    id: string,
    meta: RequestMeta,
  ): Promise<{ secret: string }> {
    assertRecentProof(admin, this.clock.nowMs());
    const secret = newWebhookSecret();
    await this.dataSource.transaction(async (manager) => {
      const w = await this.lock(manager, admin, id);
      const until = new Date(this.clock.nowMs() + SECRET_OVERLAP_MS);
      w.previousSecretEncrypted = w.secretEncrypted;
      w.previousSecretExpiresAt = until;
      w.secretEncrypted = sealWebhookSecret(this.config, w.id, secret);
      await this.webhooks.save(manager, w);
      await this.events.record(
        manager,
        this.event(admin, meta, 'webhook.secret_rotated', w, {
          ...webhookData(w),
          previous_secret_expires_at: until.toISOString(),
          changes: { secret: { changed: true } },
        }),
      );
    });
    return { secret };
  }

  /**
   * A new attempt of a delivery's event, with the same `webhook-id`: the attempt already queued for
   * that event (a scheduled retry) is brought forward, or else a new one is queued. Made even while
   * the webhook is disabled (an explicit admin action).
   */
  async redeliver(
    admin: AdminContext,
    id: string,
    deliveryId: string,
  ): Promise<WebhookDeliveryResponse> {
    const attempt = async (): Promise<WebhookDelivery> =>
      this.dataSource.transaction(async (manager) => {
        const w = await this.lock(manager, admin, id);
        const source = isId(deliveryId)
          ? await this.deliveries.findOfWebhook(manager, admin.tenantId, w.id, deliveryId)
          : null;
        if (!source)
          throw new ProblemError('not-found', { detail: 'No such delivery of this webhook.' });
        const now = this.clock.now();
        const pending = await this.deliveries.findPending(
          manager,
          admin.tenantId,
          w.id,
          source.eventId,
        );
        if (pending) return this.deliveries.makeDueNow(manager, pending, now);
        const last = await this.deliveries.lastAttempt(
          manager,
          admin.tenantId,
          w.id,
          source.eventId,
        );
        return this.deliveries.insertPending(manager, {
          tenantId: admin.tenantId,
          webhookId: w.id,
          eventId: source.eventId,
          eventType: source.eventType,
          attempt: last + 1,
          nextAttemptAt: now,
        });
      });
    let delivery: WebhookDelivery;
    try {
      delivery = await attempt();
    } catch (err) {
      // The worker scheduled the next attempt at the same moment: take that one instead.
      if (uniqueViolation(err) === null) throw err;
      delivery = await attempt();
    }
    try {
      await this.queue.runNow(delivery.id);
    } catch (err) {
      // The row is committed: the worker's sweeper enqueues it once Redis answers again.
      this.logger.warn(
        `redeliver ${delivery.id}: queue unavailable (${err instanceof Error ? err.message : String(err)}); left to the sweeper`,
      );
    }
    return toWebhookDeliveryResponse(delivery);
  }
}
