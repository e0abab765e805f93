import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FieldErrors } from '@gatehouse/problem-details';
import { AdminGuard, type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { QueryReader } from '../common/query-params';
import { AuditEventListResponse } from './audit-event.response';
import { parseRange } from './audit-query';
import { AuditService } from './audit.service';

@ApiTags('audit')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('v1/admin/audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({ summary: "Query the tenant's audit log, newest first: `{events, pagination}`" })
  @ApiQuery({ name: 'start_date', required: false, description: 'YYYY-MM-DD (UTC day) or ISO 8601; inclusive' })
  @ApiQuery({ name: 'end_date', required: false, description: 'YYYY-MM-DD (the whole UTC day is included) or ISO 8601; inclusive' })
  @ApiQuery({ name: 'action', required: false, description: 'Exact action, e.g. user.created' })
  @ApiQuery({ name: 'page', required: false })
  @ApiQuery({ name: 'limit', required: false, description: '1–100, default 20' })
  @ApiOkResponse({ type: AuditEventListResponse })
  query(@CurrentAdmin() admin: AdminContext, @Query() query: Record<string, unknown>): Promise<AuditEventListResponse> {
    const r = new QueryReader(query);
    const action = r.string('action', 100);
    const start = r.string('start_date', 64);
    const end = r.string('end_date', 64);
    const page = r.page();
    const errors: FieldErrors = {};
    const range = parseRange(start, end, errors);
    for (const [field, messages] of Object.entries(errors)) for (const m of messages) r.fail(field, m);
    r.done();
    return this.audit.query(admin.tenantId, { action, ...range }, page);
  }
}
