import { Injectable } from '@nestjs/common';
import { paginated, type Page } from '../common/pagination';
import { toAuditEventResponse } from './audit-event.response';
import { AuditEventsRepository, type AuditFilter } from '@gatehouse/identity';

/** The audit log of the admin's tenant: admin actions and security events of all its projects. */
@Injectable()
export class AuditService {
  constructor(private readonly events: AuditEventsRepository) {}

  async query(tenantId: string, filter: AuditFilter, page: Page) {
    const [rows, total] = await this.events.list(tenantId, filter, page);
    return paginated('events', rows.map(toAuditEventResponse), page, total);
  }
}
