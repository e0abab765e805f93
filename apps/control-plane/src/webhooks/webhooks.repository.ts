import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Webhook } from '@gatehouse/entities';
import type { Page } from '../common/pagination';

/** The only code of the control plane that queries `webhooks`; every query is tenant-scoped. */
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
    return this.repo(manager).findOne({ where: { tenantId, id }, lock: { mode: 'pessimistic_write' } });
  }

  list(tenantId: string, page: Page): Promise<[Webhook[], number]> {
    return this.repo().findAndCount({ where: { tenantId }, order: { createdAt: 'DESC', id: 'DESC' }, skip: page.offset, take: page.limit });
  }

  async insert(manager: EntityManager, values: Pick<Webhook, 'id' | 'tenantId' | 'url' | 'events' | 'description' | 'enabled' | 'secretEncrypted'>): Promise<Webhook> {
    await this.repo(manager).insert({ ...values, disabledReason: null });
    return this.repo(manager).findOneOrFail({ where: { tenantId: values.tenantId, id: values.id } });
  }

  save(manager: EntityManager, webhook: Webhook): Promise<Webhook> {
    return this.repo(manager).save(webhook);
  }

  async delete(manager: EntityManager, tenantId: string, id: string): Promise<void> {
    await this.repo(manager).delete({ tenantId, id });
  }
}
