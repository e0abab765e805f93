import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { isId } from '@gatehouse/entities';
import { AuditEventsRepository, type AuditCursor, type AuditFilter } from '@gatehouse/identity';
import { paginated, type Page } from '@gatehouse/http';
import { toAuditEventResponse, type AuditEventResponse } from './audit-event.response';

const EXPORT_PAGE = 500;
export type AuditExportFormat = 'csv' | 'ndjson';
const CSV_COLUMNS = [
  'id',
  'created_at',
  'action',
  'actor_type',
  'actor_id',
  'resource_type',
  'resource_id',
  'project_id',
  'ip_address',
  'user_agent',
  'data',
] as const;

/**
 * One CSV field (RFC 4180): quoted when it holds a quote, comma or line break; a value a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) is prefixed with `'`
 * (OWASP CSV injection), since user agents and data come from the outside.
 */
export function csvField(value: unknown): string {
  let text =
    value === null || value === undefined
      ? ''
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvLine(e: AuditEventResponse): string {
  return CSV_COLUMNS.map((c) => csvField(e[c])).join(',') + '\r\n';
}

/** The audit log of the admin's tenant: admin actions and security events of all its projects. */
@Injectable()
export class AuditService {
  constructor(private readonly events: AuditEventsRepository) {}

  async query(tenantId: string, filter: AuditFilter, page: Page) {
    // No event is of a project whose id is malformed.
    if (filter.projectId !== undefined && !isId(filter.projectId))
      return paginated('events', [], page, 0);
    const [rows, total] = await this.events.list(tenantId, filter, page);
    return paginated('events', rows.map(toAuditEventResponse), page, total);
  }

  /**
   * `GET /v1/admin/audit/export` (docs/api-contract.md §13): every matching event, newest first, as CSV (a
   * header line, then one line per event, `data` as JSON) or NDJSON (the list's event objects),
   * page after page with back-pressure, so memory stays flat however long the log is.
   */
  async export(
    tenantId: string,
    filter: AuditFilter,
    format: AuditExportFormat,
    res: Response,
  ): Promise<void> {
    res
      .status(200)
      .setHeader(
        'content-type',
        format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      );
    res.setHeader('content-disposition', `attachment; filename="audit-${tenantId}.${format}"`);
    if (format === 'csv') res.write(CSV_COLUMNS.join(',') + '\r\n');
    let cursor: AuditCursor | null = null;
    const none = filter.projectId !== undefined && !isId(filter.projectId);
    while (!none) {
      const rows = await this.events.exportPage(tenantId, filter, cursor, EXPORT_PAGE);
      if (rows.length === 0) break;
      const events = rows.map(toAuditEventResponse);
      const chunk =
        format === 'csv'
          ? events.map(csvLine).join('')
          : events.map((e) => JSON.stringify(e)).join('\n') + '\n';
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
      const last = rows[rows.length - 1];
      cursor = { created_at: last.cursor, id: last.id };
      if (rows.length < EXPORT_PAGE) break;
    }
    res.end();
  }
}
