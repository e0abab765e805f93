import { ApiProperty } from '@nestjs/swagger';
import type { AuditEventRow, RecordedEvent } from '@gatehouse/identity';
import { PaginationResponse } from '@gatehouse/http';

const ACTOR_TYPES = ['user', 'admin', 'system', 'api_key'] satisfies RecordedEvent['actorType'][];

/** Audit event (spec + docs/api-contract.md §10); timestamps in UTC. */
export class AuditEventResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: ACTOR_TYPES }) actor_type!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The acting user or API key; null when the system acted',
  })
  actor_id!: string | null;
  @ApiProperty({ description: '`<resource>.<verb>`', example: 'user.created' }) action!: string;
  @ApiProperty({ example: 'user' }) resource_type!: string;
  @ApiProperty({ type: String, nullable: true }) resource_id!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) project_id!: string | null;
  @ApiProperty({ type: String, nullable: true }) ip_address!: string | null;
  @ApiProperty({ type: String, nullable: true }) user_agent!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'What there is to say (docs/api-contract.md §13): an update\'s `changes` (`{"<field>": {"from", "to"}}`, a secret as `{"changed": true}`), a failed sign-in\'s `reason`, an import\'s counts; `{}` when nothing',
  })
  data!: Record<string, unknown>;
}

/** `GET /v1/admin/audit`, newest first. */
export class AuditEventListResponse {
  @ApiProperty({ type: [AuditEventResponse] }) events!: AuditEventResponse[];
  @ApiProperty({ type: PaginationResponse }) pagination!: PaginationResponse;
}

export function toAuditEventResponse(e: AuditEventRow): AuditEventResponse {
  return {
    id: e.id,
    actor_type: e.actor_type,
    actor_id: e.actor_id,
    action: e.action,
    resource_type: e.resource_type,
    resource_id: e.resource_id,
    project_id: e.project_id,
    ip_address: e.ip_address,
    user_agent: e.user_agent,
    created_at: new Date(e.created_at).toISOString(),
    data: e.metadata ?? {},
  };
}
