import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { EventRecorder } from '@gatehouse/identity';
import {
  openWebhookSecret,
  signWebhook,
  webhookBody,
  webhookSigningKey,
  WebhookDeliveriesRepository,
  WebhooksRepository,
  type AttemptResult,
  type ClaimedAttempt,
} from '@gatehouse/webhooks';
import { Clock, webhookDeliveries } from '@gatehouse/platform';
import { DeliveryRecorder } from './delivery-recorder';
import { retryDelayMs } from './retry-schedule';
import { USER_AGENT, WebhookSender } from './webhook-sender';

/** Also the `outcome` label of `gatehouse_webhook_deliveries_total` (docs/operations.md). */
export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed' | 'gone' | 'refused';

/** A claimed attempt is held this long beyond the HTTP timeout before another worker may take it over. */
export const LEASE_MARGIN_MS = 5000;
const SECRET_CACHE_SIZE = 1000;

/**
 * Makes attempts of deliveries (docs/api-contract.md §7): Standard Webhooks body and headers, the event id as
 * `webhook-id` on every attempt, 2xx = success, 410 disables the webhook, anything else schedules
 * the next attempt on WEBHOOK_RETRY_SCHEDULE until it is used up. A job's rows are claimed in one
 * statement and sent in parallel; results are recorded as they come (DeliveryRecorder).
 */
@Injectable()
export class WebhookDeliveriesService {
  private readonly logger = new Logger('WebhookDeliveries');
  /** HMAC keys of opened secrets, by webhook id and sealed value (a changed secret has a new sealed value). */
  private readonly keys = new Map<string, Buffer>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly webhooks: WebhooksRepository,
    private readonly sender: WebhookSender,
    private readonly recorder: DeliveryRecorder,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Makes the attempts of the pending rows among `ids`. A single attempt (retry, sweeper,
   * redeliver) is claimed with a lease first; a relay batch is only read: its job is the one thing
   * that covers its rows (the sweeper leaves first attempts alone for FIRST_ATTEMPT_GRACE_MS), which
   * saves a write per delivery on the hot path.
   */
  async attemptAll(ids: string[], opts: { claim: boolean }): Promise<AttemptOutcome[]> {
    const now = this.clock.nowMs();
    const rows = await this.deliveries.pending(
      ids,
      new Date(now),
      opts.claim ? new Date(now + this.config.webhooks.timeoutMs + LEASE_MARGIN_MS) : null,
    );
    return Promise.all(
      rows.map(async (c) => {
        const outcome = await this.attempt(c);
        webhookDeliveries.inc({ outcome });
        return outcome;
      }),
    );
  }

  private keyOf(c: ClaimedAttempt, sealed = c.secretEncrypted): Buffer {
    const id = `${c.webhookId}:${sealed}`;
    let key = this.keys.get(id);
    if (key === undefined) {
      key = webhookSigningKey(openWebhookSecret(this.config, c.webhookId, sealed));
      if (this.keys.size >= SECRET_CACHE_SIZE) this.keys.clear();
      this.keys.set(id, key);
    }
    return key;
  }

  private async attempt(c: ClaimedAttempt): Promise<AttemptOutcome> {
    const final = (error: string): AttemptResult => ({
      id: c.id,
      status: 'failed',
      responseStatus: null,
      durationMs: null,
      error,
      nextAttemptAt: null,
    });
    if (!c.manual && !c.webhookEnabled) {
      await this.recorder.record(final('webhook disabled'));
      return 'failed';
    }
    let key: Buffer;
    let previousKey: Buffer | null;
    try {
      key = this.keyOf(c);
      previousKey = c.previousSecretEncrypted ? this.keyOf(c, c.previousSecretEncrypted) : null;
    } catch {
      this.logger.error(
        `webhook ${c.webhookId}: the signing secret cannot be opened (was ENCRYPTION_KEY changed?)`,
      );
      await this.recorder.record(final('signing secret unreadable'));
      return 'failed';
    }

    const body = webhookBody(c.event);
    const timestamp = Math.floor(this.clock.nowMs() / 1000);
    // During a secret rotation (24 h) both signatures, the new one first (Standard Webhooks: space-separated).
    const signature = previousKey
      ? `${signWebhook(key, c.event.id, timestamp, body)} ${signWebhook(previousKey, c.event.id, timestamp, body)}`
      : signWebhook(key, c.event.id, timestamp, body);
    const headers = {
      'webhook-id': c.event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
    };
    const sent = await this.sender.send(c.webhookUrl, headers, body);
    const ok = sent.status !== null && sent.status >= 200 && sent.status <= 299;
    const result: AttemptResult = {
      id: c.id,
      status: ok ? 'succeeded' : 'failed',
      responseStatus: sent.status,
      durationMs: sent.durationMs,
      error: ok ? null : sent.error,
      nextAttemptAt: null,
      // What the delivery detail shows (docs/api-contract.md §13); the secret is never among them.
      requestHeaders: sent.refused
        ? null
        : { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...headers },
      responseHeaders: sent.responseHeaders ?? null,
      responseBody: sent.responseBody ?? null,
    };
    if (ok) {
      await this.recorder.record(result);
      return 'succeeded';
    }
    if (sent.status === 410) {
      await this.gone(c, result);
      return 'gone';
    }
    const delay = c.webhookEnabled
      ? retryDelayMs(this.config.webhooks.retryScheduleMs, c.attempt)
      : null;
    const { next } = await this.recorder.record({
      ...result,
      nextAttemptAt: delay === null ? null : new Date(this.clock.nowMs() + delay),
    });
    if (sent.refused) return 'refused';
    return next ? 'retrying' : 'failed';
  }

  /** 410 Gone: the attempt fails for good and the webhook is disabled with reason `gone`, in one transaction. */
  private async gone(c: ClaimedAttempt, result: AttemptResult): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const outcome = await this.deliveries.finish([result], manager);
      if (!outcome.get(c.id)?.recorded) return;
      const w = await this.webhooks.disableGone(manager, c.webhookId, this.clock.now());
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
          webhook: {
            id: w.id,
            url: w.url,
            events: w.events,
            description: w.description,
            enabled: false,
            disabled_reason: 'gone',
          },
          changes: { enabled: { from: true, to: false } },
        },
      });
    });
  }
}
