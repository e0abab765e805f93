import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Webhook } from '@gatehouse/entities';
import type { Page } from './page';

/** A webhook as the statement that disabled it returned it. */
export interface DisabledWebhook {
  id: string;
  tenantId: string;
  url: string;
  events: string[];
  description: string | null;
}

/**
 * SQL for statements of other tables that read `webhooks` in the same round trip: the ids of the
 * webhooks of the tenant `tenantRef` (a placeholder of the statement that embeds it).
 */
export const webhookIdsOfTenantSql = (tenantRef: string) =>
  `SELECT w.id FROM webhooks w WHERE w.tenant_id = ${tenantRef}`;

/**
 * The only code that queries `webhooks`: the control plane's CRUD (every query tenant-scoped) and
 * the worker, which disables a webhook whose URL answered 410. The worker's relay and deliveries
 * read `webhooks` in their own statements (OutboxEventsRepository, WebhookDeliveriesRepository).
 */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(Webhook);
  }

  findInTenant(tenantId: string, id: string): Promise<Webhook | null> {
    return this.repo().findOne({ where: { tenantId, id } });
  }

  /** Reads and row-locks a webhook for the rest of the caller's transaction. */
  lockInTenant(manager: EntityManager, tenantId: string, id: string): Promise<Webhook | null> {
    return this.repo(manager).findOne({
      where: { tenantId, id },
      lock: { mode: 'pessimistic_write' },
    });
  }

  list(tenantId: string, page: Page): Promise<[Webhook[], number]> {
    return this.repo().findAndCount({
      where: { tenantId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.limit,
    });
  }

  async insert(
    manager: EntityManager,
    values: Pick<
      Webhook,
      'id' | 'tenantId' | 'url' | 'events' | 'description' | 'enabled' | 'secretEncrypted'
    >,
  ): Promise<Webhook> {
    await this.repo(manager).insert({ ...values, disabledReason: null });
    return this.repo(manager).findOneOrFail({
      where: { tenantId: values.tenantId, id: values.id },
    });
  }

  save(manager: EntityManager, webhook: Webhook): Promise<Webhook> {
    return this.repo(manager).save(webhook);
  }

  async delete(manager: EntityManager, tenantId: string, id: string): Promise<void> {
    await this.repo(manager).delete({ tenantId, id });
  }

  /** A 410 answer (worker): the webhook is disabled with reason `gone`. Returns the webhook when this call disabled it. */
  async disableGone(manager: EntityManager, id: string, at: Date): Promise<DisabledWebhook | null> {
    const rows: [
      {
        id: string;
        tenant_id: string;
        url: string;
        events: string[];
        description: string | null;
      }[],
      number,
    ] = await manager.query(
      `UPDATE webhooks SET enabled = false, disabled_reason = 'gone', updated_at = $2
        WHERE id = $1 AND enabled
        RETURNING id, tenant_id, url, events, description`,
      [id, at],
    );
    const row = rows[0]?.[0];
    return row
      ? {
          id: row.id,
          tenantId: row.tenant_id,
          url: row.url,
          events: row.events,
          description: row.description,
        }
      : null;
  }
}
