import { Query, Res } from '@nestjs/common';
import { ApiProduces, ApiQuery } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuditFilter } from '@gatehouse/identity';
import type { FieldErrors } from '@gatehouse/problem-details';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { AdminController, AdminRoute } from '../common/admin-route';
import { QueryReader } from '../common/query-params';
import { AuditEventListResponse } from './audit-event.response';
import { parseRange } from './audit-query';
import { AuditService, type AuditExportFormat } from './audit.service';

/** `action` of the form `<prefix>.*` (docs/api-contract.md §13): the prefix, dot included; null for an exact action. */
const ACTION_PREFIX = /^([a-z0-9_]+(?:\.[a-z0-9_]+)*\.)\*$/;

/** The filters both routes take: dates, `action` (exact or `prefix.*`), `user_id`, `actor_id`, `project_id`. */
function readFilter(r: QueryReader): AuditFilter {
  const action = r.string('action', 100);
  const userId = r.string('user_id', 64);
  const actorId = r.string('actor_id', 64);
  const projectId = r.string('project_id', 64);
  const start = r.string('start_date', 64);
  const end = r.string('end_date', 64);
  const errors: FieldErrors = {};
  const range = parseRange(start, end, errors);
  for (const [field, messages] of Object.entries(errors))
    for (const m of messages) r.fail(field, m);
  let exact: string | undefined = action;
  let prefix: string | undefined;
  if (action?.includes('*')) {
    const m = ACTION_PREFIX.exec(action);
    if (m) [exact, prefix] = [undefined, m[1]];
    else r.fail('action', 'must be an action (user.created) or a prefix ending in .* (user.*)');
  }
  return { action: exact, actionPrefix: prefix, userId, actorId, projectId, ...range };
}

const FILTER_QUERIES = [
  { name: 'start_date', description: 'YYYY-MM-DD (UTC day) or ISO 8601; inclusive' },
  {
    name: 'end_date',
    description: 'YYYY-MM-DD (the whole UTC day is included) or ISO 8601; inclusive',
  },
  {
    name: 'action',
    description: 'Exact action (`user.created`), or a prefix ending in `.*` (`user.*`)',
  },
  { name: 'user_id', description: 'Events whose actor or resource is this user' },
  { name: 'actor_id', description: 'Events this user or API key did' },
  { name: 'project_id', description: "Events of one of the tenant's projects" },
];
const ApiAuditFilters = (): MethodDecorator => (target, key, descriptor) => {
  for (const q of FILTER_QUERIES) ApiQuery({ ...q, required: false })(target, key, descriptor);
};

@AdminController('audit', 'v1/admin/audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @AdminRoute.get(
    '',
    "Query the tenant's audit log, newest first: `{events, pagination}`",
    AuditEventListResponse,
    ApiAuditFilters(),
    ApiQuery({ name: 'page', required: false }),
    ApiQuery({ name: 'limit', required: false, description: '1–100, default 20' }),
  )
  query(
    @CurrentAdmin() admin: AdminContext,
    @Query() query: Record<string, unknown>,
  ): Promise<AuditEventListResponse> {
    const r = new QueryReader(query);
    const filter = readFilter(r);
    const page = r.page();
    r.done();
    return this.audit.query(admin.tenantId, filter, page);
  }

  @AdminRoute.get(
    'export',
    'Stream every event matching the filters, newest first, without paging: `format=csv` (a header line; `data` as JSON) or `ndjson` (one event object a line, as the list shows them)',
    {
      description: 'The events, as an attachment',
      content: {
        'application/x-ndjson': {
          schema: {
            type: 'string',
            description: 'One audit event object (as `GET /v1/admin/audit` lists them) a line',
          },
        },
        'text/csv': {
          schema: {
            type: 'string',
            description:
              'id,created_at,action,actor_type,actor_id,resource_type,resource_id,project_id,ip_address,user_agent,data',
          },
        },
      },
    },
    ApiAuditFilters(),
    ApiQuery({ name: 'format', required: true, enum: ['csv', 'ndjson'] }),
    ApiProduces('text/csv', 'application/x-ndjson'),
  )
  async export(
    @CurrentAdmin() admin: AdminContext,
    @Query() query: Record<string, unknown>,
    @Res() res: Response,
  ): Promise<void> {
    const r = new QueryReader(query);
    const filter = readFilter(r);
    const format = r.string('format', 10);
    if (format !== 'csv' && format !== 'ndjson') r.fail('format', 'must be csv or ndjson');
    r.done();
    await this.audit.export(admin.tenantId, filter, format as AuditExportFormat, res);
  }
}
