import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { WebhookDelivery } from '@gatehouse/entities';
import type { Page } from '../common/pagination';

/** The only code of the control plane that queries `webhook_deliveries`; every query is tenant-scoped. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(WebhookDelivery);
  }

  /** Newest first; attempts of one event made in the same instant keep their order. */
  list(tenantId: string, webhookId: string, page: Page): Promise<[WebhookDelivery[], number]> {
    return this.repo().findAndCount({
      where: { tenantId, webhookId },
      order: { createdAt: 'DESC', attempt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.limit,
    });
  }

  findOfWebhook(manager: EntityManager, tenantId: string, webhookId: string, id: string): Promise<WebhookDelivery | null> {
    return this.repo(manager).findOne({ where: { tenantId, webhookId, id } });
  }

  /** The attempt of (event, webhook) queued and not yet made, if any, row-locked. */
  findPending(manager: EntityManager, tenantId: string, webhookId: string, eventId: string): Promise<WebhookDelivery | null> {
    return this.repo(manager).findOne({ where: { tenantId, webhookId, eventId, status: 'pending' }, lock: { mode: 'pessimistic_write' } });
  }

  async lastAttempt(manager: EntityManager, tenantId: string, webhookId: string, eventId: string): Promise<number> {
    const row = await this.repo(manager)
      .createQueryBuilder('d')
      .select('MAX(d.attempt)', 'max')
      .where('d.tenant_id = :tenantId AND d.webhook_id = :webhookId AND d.event_id = :eventId', { tenantId, webhookId, eventId })
      .getRawOne<{ max: number | null }>();
    return Number(row?.max ?? 0);
  }

  async insertPending(
    manager: EntityManager,
    values: Pick<WebhookDelivery, 'tenantId' | 'webhookId' | 'eventId' | 'eventType' | 'attempt' | 'nextAttemptAt'>,
  ): Promise<WebhookDelivery> {
    const row = this.repo(manager).create({ ...values, status: 'pending', manual: true, responseStatus: null, durationMs: null, error: null });
    return this.repo(manager).save(row);
  }

  async makeDueNow(manager: EntityManager, delivery: WebhookDelivery, now: Date): Promise<WebhookDelivery> {
    delivery.nextAttemptAt = now;
    delivery.manual = true;
    return this.repo(manager).save(delivery);
  }
}
