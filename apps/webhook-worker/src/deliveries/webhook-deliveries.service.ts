import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { EventRecorder, openWebhookSecret, signWebhook, webhookBody, WebhookDeliveryQueue } from '@gatehouse/identity';
import { Clock } from '@gatehouse/platform';
import { retryDelayMs } from './retry-schedule';
import { WebhookDeliveriesRepository, type AttemptContext, type AttemptResult } from './webhook-deliveries.repository';
import { WebhookSender } from './webhook-sender';
import { WebhooksRepository } from './webhooks.repository';

export type AttemptOutcome = 'skipped' | 'succeeded' | 'retrying' | 'failed';

/**
 * Makes one attempt of one delivery (CONTRACT §7): Standard Webhooks body and headers, the event
 * id as `webhook-id` on every attempt, 2xx = success, 410 disables the webhook, anything else
 * schedules the next attempt on WEBHOOK_RETRY_SCHEDULE until it is used up.
 */
@Injectable()
export class WebhookDeliveriesService {
  private readonly logger = new Logger('WebhookDeliveries');

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly webhooks: WebhooksRepository,
    private readonly sender: WebhookSender,
    private readonly queue: WebhookDeliveryQueue,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async attempt(deliveryId: string): Promise<AttemptOutcome> {
    const ctx = await this.deliveries.loadAttempt(deliveryId);
    if (!ctx || ctx.status !== 'pending') return 'skipped';
    if (!ctx.manual && !ctx.webhookEnabled) {
      await this.deliveries.finish(ctx.id, { status: 'failed', responseStatus: null, durationMs: null, error: 'webhook disabled' }, null);
      return 'failed';
    }
    let secret: string;
    try {
      secret = openWebhookSecret(this.config, ctx.webhookId, ctx.secretEncrypted);
    } catch {
      this.logger.error(`webhook ${ctx.webhookId}: the signing secret cannot be opened (was ENCRYPTION_KEY changed?)`);
      await this.deliveries.finish(ctx.id, { status: 'failed', responseStatus: null, durationMs: null, error: 'signing secret unreadable' }, null);
      return 'failed';
    }

    const body = webhookBody(ctx.event);
    const timestamp = Math.floor(this.clock.nowMs() / 1000);
    const sent = await this.sender.send(
      ctx.webhookUrl,
      { 'webhook-id': ctx.event.id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(secret, ctx.event.id, timestamp, body) },
      body,
    );
    const ok = sent.status !== null && sent.status >= 200 && sent.status <= 299;
    const result: AttemptResult = { status: ok ? 'succeeded' : 'failed', responseStatus: sent.status, durationMs: sent.durationMs, error: ok ? null : sent.error };
    if (ok) {
      await this.deliveries.finish(ctx.id, result, null);
      return 'succeeded';
    }
    if (sent.status === 410) {
      await this.gone(ctx, result);
      return 'failed';
    }
    const delay = ctx.webhookEnabled ? retryDelayMs(this.config.webhooks.retryScheduleMs, ctx.attempt) : null;
    const { nextId } = await this.deliveries.finish(ctx.id, result, delay === null ? null : new Date(this.clock.nowMs() + delay));
    if (!nextId || delay === null) return 'failed';
    try {
      await this.queue.enqueue([{ deliveryId: nextId, delayMs: delay }]);
    } catch (err) {
      this.logger.warn(`retry ${nextId}: queue unavailable (${err instanceof Error ? err.message : String(err)}); left to the sweeper`);
    }
    return 'retrying';
  }

  /** 410 Gone: the attempt fails for good and the webhook is disabled with reason `gone`, in one transaction. */
  private async gone(ctx: AttemptContext, result: AttemptResult): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const { recorded } = await this.deliveries.finish(ctx.id, result, null, manager);
      if (!recorded) return;
      const w = await this.webhooks.disableGone(manager, ctx.webhookId, this.clock.now());
      if (!w) return;
      await this.events.record(manager, {
        tenantId: w.tenantId,
        projectId: null,
        actorType: 'system',
        actorId: null,
        action: 'webhook.updated',
        resourceType: 'webhook',
        resourceId: w.id,
        data: {
          webhook: { id: w.id, url: w.url, events: w.events, description: w.description, enabled: false, disabled_reason: 'gone' },
          changes: ['enabled'],
        },
      });
    });
  }
}
